// Where a collection's records are kept (collection.ts): a slot per record, found by id, placed on
// the timeline, and posted in each equality index under its key. Adding, removing and moving a
// slot (after its time or an indexed field changed) keeps the three in step. The pure ordering of
// slots, runs and posting lists is in slots.ts.
import type { CollectionOptions } from './collection-options.js'
import { insertSorted, post, removeSorted, unpost, type IndexKey, type Postings, type Slot } from './slots.js'

const defaultTime = (record: unknown): string => ((record as { createdAt?: unknown }).createdAt as string | undefined) ?? ''

export class Indexes<T> {
  /** id → slot; Map order is creation order. */
  readonly byId = new Map<string, Slot<T>>()
  /** Every slot sorted by (time, creation number). */
  readonly timeline: Slot<T>[] = []
  /** Per index (in the order of `names`): key → the slots with that key, in timeline order. */
  readonly postings: Postings<T>[]
  readonly #names: string[]
  readonly #keys: Array<(record: T) => IndexKey>
  /** Per index: how many slots are posted (records whose key is not null). */
  readonly #posted: number[]
  readonly #time: (record: T) => string
  #seq = 0

  constructor(options: CollectionOptions<T>) {
    this.#time = options.time ?? defaultTime
    this.#names = Object.keys(options.indexes ?? {})
    this.#keys = Object.values(options.indexes ?? {})
    this.postings = this.#names.map(() => new Map())
    this.#posted = this.#names.map(() => 0)
  }

  /** The position of an index by name; an unknown name is the caller's mistake. */
  indexOf(name: string): number {
    const i = this.#names.indexOf(name)
    if (i < 0) throw new Error(`No index "${name}"`)
    return i
  }

  /** Places a new record: by id, on the timeline, in every index. */
  add(id: string, record: T): Slot<T> {
    const added: Slot<T> = { id, record, seq: this.#seq++, time: this.#time(record), keys: this.#keysOf(record) }
    this.byId.set(id, added)
    insertSorted(this.timeline, added)
    added.keys.forEach((key, i) => {
      this.#post(i, key, added)
    })
    return added
  }

  /** Takes a record out of every place; undefined for an unknown id. */
  remove(id: string): Slot<T> | undefined {
    const slot = this.byId.get(id)
    if (!slot) return undefined
    this.byId.delete(id)
    removeSorted(this.timeline, slot)
    slot.keys.forEach((key, i) => {
      this.#unpost(i, key, slot)
    })
    return slot
  }

  /** Puts a slot where its record's time and keys now place it. */
  reslot(slot: Slot<T>): void {
    const time = this.#time(slot.record)
    const keys = this.#keysOf(slot.record)
    const moved = time !== slot.time
    if (moved) {
      // Posting lists are in time order too: take the slot out everywhere, then put it back.
      removeSorted(this.timeline, slot)
      slot.keys.forEach((key, i) => {
        this.#unpost(i, key, slot)
      })
      slot.time = time
      insertSorted(this.timeline, slot)
      keys.forEach((key, i) => {
        this.#post(i, key, slot)
      })
    } else {
      keys.forEach((key, i) => {
        if (slot.keys[i] === key) return
        this.#unpost(i, slot.keys[i], slot)
        this.#post(i, key, slot)
      })
    }
    slot.keys = keys
  }

  clear(): void {
    this.byId.clear()
    this.timeline.length = 0
    for (const p of this.postings) p.clear()
    this.#posted.fill(0)
  }

  /** Whether every record has a key in this index (so dropping a condition on it drops nothing). */
  nullFree(index: number): boolean {
    return this.#posted[index] === this.byId.size
  }

  /** The ids of the records with any of these keys in an index (each key's in timeline order). */
  idsByIndex(name: string, keys: Iterable<string>): string[] {
    const i = this.indexOf(name)
    const out: string[] = []
    for (const key of keys) {
      const found = (this.postings[i] as Postings<T>).get(key)
      if (found === undefined) continue
      if (Array.isArray(found)) for (const slot of found) out.push(slot.id)
      else out.push(found.id)
    }
    return out
  }

  /** The records of one index key, in timeline order (or in creation order). */
  byIndex(name: string, key: string, order: 'timeline' | 'creation'): T[] {
    const i = this.indexOf(name)
    const found = (this.postings[i] as Postings<T>).get(key)
    if (found === undefined) return []
    if (!Array.isArray(found)) return [found.record]
    return (order === 'creation' ? found.slice().sort((a, b) => a.seq - b.seq) : found).map((s) => s.record)
  }

  #post(index: number, key: IndexKey, slot: Slot<T>): void {
    if (key === null || key === undefined) return
    post(this.postings[index] as Postings<T>, key, slot)
    ;(this.#posted[index] as number)++
  }

  #unpost(index: number, key: IndexKey, slot: Slot<T>): void {
    if (key === null || key === undefined) return
    unpost(this.postings[index] as Postings<T>, key, slot)
    ;(this.#posted[index] as number)--
  }

  #keysOf(record: T): IndexKey[] {
    return this.#keys.map((key) => key(record))
  }
}
