// The settlement entries of a month as reconcile keeps them while the other records stream past:
// per reference (a transaction id, or a refund id) one slot, and per slot only what the checks
// read: the amount of the first entry of each kind and how many there were, the merchant and the
// currency of the slot's first entry. The id maps to a slot number; the rest lives in typed
// columns that grow by doubling, with merchant ids and currencies as numbers into one table of
// distinct strings. No object is made per entry or per slot, and no part of a record is kept.
// Amounts after the first of a kind (duplicates, rare) wait in a side table, in arrival order.

/** What a check reads of one slot, made when the slot is taken. */
export interface Slot {
  merchantId: string | null
  currency: string
  /** The amounts of each kind of entry, in arrival order (an empty list for none). */
  amounts: number[][]
}

const INITIAL = 1024

export class EntryIndex {
  private readonly slots = new Map<string, number>()
  private used = 0
  private capacity = 0
  /** Per slot and kind: the first amount, and how many entries of that kind. */
  private first = new Float64Array(0)
  private count = new Uint32Array(0)
  /** Per slot: the merchant (0 for none, else 1 + its place in `strings`) and the currency (its place). */
  private merchant = new Uint32Array(0)
  private currency = new Uint32Array(0)
  /** Second and later amounts, by slot × kinds + kind. */
  private readonly more = new Map<number, number[]>()
  /** Each distinct merchant id and currency once, however many entries name it. */
  private readonly strings: string[] = []
  private readonly stringAt = new Map<string, number>()

  /** `kinds`: how many kinds of entry a slot counts (payments and fees: 2; refunds: 1). */
  constructor(private readonly kinds: number) {}

  get size(): number {
    return this.slots.size
  }

  /** Counts one entry of `kind` for `id`; a new slot takes the merchant and currency of its first entry. */
  add(id: string, kind: number, amount: number, merchantId: string | null, currency: string): void {
    let slot = this.slots.get(id)
    if (slot === undefined) {
      if (this.used === this.capacity) this.grow()
      slot = this.used++
      this.slots.set(id, slot)
      this.merchant[slot] = merchantId === null ? 0 : this.intern(merchantId) + 1
      this.currency[slot] = this.intern(currency)
    }
    const at = slot * this.kinds + kind
    const n = this.count[at] as number
    if (n === 0) this.first[at] = amount
    else {
      const list = this.more.get(at)
      if (list) list.push(amount)
      else this.more.set(at, [amount])
    }
    this.count[at] = n + 1
  }

  /** The slot of `id`, removed from the index (undefined when no entry named it). */
  take(id: string): Slot | undefined {
    const slot = this.slots.get(id)
    if (slot === undefined) return undefined
    this.slots.delete(id)
    return this.read(slot)
  }

  /** The slots no one took, in the order their first entry came; the index is empty afterwards. */
  *drain(): Generator<[string, Slot]> {
    for (const [id, slot] of this.slots) {
      this.slots.delete(id)
      yield [id, this.read(slot)]
    }
  }

  /** The slot as a check reads it; its duplicates leave the side table. */
  private read(slot: number): Slot {
    const m = this.merchant[slot] as number
    const amounts: number[][] = []
    for (let kind = 0; kind < this.kinds; kind++) {
      const at = slot * this.kinds + kind
      const n = this.count[at] as number
      const rest = n > 1 ? (this.more.get(at) as number[]) : []
      if (n > 1) this.more.delete(at)
      amounts.push(n === 0 ? [] : [this.first[at] as number, ...rest])
    }
    return { merchantId: m === 0 ? null : (this.strings[m - 1] as string), currency: this.strings[this.currency[slot] as number] as string, amounts }
  }

  private intern(text: string): number {
    let at = this.stringAt.get(text)
    if (at === undefined) {
      at = this.strings.length
      this.strings.push(text)
      this.stringAt.set(text, at)
    }
    return at
  }

  private grow(): void {
    const capacity = Math.max(INITIAL, this.capacity * 2)
    const widen = <A extends Float64Array | Uint32Array>(old: A, make: (n: number) => A, per: number): A => {
      const next = make(capacity * per)
      next.set(old)
      return next
    }
    this.first = widen(this.first, (n) => new Float64Array(n), this.kinds)
    this.count = widen(this.count, (n) => new Uint32Array(n), this.kinds)
    this.merchant = widen(this.merchant, (n) => new Uint32Array(n), 1)
    this.currency = widen(this.currency, (n) => new Uint32Array(n), 1)
    this.capacity = capacity
  }
}
