// The identifiers a walk has already delivered, kept small: a 63-bit fingerprint per identifier
// in an open-addressed table of 32-bit words (8 bytes a record at most 50 % full, about 16 MiB
// for a million records, where a Set of strings takes five times that).
//
// Two distinct identifiers share a fingerprint with a chance of about n²/2^64 (3 in 10^8 at a
// million records). The walk treats a repeated identifier as a sign that the list moved and
// then checks its count against the service's total, so such a collision could only ever show
// up as an error, never as a record silently lost.

const INITIAL_SLOTS = 1024

export class IdSet {
  private table = new Uint32Array(INITIAL_SLOTS * 2)
  private slots = INITIAL_SLOTS
  private used = 0

  get size(): number {
    return this.used
  }

  /** Adds `id`; false when it was already there. */
  add(id: string): boolean {
    const [a, b] = fingerprint(id)
    if ((this.used + 1) * 2 > this.slots) this.grow()
    return this.insert(a, b)
  }

  private insert(a: number, b: number): boolean {
    const mask = this.slots - 1
    let slot = a & mask
    for (;;) {
      const at = slot * 2
      const storedB = this.table[at + 1] as number
      if (storedB === 0) {
        this.table[at] = a
        this.table[at + 1] = b
        this.used++
        return true
      }
      if (storedB === b && this.table[at] === a) return false
      slot = (slot + 1) & mask
    }
  }

  private grow(): void {
    const old = this.table
    this.slots *= 2
    this.table = new Uint32Array(this.slots * 2)
    this.used = 0
    for (let at = 0; at < old.length; at += 2) {
      const b = old[at + 1] as number
      if (b !== 0) this.insert(old[at] as number, b)
    }
  }
}

/** Two independent 32-bit hashes (FNV-1a and a multiplicative one); the second is never 0, marking a used slot. */
function fingerprint(id: string): [number, number] {
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
  return [a >>> 0, (b | 1) >>> 0]
}
