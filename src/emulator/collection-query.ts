// How a collection (collection.ts) answers a query. The plan picks the cheapest way in: the index
// (or the time range of the timeline, or the ids asked for) that yields the fewest candidates,
// and what is left to check on those alone. The scan reads a query's records one at a time in
// timeline order, and finds its place again after a write. Cutting pages is selection.ts's.
import { Selection, type Plan, type Query, type SelectionSource } from './selection.js'
import type { Indexes } from './collection-indexes.js'
import { bySlotOrder, positionOf, runSize, timePosition, type Postings, type Run, type Slot } from './slots.js'

/** The runs that hold exactly the records an indexed query selects, or the smallest run set and what is left to check. */
export function planQuery<T>(indexes: Indexes<T>, query: Query<T>): Plan<T> {
  const conditions: Array<{ index: number; keys: Set<string> }> = []
  for (const [name, keys] of Object.entries(query.where ?? {})) {
    if (keys === undefined) continue
    const index = indexes.indexOf(name)
    const postings = indexes.postings[index] as Postings<T>
    const set = new Set(keys)
    // A condition every present key meets is no condition (a marketplace seeing all its merchants).
    if (set.size >= postings.size && indexes.nullFree(index) && [...postings.keys()].every((k) => set.has(k))) continue
    conditions.push({ index, keys: set })
  }
  const { after, before: until } = query
  const cut = (list: readonly Slot<T>[]): Run<T> => ({
    list,
    from: after === undefined ? 0 : timePosition(list, after, false),
    to: until === undefined ? list.length : timePosition(list, until, false),
  })
  let best: { runs: Run<T>[]; condition: number } = { runs: [cut(indexes.timeline)], condition: -1 }
  let bestSize = runSize(best.runs)
  const ids = query.ids === undefined ? undefined : new Set(query.ids)
  if (ids !== undefined) {
    const slots = [...ids].map((id) => indexes.byId.get(id)).filter((slot): slot is Slot<T> => slot !== undefined)
    best = { runs: [cut(slots.sort(bySlotOrder))], condition: -2 }
    bestSize = runSize(best.runs)
  }
  conditions.forEach((c, n) => {
    const postings = indexes.postings[c.index] as Postings<T>
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

/**
 * The records a query selects, in timeline order, one at a time: nothing is gathered or copied
 * first, so the first record comes at once however many follow. Writes meanwhile are allowed:
 * after one (the collection's `version` changed), the scan finds its place again from the last
 * record it gave (runs are sorted), so it neither repeats nor skips a record that stays; records
 * added later in time than that one are included.
 */
export function* scanQuery<T>(collection: SelectionSource<T> & { readonly version: number }, query: Query<T>): Generator<T, void, undefined> {
  const plan = collection.plan(query)
  const check = plan.exact ? undefined : plan.check
  if (plan.runs.length > 1) {
    // Several runs (keys of one condition, such as two merchants): merged once, then read.
    yield* new Selection(collection, query).slots().map((slot) => slot.record)
    return
  }
  const run = plan.runs[0]
  if (run === undefined) return
  const { list } = run
  let at = run.from
  let end = run.to
  let seen = collection.version
  let last: Slot<T> | undefined
  for (;;) {
    if (collection.version !== seen) {
      seen = collection.version
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
