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
// This file holds the collection's face: writes, reads by id and in creation order, watchers,
// the version and its cache, JSON. Where the slots are kept (by id, timeline, postings) is
// collection-indexes.ts; how a query is answered (the plan: the index or time range with the
// fewest candidates, then the other conditions on those alone; the scan) is collection-query.ts;
// pages are cut from a query's selection in selection.ts; the pure ordering of slots and runs is
// in slots.ts.

import { Indexes } from './collection-indexes.js'
import type { CollectionOptions, CollectionWatcher } from './collection-options.js'
import { planQuery, scanQuery } from './collection-query.js'
import { Selection, type Plan, type Query, type SelectionSource } from './selection.js'
import { inBulk, type Slot } from './slots.js'

export { Selection, type Query } from './selection.js'
export type { IndexKey } from './slots.js'
export { byMerchantId, lowercase, type CollectionOptions, type CollectionWatcher } from './collection-options.js'

/** Cached results of a collection, dropped on every change. */
const CACHE_SIZE = 8

export class Collection<T> implements SelectionSource<T> {
  readonly #indexes: Indexes<T>
  readonly #byId: Map<string, Slot<T>>
  readonly #json: 'object' | 'array'
  readonly #idOf: ((record: T) => string) | undefined
  readonly #cache = new Map<string, Slot<T>[]>()
  readonly #watchers: CollectionWatcher<T>[] = []
  #version = 0

  constructor(options: CollectionOptions<T> = {}) {
    this.#indexes = new Indexes(options)
    this.#byId = this.#indexes.byId
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
    this.#indexes.add(id, record)
    this.#changed()
    for (const w of this.#watchers) w.added(record)
    return this
  }

  /** Tells `watcher` of every write from now on (see CollectionWatcher). */
  watch(watcher: CollectionWatcher<T>): void {
    this.#watchers.push(watcher)
  }

  delete(id: string): boolean {
    if (!this.#indexes.remove(id)) return false
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
    this.#indexes.clear()
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
    return this.#indexes.idsByIndex(name, keys)
  }

  /** The records of one index key, in timeline order (or in creation order). */
  byIndex(name: string, key: string, order: 'timeline' | 'creation' = 'timeline'): T[] {
    return this.#indexes.byIndex(name, key, order)
  }

  /** The records a query selects, ready to be cut into pages. */
  select(query: Query<T> = {}): Selection<T> {
    return new Selection(this, query)
  }

  /**
   * The records a query selects, in timeline order, one at a time, writes meanwhile allowed
   * (collection-query.ts, `scanQuery`).
   */
  scan(query: Query<T> = {}): Generator<T, void, undefined> {
    return scanQuery(this, query)
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
    return planQuery(this.#indexes, query)
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

  #reslot(slot: Slot<T>): void {
    this.#indexes.reslot(slot)
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
