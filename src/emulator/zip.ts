// A small ZIP writer: deflated entries (node:zlib), optionally encrypted with the traditional
// PKWARE scheme ("ZipCrypto", APPNOTE.TXT section 6.1), which common tools open with a password
// (`unzip -P`, 7-Zip, the file managers of Windows and macOS). Everything is written in one go:
// local headers with sizes and CRC (no data descriptors), the central directory, and the end
// record. No ZIP64: the emulator's files are small.
import { createHash } from 'node:crypto'
import { deflateRawSync } from 'node:zlib'

export interface ZipEntry {
  name: string
  data: Buffer | string
  /** Modification time written in the entry (DOS time, local fields taken as UTC). */
  modifiedAt: Date
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** One step of CRC-32 (the running value is kept un-inverted, as the cipher needs it). */
function crcStep(crc: number, byte: number): number {
  return (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8)
}

export function crc32(data: Buffer): number {
  let crc = 0xffffffff
  for (const byte of data) crc = crcStep(crc, byte)
  return (crc ^ 0xffffffff) >>> 0
}

/** The three keys of the traditional PKWARE cipher, set up from a password. */
export class ZipCryptoKeys {
  private k0 = 0x12345678
  private k1 = 0x23456789
  private k2 = 0x34567890

  constructor(password: string) {
    for (const byte of Buffer.from(password, 'utf8')) this.update(byte)
  }

  private update(plain: number): void {
    this.k0 = crcStep(this.k0, plain) >>> 0
    this.k1 = (Math.imul((this.k1 + (this.k0 & 0xff)) >>> 0, 134775813) + 1) >>> 0
    this.k2 = crcStep(this.k2, this.k1 >>> 24) >>> 0
  }

  private streamByte(): number {
    const t = (this.k2 | 2) & 0xffff
    return (Math.imul(t, t ^ 1) >>> 8) & 0xff
  }

  encrypt(plain: Buffer): Buffer {
    const out = Buffer.alloc(plain.length)
    for (let i = 0; i < plain.length; i++) {
      const p = plain[i] as number
      out[i] = p ^ this.streamByte()
      this.update(p)
    }
    return out
  }

  decrypt(cipher: Buffer): Buffer {
    const out = Buffer.alloc(cipher.length)
    for (let i = 0; i < cipher.length; i++) {
      const p = (cipher[i] as number) ^ this.streamByte()
      out[i] = p
      this.update(p)
    }
    return out
  }
}

function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.max(1980, date.getUTCFullYear())
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    day: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  }
}

/**
 * A ZIP file of the entries. With a password every entry is encrypted (general-purpose flag bit
 * 0). The 12-byte encryption header is derived from the entry (not random), so that the same
 * input always gives the same file; its last byte is the high byte of the CRC, as the format asks.
 */
export function buildZip(entries: readonly ZipEntry[], password?: string): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const plain = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data
    const crc = crc32(plain)
    let body = deflateRawSync(plain)
    let flags = 0x0800 // names are UTF-8
    if (password !== undefined) {
      flags |= 0x0001
      const header = createHash('sha256').update(entry.name).update(plain).digest().subarray(0, 12)
      header[11] = (crc >>> 24) & 0xff
      const keys = new ZipCryptoKeys(password)
      body = Buffer.concat([keys.encrypt(header), keys.encrypt(body)])
    }
    const { time, day } = dosDateTime(entry.modifiedAt)

    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4) // version needed: 2.0 (deflate, traditional encryption)
    local.writeUInt16LE(flags, 6)
    local.writeUInt16LE(8, 8) // deflate
    local.writeUInt16LE(time, 10)
    local.writeUInt16LE(day, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(plain.length, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28)
    locals.push(local, name, body)

    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4) // made by: 2.0, MS-DOS attributes
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(flags, 8)
    central.writeUInt16LE(8, 10)
    central.writeUInt16LE(time, 12)
    central.writeUInt16LE(day, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(plain.length, 24)
    central.writeUInt16LE(name.length, 28)
    // extra length, comment length, disk number, internal and external attributes: all zero
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)

    offset += local.length + name.length + body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
