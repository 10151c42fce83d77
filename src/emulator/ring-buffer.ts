// A log that keeps only its last `capacity` entries, so memory stays bounded however long the
// emulator runs. Every entry gets a sequence number (1, 2, 3, …) that never repeats, which
// callers use as a cursor: "everything after 41". An optional `view` turns an entry as pushed
// into the entry as read, once (the result replaces it), so costly work is done only for the
// entries someone reads.

export interface Sequenced {
  seq: number
}

export class RingBuffer<T extends Sequenced> {
  readonly capacity: number
  private readonly items: Array<T | undefined>
  private start = 0
  private size = 0
  private lastSeq = 0

  constructor(
    capacity: number,
    private readonly view?: (entry: T) => T,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`A ring buffer needs a capacity of at least 1, not ${capacity}`)
    this.capacity = capacity
    this.items = new Array<T | undefined>(capacity)
  }

  /** Entries held now (at most `capacity`). */
  get length(): number {
    return this.size
  }

  /** Sequence number of the newest entry (0 when nothing was ever added). */
  get latestSeq(): number {
    return this.lastSeq
  }

  /** Adds an entry, giving it the next sequence number; the oldest is dropped when full. */
  push(entry: Omit<T, 'seq'>): T {
    const full = { seq: ++this.lastSeq, ...entry } as T
    if (this.size < this.capacity) {
      this.items[(this.start + this.size) % this.capacity] = full
      this.size++
    } else {
      this.items[this.start] = full
      this.start = (this.start + 1) % this.capacity
    }
    return full
  }

  /** The i-th entry held, oldest first, as read. */
  private at(i: number): T {
    const index = (this.start + i) % this.capacity
    const item = this.items[index] as T
    if (this.view === undefined) return item
    const seen = this.view(item)
    if (seen !== item) this.items[index] = seen
    return seen
  }

  /** Entries oldest first. */
  toArray(): T[] {
    const out: T[] = []
    for (let i = 0; i < this.size; i++) out.push(this.at(i))
    return out
  }

  /** Entries with a sequence number above `seq`, oldest first, at most `limit` of them. */
  after(seq: number, limit = this.capacity): T[] {
    const out: T[] = []
    for (let i = 0; i < this.size && out.length < limit; i++) {
      if ((this.items[(this.start + i) % this.capacity] as T).seq > seq) out.push(this.at(i))
    }
    return out
  }

  /** The newest `count` entries, oldest first. */
  last(count: number): T[] {
    const n = Math.max(0, Math.min(count, this.size))
    const out: T[] = []
    for (let i = this.size - n; i < this.size; i++) out.push(this.at(i))
    return out
  }

  /**
   * Up to `limit` entries with a sequence number below `beforeSeq` (all, when undefined), newest
   * first. Sequence numbers of the entries held are consecutive, so this costs `limit`, not the log.
   */
  page(beforeSeq: number | undefined, limit: number): T[] {
    const oldest = this.lastSeq - this.size + 1
    const below = beforeSeq === undefined ? this.lastSeq + 1 : Math.min(beforeSeq, this.lastSeq + 1)
    const out: T[] = []
    for (let seq = below - 1; seq >= oldest && out.length < limit; seq--) out.push(this.at(seq - oldest))
    return out
  }

  /** The entry with this sequence number, while it is held. */
  bySeq(seq: number): T | undefined {
    const i = seq - (this.lastSeq - this.size + 1)
    return Number.isInteger(i) && i >= 0 && i < this.size ? this.at(i) : undefined
  }

  /** Sequence number of the oldest entry held (latestSeq + 1 when empty). */
  get oldestSeq(): number {
    return this.lastSeq - this.size + 1
  }

  /** The newest entry that satisfies `test`. */
  findLast(test: (entry: T) => boolean): T | undefined {
    for (let i = this.size - 1; i >= 0; i--) {
      const item = this.at(i)
      if (test(item)) return item
    }
    return undefined
  }

  /** Forgets every entry; sequence numbers keep counting up, so old cursors stay valid. */
  clear(): void {
    this.items.fill(undefined)
    this.start = 0
    this.size = 0
  }
}
