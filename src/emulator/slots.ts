// The pure part of a collection (collection.ts): slots, their order, the sorted runs that hold
// them (the timeline and each index key's posting list), and runs of those. No class here, and no
// import: the collection and its selections (selection.ts) both build on it.
//
//   slot order   time (the record's `createdAt`), then creation number
//   run          a stretch [from, to) of a list sorted in slot order
//   postings     index key -> its slots in slot order (a lone slot is kept without an array)

/** An index key of a record; null or undefined keeps the record out of that index. */
export type IndexKey = string | null | undefined

export interface Slot<T> {
  readonly id: string
  record: T
  /** Creation number: the order in which records were first added. */
  readonly seq: number
  time: string
  keys: IndexKey[]
}

/** Slot order: time, then creation number. */
export function before<T>(a: Slot<T>, b: Slot<T>): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq)
}

/** Slot order as a comparator, for `Array.prototype.sort`. */
export const bySlotOrder = <T>(a: Slot<T>, b: Slot<T>): number => (before(a, b) ? -1 : 1)

/** The first position in `list` (sorted by slot order) whose slot is not before `slot`. */
export function positionOf<T>(list: readonly Slot<T>[], slot: Slot<T>): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (before(list[mid] as Slot<T>, slot)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The first position whose time is at or after `time` (`strict`: after it). */
export function timePosition<T>(list: readonly Slot<T>[], time: string, strict: boolean): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const t = (list[mid] as Slot<T>).time
    if (t < time || (strict && t === time)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** During `inBulk()`: the runs appended to out of order, sorted once at the end. */
let deferred: Set<Slot<unknown>[]> | undefined

export function insertSorted<T>(list: Slot<T>[], slot: Slot<T>): void {
  const last = list[list.length - 1]
  if (last === undefined || before(last, slot)) list.push(slot)
  else if (deferred) {
    list.push(slot)
    deferred.add(list as Slot<unknown>[])
  } else list.splice(positionOf(list, slot), 0, slot)
}

export function removeSorted<T>(list: Slot<T>[], slot: Slot<T>): void {
  const at = positionOf(list, slot)
  if (list[at] === slot) list.splice(at, 1)
}

/**
 * Runs `add` with sorted inserts deferred: a slot that does not go at the end of its run is
 * appended, and each such run is sorted once when the outermost `inBulk` ends.
 */
export function inBulk(add: () => void): void {
  const outer = deferred
  deferred = outer ?? new Set()
  try {
    add()
  } finally {
    if (outer === undefined) {
      const lists = deferred
      deferred = undefined
      for (const list of lists) list.sort(bySlotOrder)
    }
  }
}

export type Postings<T> = Map<string, Slot<T> | Slot<T>[]>

export function post<T>(postings: Postings<T>, key: string, slot: Slot<T>): void {
  const found = postings.get(key)
  if (found === undefined) postings.set(key, slot)
  else if (Array.isArray(found)) insertSorted(found, slot)
  else postings.set(key, before(found, slot) ? [found, slot] : [slot, found])
}

export function unpost<T>(postings: Postings<T>, key: string, slot: Slot<T>): void {
  const found = postings.get(key)
  if (found === undefined) return
  if (!Array.isArray(found)) {
    if (found === slot) postings.delete(key)
    return
  }
  removeSorted(found, slot)
  if (found.length === 1) postings.set(key, found[0] as Slot<T>)
  else if (found.length === 0) postings.delete(key)
}

/** A run of slots in slot order: list[from, to). */
export interface Run<T> {
  list: readonly Slot<T>[]
  from: number
  to: number
}

export const runSize = <T>(runs: readonly Run<T>[]) => runs.reduce((n, r) => n + (r.to - r.from), 0)
