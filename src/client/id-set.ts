// The identifiers a walk has already delivered, kept small: a 63-bit fingerprint per identifier
// in open-addressed tables of 32-bit words. The tables are 256 buckets by the fingerprint's top
// byte, each grown on its own at three quarters full, so memory follows the count (about 14
// bytes a record: 14 MiB for a million, where a Set of strings takes five times that) and no
// growth ever copies more than one bucket.
//
// Two distinct identifiers share a fingerprint with a chance of about n²/2^64 (3 in 10^8 at a
// million records). The walk treats a repeated identifier as a sign that the list moved and
// then checks its count against the service's total, so such a collision could only ever show
// up as an error, never as a record silently lost.

const BUCKETS = 256
const INITIAL_SLOTS = 16

export class IdSet {
  private readonly tables: Uint32Array[] = Array.from({ length: BUCKETS }, () => new Uint32Array(INITIAL_SLOTS * 2))
  private readonly used = new Uint32Array(BUCKETS)
  private count = 0

  get size(): number {
    return this.count
  }

  /** Adds `id`; false when it was already there. */
  add(id: string): boolean {
    fingerprint(id)
    const a = hashA
    const b = hashB
    const bucket = a >>> 24
    let table = this.tables[bucket] as Uint32Array
    if (((this.used[bucket] as number) + 1) * 8 > table.length * 3) table = this.grow(bucket)
    if (!insert(table, a, b)) return false
    this.used[bucket] = (this.used[bucket] as number) + 1
    this.count++
    return true
  }

  private grow(bucket: number): Uint32Array {
    const old = this.tables[bucket] as Uint32Array
    const table = new Uint32Array(old.length * 2)
    for (let at = 0; at < old.length; at += 2) {
      const b = old[at + 1] as number
      if (b !== 0) insert(table, old[at] as number, b)
    }
    this.tables[bucket] = table
    return table
  }
}

/** Puts the fingerprint (a, b) in `table` (pairs of words, b never 0 in a used slot); false when it is there already. */
function insert(table: Uint32Array, a: number, b: number): boolean {
  const mask = table.length / 2 - 1
  let slot = a & mask
  for (;;) {
    const at = slot * 2
    const storedB = table[at + 1] as number
    if (storedB === 0) {
      table[at] = a
      table[at + 1] = b
      return true
    }
    if (storedB === b && table[at] === a) return false
    slot = (slot + 1) & mask
  }
}

let hashA = 0
let hashB = 0

/**
 * Two independent 32-bit hashes (FNV-1a and a multiplicative one) into hashA and hashB (no
 * array per call); hashB is never 0, which marks a used slot.
 */
function fingerprint(id: string): void {
  let a = 0x811c9dc5
  let b = 0x9e3779b9 ^ id.length
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
    b ^= b >>> 15
  }
  a ^= a >>> 16
  a = Math.imul(a, 0x85ebca6b)
  a ^= a >>> 13
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35)
  b ^= b >>> 16
  hashA = a >>> 0
  hashB = (b | 1) >>> 0
}
