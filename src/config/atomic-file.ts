// One way to replace a small private file: a temporary file beside it (0600), flushed, then
// renamed over it, so that a crash leaves the old file or the new one, never half of either. The
// temporary name's random part comes from the Web Crypto global, so reading settings never loads
// node:crypto.
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'

/** Writes `value` as indented JSON at `file` atomically, creating its folder 0700 if needed. */
export function writeJsonAtomic(file: string, value: unknown): void {
  const dir = path.dirname(file)
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(4))).toString('hex')}.tmp`)
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    const fd = fs.openSync(temp, 'wx', 0o600)
    try {
      fs.writeSync(fd, `${JSON.stringify(value, null, 2)}\n`)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(temp, file)
  } catch (error) {
    fs.rmSync(temp, { force: true })
    throw error
  }
}
