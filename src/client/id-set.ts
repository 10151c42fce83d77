// The identifiers a walk has already delivered, kept small: a 63-bit fingerprint per identifier
// in one open-addressed table of 32-bit words (two a slot). A walk knows from its first page how
// many records to expect, so the table is made for that many once (at most three quarters
// full: about 11 bytes a record, 10.7 MiB for a million, where a Set of strings takes five
// times that) and never grows unless more arrive than were announced. A table that grows
// leaves its old copies for the garbage collector; made to size, it leaves none (an earlier
// set grown bucket by bucket held up to twice its size in discarded tables at a million).
//
// Two distinct identifiers share a fingerprint with a chance of about n²/2^64 (3 in 10^8 at a
// million records). The walk treats a repeated identifier as a sign that the list moved and
// then checks its count against the service's total, so such a collision could only ever show
// up as an error (or, with --allow-partial, a warning), never as a record silently lost.

/** Slots when nothing is expected, and the fewest a table has. */
const MIN_SLOTS = 64
/** A table is made for at most this many records up front; beyond, it grows as they come. */
const MAX_EXPECTED = 1 << 22
/** The table grows (doubles) when a new entry would make it fuller than this. */
const MAX_LOAD = 0.8

export class IdSet {
  private table: Uint32Array
  private slots: number
  private count = 0

  /** `expected`: how many identifiers will be added, when known (the walk's total). */
  constructor(expected?: number) {
    const wanted = expected !== undefined && Number.isFinite(expected) && expected > 0 ? Math.min(expected, MAX_EXPECTED) : 0
    this.slots = Math.max(MIN_SLOTS, Math.ceil(wanted / 0.75))
    this.table = new Uint32Array(this.slots * 2)
  }

  get size(): number {
    return this.count
  }

  /** Adds `id`; false when it was already there. */
  add(id: string): boolean {
    fingerprint(id)
    if (this.count + 1 > this.slots * MAX_LOAD) this.grow()
    if (!insert(this.table, this.slots, hashA, hashB)) return false
    this.count++
    return true
  }

  private grow(): void {
    const old = this.table
    this.slots *= 2
    this.table = new Uint32Array(this.slots * 2)
    for (let at = 0; at < old.length; at += 2) {
      const b = old[at + 1] as number
      if (b !== 0) insert(this.table, this.slots, old[at] as number, b)
    }
  }
}

/**
 * Puts the fingerprint (a, b) in `table` of `slots` pairs of words (b never 0 in a used slot),
 * probing from a slot chosen by `a`; false when it is there already.
 */
function insert(table: Uint32Array, slots: number, a: number, b: number): boolean {
  // a / 2^32 scaled to the table: any number of slots, not only powers of two.
  let slot = Math.min(slots - 1, Math.floor((a * slots) / 4294967296))
  for (;;) {
    const at = slot * 2
    const storedB = table[at + 1] as number
    if (storedB === 0) {
      table[at] = a
      table[at + 1] = b
      return true
    }
    if (storedB === b && table[at] === a) return false
    slot = slot + 1 === slots ? 0 : slot + 1
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
