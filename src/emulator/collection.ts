// A collection of records of one kind: a Map by id, a timeline, and equality indexes, so that a
// list costs the page it answers and not the whole collection.
//
//   byId      id → slot (record, creation number, time, index keys); Map order is creation order
//   timeline  every slot sorted by (time, creation number): time is `createdAt`, so the lists'
//             default order (newest first) is the timeline read backwards
//   postings  per index: key → the slots with that key, in timeline order (a lone slot is kept
//             without an array, so a unique key costs one Map entry)
//
// Records stay plain data (the views emit them as they are). Code that changes an indexed field
// of a record in place calls `reindex(id)`; replacing a record with `set(id, record)` reindexes
// by itself. `version` changes with every write, and `touch()` (the pipeline calls it for every
// request that may change anything) invalidates what was derived from the records, such as a
// cached sorted list: so a stale order can never outlive a write.
//
// `select(query)` picks the cheapest way in: the index (or the time range of the timeline) that
// yields the fewest candidates, then checks the other conditions on those alone. When a single
// sorted run of slots is the whole answer, pages are cut straight from it.
//
// The pure ordering of slots and runs is in slots.ts, a query's selection in selection.ts.

import type { CollectionOptions, CollectionWatcher } from './collection-options.js'
import { Selection, type Plan, type Query, type SelectionSource } from './selection.js'
import {
  bySlotOrder,
  inBulk,
  insertSorted,
  positionOf,
  post,
  removeSorted,
  runSize,
  timePosition,
  unpost,
  type IndexKey,
  type Postings,
  type Run,
  type Slot,
} from './slots.js'

export { Selection, type Query } from './selection.js'
export type { IndexKey } from './slots.js'
export { byMerchantId, lowercase, type CollectionOptions, type CollectionWatcher } from './collection-options.js'

const defaultTime = (record: unknown): string => ((record as { createdAt?: unknown }).createdAt as string | undefined) ?? ''

/** Cached results of a collection, dropped on every change. */
const CACHE_SIZE = 8

export class Collection<T> implements SelectionSource<T> {
  readonly #byId = new Map<string, Slot<T>>()
  readonly #timeline: Slot<T>[] = []
  readonly #indexNames: string[]
  readonly #indexKeys: Array<(record: T) => IndexKey>
  readonly #postings: Postings<T>[]
  /** Per index: how many slots are posted (records whose key is not null). */
  readonly #posted: number[]
  readonly #time: (record: T) => string
  readonly #json: 'object' | 'array'
  readonly #idOf: ((record: T) => string) | undefined
  readonly #cache = new Map<string, Slot<T>[]>()
  readonly #watchers: CollectionWatcher<T>[] = []
  #seq = 0
  #version = 0

  constructor(options: CollectionOptions<T> = {}) {
    this.#time = options.time ?? defaultTime
    this.#indexNames = Object.keys(options.indexes ?? {})
    this.#indexKeys = Object.values(options.indexes ?? {})
    this.#postings = this.#indexNames.map(() => new Map())
    this.#posted = this.#indexNames.map(() => 0)
    this.#json = options.json ?? 'object'
    this.#idOf = options.id
  }

  /** Changes with every write and every `touch()`. */
  get version(): number {
    return this.#version
  }

  get size(): number {
    return this.#byId.size
  }

  get(id: string): T | undefined {
    return this.#byId.get(id)?.record
  }

  has(id: string): boolean {
    return this.#byId.has(id)
  }

  /** Adds a record, or replaces the one with that id (which keeps its place in creation order). */
  set(id: string, record: T): this {
    const slot = this.#byId.get(id)
    if (slot) {
      slot.record = record
      this.#reslot(slot)
      return this
    }
    const added: Slot<T> = { id, record, seq: this.#seq++, time: this.#time(record), keys: this.#keysOf(record) }
    this.#byId.set(id, added)
    insertSorted(this.#timeline, added)
    added.keys.forEach((key, i) => {
      this.#post(i, key, added)
    })
    this.#changed()
    for (const w of this.#watchers) w.added(record)
    return this
  }

  /** Tells `watcher` of every write from now on (see CollectionWatcher). */
  watch(watcher: CollectionWatcher<T>): void {
    this.#watchers.push(watcher)
  }

  delete(id: string): boolean {
    const slot = this.#byId.get(id)
    if (!slot) return false
    this.#byId.delete(id)
    removeSorted(this.#timeline, slot)
    slot.keys.forEach((key, i) => {
      this.#unpost(i, key, slot)
    })
    this.#changed()
    this.#rewritten()
    return true
  }

  /** After a record's indexed fields (or its time) changed in place. Unknown ids are ignored. */
  reindex(id: string): void {
    const slot = this.#byId.get(id)
    if (slot) this.#reslot(slot)
  }

  /**
   * Adds many records at once (`add` calls `set` for each). Each new record is appended to the
   * timeline and its index runs; runs that came out of order are sorted once at the end. When the
   * new records are in time order among themselves, that sort merges two sorted runs, so adding m
   * records to n costs O(n + m) instead of a splice each.
   */
  bulk(add: () => void): void {
    inBulk(add)
  }

  /** Forgets everything derived from the records (the pipeline calls it for every request that may write). */
  touch(): void {
    this.#changed()
  }

  clear(): void {
    this.#byId.clear()
    this.#timeline.length = 0
    for (const p of this.#postings) p.clear()
    this.#posted.fill(0)
    this.#changed()
    this.#rewritten()
  }

  /** Records in creation order. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (const slot of this.#byId.values()) yield slot.record
  }

  *values(): IterableIterator<T> {
    for (const slot of this.#byId.values()) yield slot.record
  }

  keys(): IterableIterator<string> {
    return this.#byId.keys()
  }

  *entries(): IterableIterator<[string, T]> {
    for (const [id, slot] of this.#byId) yield [id, slot.record]
  }

  /** Every record, in creation order (a copy). */
  all(): T[] {
    return Array.from(this)
  }

  find(test: (record: T) => boolean): T | undefined {
    for (const slot of this.#byId.values()) if (test(slot.record)) return slot.record
    return undefined
  }

  filter(test: (record: T) => boolean): T[] {
    const out: T[] = []
    for (const slot of this.#byId.values()) if (test(slot.record)) out.push(slot.record)
    return out
  }

  some(test: (record: T) => boolean): boolean {
    return this.find(test) !== undefined
  }

  /** The first record in creation order. */
  first(): T | undefined {
    for (const slot of this.#byId.values()) return slot.record
    return undefined
  }

  /** The ids of the records with any of these keys in an index (each key's in timeline order). */
  idsByIndex(name: string, keys: Iterable<string>): string[] {
    const i = this.#indexNames.indexOf(name)
    if (i < 0) throw new Error(`No index "${name}"`)
    const out: string[] = []
    for (const key of keys) {
      const found = (this.#postings[i] as Postings<T>).get(key)
      if (found === undefined) continue
      if (Array.isArray(found)) for (const slot of found) out.push(slot.id)
      else out.push(found.id)
    }
    return out
  }

  /** The records of one index key, in timeline order (or in creation order). */
  byIndex(name: string, key: string, order: 'timeline' | 'creation' = 'timeline'): T[] {
    const i = this.#indexNames.indexOf(name)
    if (i < 0) throw new Error(`No index "${name}"`)
    const found = (this.#postings[i] as Postings<T>).get(key)
    if (found === undefined) return []
    if (!Array.isArray(found)) return [found.record]
    return (order === 'creation' ? found.slice().sort((a, b) => a.seq - b.seq) : found).map((s) => s.record)
  }

  /** The records a query selects, ready to be cut into pages. */
  select(query: Query<T> = {}): Selection<T> {
    return new Selection(this, query)
  }

  /**
   * The records a query selects, in timeline order, one at a time: nothing is gathered or copied
   * first, so the first record comes at once however many follow. Writes meanwhile are allowed:
   * after one, the scan finds its place again from the last record it gave (runs are sorted), so
   * it neither repeats nor skips a record that stays; records added later in time than that one
   * are included.
   */
  *scan(query: Query<T> = {}): Generator<T, void, undefined> {
    const plan = this.plan(query)
    const check = plan.exact ? undefined : plan.check
    if (plan.runs.length > 1) {
      // Several runs (keys of one condition, such as two merchants): merged once, then read.
      yield* new Selection(this, query).slots().map((slot) => slot.record)
      return
    }
    const run = plan.runs[0]
    if (run === undefined) return
    const { list } = run
    let at = run.from
    let end = run.to
    let seen = this.#version
    let last: Slot<T> | undefined
    for (;;) {
      if (this.#version !== seen) {
        seen = this.#version
        if (last !== undefined) {
          at = positionOf(list, last)
          if (list[at] === last) at++
        }
        end = query.before === undefined ? list.length : timePosition(list, query.before, false)
      }
      if (at >= end) return
      const slot = list[at++] as Slot<T>
      last = slot
      if (check === undefined || check(slot)) yield slot.record
    }
  }

  /** Plain data for JSON (`--state`, the control plane's state): an object by id, or an array. */
  toJSON(): Record<string, T> | T[] {
    if (this.#json === 'array') return this.all()
    const out: Record<string, T> = {}
    for (const [id, slot] of this.#byId) out[id] = slot.record
    return out
  }

  /** Adds the records of what `toJSON()` wrote (a state file); false when `data` has the wrong shape. */
  load(data: unknown): boolean {
    if (Array.isArray(data)) {
      const idOf = this.#idOf
      if (this.#json !== 'array' || idOf === undefined) return false
      for (const record of data as T[]) this.set(idOf(record), record)
      return true
    }
    if (typeof data !== 'object' || data === null || this.#json === 'array') return false
    for (const [id, record] of Object.entries(data as Record<string, T>)) this.set(id, record)
    return true
  }

  // Internals, used by Selection ------------------------------------------------------------

  /** @internal the runs that hold exactly the records an indexed query selects, or the smallest run set and what is left to check. */
  plan(query: Query<T>): Plan<T> {
    const conditions: Array<{ index: number; keys: Set<string> }> = []
    for (const [name, keys] of Object.entries(query.where ?? {})) {
      if (keys === undefined) continue
      const index = this.#indexNames.indexOf(name)
      if (index < 0) throw new Error(`No index "${name}"`)
      const postings = this.#postings[index] as Postings<T>
      const set = new Set(keys)
      // A condition every present key meets is no condition (a marketplace seeing all its merchants).
      if (set.size >= postings.size && this.#nullFree(index) && [...postings.keys()].every((k) => set.has(k))) continue
      conditions.push({ index, keys: set })
    }
    const { after, before: until } = query
    const cut = (list: readonly Slot<T>[]): Run<T> => ({
      list,
      from: after === undefined ? 0 : timePosition(list, after, false),
      to: until === undefined ? list.length : timePosition(list, until, false),
    })
    let best: { runs: Run<T>[]; condition: number } = { runs: [cut(this.#timeline)], condition: -1 }
    let bestSize = runSize(best.runs)
    const ids = query.ids === undefined ? undefined : new Set(query.ids)
    if (ids !== undefined) {
      const slots = [...ids].map((id) => this.#byId.get(id)).filter((slot): slot is Slot<T> => slot !== undefined)
      best = { runs: [cut(slots.sort(bySlotOrder))], condition: -2 }
      bestSize = runSize(best.runs)
    }
    conditions.forEach((c, n) => {
      const postings = this.#postings[c.index] as Postings<T>
      const runs: Run<T>[] = []
      for (const key of c.keys) {
        const found = postings.get(key)
        if (found !== undefined) runs.push(cut(Array.isArray(found) ? found : [found]))
      }
      const size = runSize(runs)
      if (size < bestSize) {
        best = { runs, condition: n }
        bestSize = size
      }
    })
    const rest = conditions.filter((_, n) => n !== best.condition)
    const filter = query.filter
    const idCheck = ids !== undefined && best.condition !== -2 ? ids : undefined
    const check = (slot: Slot<T>) =>
      (idCheck === undefined || idCheck.has(slot.id)) &&
      rest.every((c) => c.keys.has(slot.keys[c.index] as string)) &&
      (filter === undefined || filter(slot.record))
    return { runs: best.runs.filter((r) => r.to > r.from), exact: rest.length === 0 && filter === undefined && idCheck === undefined, check }
  }

  /** @internal */
  cached(key: string): Slot<T>[] | undefined {
    return this.#cache.get(`${this.#version}|${key}`)
  }

  /** @internal */
  remember(key: string, slots: Slot<T>[]): void {
    if (this.#cache.size >= CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value as string)
    this.#cache.set(`${this.#version}|${key}`, slots)
  }

  /** Whether every record has a key in this index (so dropping a condition on it drops nothing). */
  #nullFree(index: number): boolean {
    return this.#posted[index] === this.#byId.size
  }

  #post(index: number, key: IndexKey, slot: Slot<T>): void {
    if (key === null || key === undefined) return
    post(this.#postings[index] as Postings<T>, key, slot)
    ;(this.#posted[index] as number)++
  }

  #unpost(index: number, key: IndexKey, slot: Slot<T>): void {
    if (key === null || key === undefined) return
    unpost(this.#postings[index] as Postings<T>, key, slot)
    ;(this.#posted[index] as number)--
  }

  #keysOf(record: T): IndexKey[] {
    return this.#indexKeys.map((key) => key(record))
  }

  #reslot(slot: Slot<T>): void {
    const time = this.#time(slot.record)
    const keys = this.#keysOf(slot.record)
    const moved = time !== slot.time
    if (moved) {
      // Posting lists are in time order too: take the slot out everywhere, then put it back.
      removeSorted(this.#timeline, slot)
      slot.keys.forEach((key, i) => {
        this.#unpost(i, key, slot)
      })
      slot.time = time
      insertSorted(this.#timeline, slot)
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
    this.#changed()
    this.#rewritten()
  }

  #rewritten(): void {
    for (const w of this.#watchers) w.rewritten()
  }

  #changed(): void {
    this.#version++
    if (this.#cache.size > 0) this.#cache.clear()
  }
}
