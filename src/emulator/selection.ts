// A selection: the records of one query (`Collection.select()`), ready to be cut into pages.
// It reads the collection only through `SelectionSource` (the plan of a query and a cache of
// results), so it does not import the collection and the two make no cycle.
import { bySlotOrder, runSize, type Run, type Slot } from './slots.js'

/** Which records a list wants: indexed conditions (AND across names, OR within a name), a time range, and a residual test. */
export interface Query<T> {
  /** Record ids accepted (undefined: no condition). */
  ids?: readonly string[] | undefined
  /** Index name → the keys accepted (undefined: no condition). An empty array matches nothing. */
  where?: Record<string, readonly string[] | undefined>
  /** Time range [after, before), bounds optional (ISO 8601 text, compared as text). */
  after?: string | undefined
  before?: string | undefined
  /** Conditions no index answers. */
  filter?: ((record: T) => boolean) | undefined
  /**
   * What `filter` depends on, as text (the query parameters it reads): lets a sorted result be
   * cached. Without it, a query with a `filter` is never cached.
   */
  filterKey?: string | undefined
}

/** How a collection answers a query: the runs to read, whether they hold exactly the answer, and the test for the rest. */
export interface Plan<T> {
  runs: Run<T>[]
  exact: boolean
  check: (slot: Slot<T>) => boolean
}

/** What a selection needs of its collection. */
export interface SelectionSource<T> {
  plan(query: Query<T>): Plan<T>
  /** A result kept for this key at the collection's current version. */
  cached(key: string): Slot<T>[] | undefined
  remember(key: string, slots: Slot<T>[]): void
}

/**
 * The records of one query. Counting and cutting pages of the default order cost the page when
 * one index run answers the query exactly; otherwise the candidates are checked once and the
 * result is kept (with the collection's version) for the next pages.
 */
export class Selection<T> {
  readonly #collection: SelectionSource<T>
  readonly #query: Query<T>
  #runs: Run<T>[] | undefined
  #matched: Slot<T>[] | undefined

  constructor(collection: SelectionSource<T>, query: Query<T>) {
    this.#collection = collection
    this.#query = query
    const plan = collection.plan(query)
    if (plan.exact && plan.runs.length <= 1) {
      this.#runs = plan.runs
      return
    }
    const key = this.cacheKey
    const cached = key === undefined ? undefined : collection.cached(`match|${key}`)
    if (cached) {
      this.#matched = cached
      return
    }
    const matched: Slot<T>[] = []
    for (const run of plan.runs) for (let i = run.from; i < run.to; i++) if (plan.check(run.list[i] as Slot<T>)) matched.push(run.list[i] as Slot<T>)
    if (plan.runs.length > 1) matched.sort(bySlotOrder)
    this.#matched = matched
    if (key !== undefined) collection.remember(`match|${key}`, matched)
  }

  /** Text that identifies the query (undefined when its filter cannot be named). */
  get cacheKey(): string | undefined {
    const q = this.#query
    if (q.filter !== undefined && q.filterKey === undefined) return undefined
    const where = Object.entries(q.where ?? {})
      .filter(([, keys]) => keys !== undefined)
      .map(([name, keys]) => `${name}=${[...new Set(keys)].sort().join(',')}`)
      .join('&')
    const ids = q.ids === undefined ? '*' : [...new Set(q.ids)].sort().join(',')
    return `${ids}|${where}|${q.after ?? ''}|${q.before ?? ''}|${q.filterKey ?? ''}`
  }

  get total(): number {
    return this.#runs ? runSize(this.#runs) : (this.#matched as Slot<T>[]).length
  }

  /** Records at positions [start, start + count) of the timeline order (`newest`: read from its end). */
  page(start: number, count: number, newest: boolean): T[] {
    const total = this.total
    const out: T[] = []
    const end = Math.min(total, start + count)
    const run = this.#runs?.[0]
    for (let n = start; n < end; n++) {
      const at = newest ? total - 1 - n : n
      const slot = run ? run.list[run.from + at] : this.#matched?.[at]
      out.push((slot as Slot<T>).record)
    }
    return out
  }

  /** Every selected slot, in timeline order. */
  slots(): Slot<T>[] {
    if (this.#matched) return this.#matched
    const run = this.#runs?.[0]
    return run ? run.list.slice(run.from, run.to) : []
  }

  /** Cached results kept beside the collection (same invalidation). */
  cached(key: string): Slot<T>[] | undefined {
    return this.#collection.cached(key)
  }

  remember(key: string, slots: Slot<T>[]): void {
    this.#collection.remember(key, slots)
  }
}
