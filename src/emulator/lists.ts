// Paginated list operations, shared by every resource group.
//
//   limit  integer 1..500, default 20
//   page   integer from 1, default 1; a page past the end is an empty array
//   sort   comma-separated field names, earlier names first; a leading `-` means descending.
//          Each list names the fields it can sort by; any other name is a 400.
// The body is a JSON array; `Page-Count` and `Total-Record-Count` headers carry the totals.
// Without `sort`, a list is newest first (the emulator's own choice), ties in creation order.
//
// Filters are read with `filters(query)`: each reader refuses a malformed value with a 400 that
// names the parameter. Identifier filters repeat (`?orderId=a&orderId=b`) and also accept
// comma-separated values. Query parameters a list does not know are ignored.
import { badRequest } from './api-error.js'
import { Selection } from './selection.js'
import { Reply } from './route.js'

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 500
const INT32_MAX = 2_147_483_647

export interface SortKey {
  field: string
  descending: boolean
}

export interface ListParams {
  limit: number
  page: number
  sort: SortKey[]
}

export type SortAccessor<T> = (record: T) => string | number | boolean | null | undefined

export interface ListOptions<T, V> {
  /** Sortable field names and how to read each. */
  sortable: Record<string, SortAccessor<T>>
  /** Order without `sort` (default `-createdAt` when `createdAt` is sortable, else creation order). */
  defaultSort?: string
  /** The record as emitted. */
  view: (record: T) => V
}

function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name)
  if (values.length > 1) throw badRequest('invalid_query', `The query parameter "${name}" may be given only once`)
  return values[0]
}

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text.trim())) throw badRequest('invalid_query', `"${name}" must be an integer from ${min} to ${max}; got "${text}"`)
  const value = Number(text.trim())
  if (value < min || value > max) throw badRequest('invalid_query', `"${name}" must be from ${min} to ${max}; got ${text}`)
  return value
}

export function parseSort(text: string, sortable: readonly string[]): SortKey[] {
  const keys: SortKey[] = []
  for (const raw of text.split(',')) {
    const part = raw.trim()
    const descending = part.startsWith('-')
    const field = descending ? part.slice(1) : part.startsWith('+') ? part.slice(1) : part
    if (!field) throw badRequest('invalid_sort', `"sort" has an empty field name: "${text}"`)
    if (!sortable.includes(field)) {
      throw badRequest('invalid_sort', `Cannot sort by "${field}"; sortable fields: ${sortable.join(', ') || 'none'}`)
    }
    keys.push({ field, descending })
  }
  return keys
}

export function parseListParams(query: URLSearchParams, sortable: readonly string[]): ListParams {
  const limitText = single(query, 'limit')
  const pageText = single(query, 'page')
  const sortText = single(query, 'sort')
  return {
    limit: limitText === undefined ? DEFAULT_LIMIT : integer('limit', limitText, 1, MAX_LIMIT),
    page: pageText === undefined ? 1 : integer('page', pageText, 1, INT32_MAX),
    sort: sortText === undefined || sortText.trim() === '' ? [] : parseSort(sortText, sortable),
  }
}

function compareValues(a: unknown, b: unknown): number {
  const aMissing = a === null || a === undefined
  const bMissing = b === null || b === undefined
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  const sa = String(a)
  const sb = String(b)
  return sa < sb ? -1 : sa > sb ? 1 : 0
}

/** The comparison of two records by the sort keys; ties go by creation order (`index`), newest first when the default descending order applies. */
function comparator<T>(sort: readonly SortKey[], options: ListOptions<T, unknown>, newestFirst: boolean) {
  return (x: { record: T; index: number }, y: { record: T; index: number }): number => {
    for (const key of sort) {
      const read = options.sortable[key.field] as SortAccessor<T>
      const a = read(x.record)
      const b = read(y.record)
      let c = compareValues(a, b)
      if (c !== 0 && key.descending && a !== null && a !== undefined && b !== null && b !== undefined) c = -c
      if (c !== 0) return c
    }
    return newestFirst ? y.index - x.index : x.index - y.index
  }
}

/**
 * Sorts (stable, nulls last in both directions) and cuts one page. Records come as an array in
 * creation order, or as a collection's selection: then the default order (newest first) and
 * `sort=createdAt` cost the page, and any other sort is done once and kept until the collection changes.
 */
export function paginate<T, V>(records: readonly T[] | Selection<T>, query: URLSearchParams, options: ListOptions<T, V>): Reply {
  const fields = Object.keys(options.sortable)
  const params = parseListParams(query, fields)
  const defaultSort = options.defaultSort ?? (fields.includes('createdAt') ? '-createdAt' : '')
  const sort = params.sort.length > 0 ? params.sort : defaultSort ? parseSort(defaultSort, fields) : []
  const newestFirst = params.sort.length === 0 && sort[0]?.descending === true
  const start = (params.page - 1) * params.limit
  let total: number
  let page: T[]
  if (records instanceof Selection) {
    total = records.total
    page = start >= total ? [] : pageOf(records, sort, newestFirst, start, params.limit, options as ListOptions<T, unknown>)
  } else {
    const indexed = records.map((record, index) => ({ record, index }))
    indexed.sort(comparator(sort, options as ListOptions<T, unknown>, newestFirst))
    total = indexed.length
    page = start >= total ? [] : indexed.slice(start, start + params.limit).map((e) => e.record)
  }
  return new Reply(
    200,
    page.map((record) => options.view(record)),
    {
      'Page-Count': String(Math.ceil(total / params.limit)),
      'Total-Record-Count': String(total),
    },
  )
}

/** One page of a selection: straight from the timeline in creation-time order, otherwise from a sorted copy kept in the cache. */
function pageOf<T>(
  selection: Selection<T>,
  sort: readonly SortKey[],
  newestFirst: boolean,
  start: number,
  limit: number,
  options: ListOptions<T, unknown>,
): T[] {
  const only = sort.length === 1 ? sort[0] : undefined
  if (only?.field === 'createdAt' && (newestFirst || !only.descending)) return selection.page(start, limit, newestFirst)
  const key =
    selection.cacheKey === undefined
      ? undefined
      : `sort|${newestFirst}|${sort.map((k) => `${k.descending ? '-' : ''}${k.field}`).join(',')}|${selection.cacheKey}`
  let sorted = key === undefined ? undefined : selection.cached(key)
  if (!sorted) {
    // Read each sort field once per record, not once per comparison.
    const readers = sort.map((k) => options.sortable[k.field] as SortAccessor<T>)
    const rows = selection.slots().map((slot) => ({ slot, values: readers.map((read) => read(slot.record)) }))
    rows.sort((x, y) => {
      for (let i = 0; i < sort.length; i++) {
        const a = x.values[i]
        const b = y.values[i]
        let c = compareValues(a, b)
        if (c !== 0 && (sort[i] as SortKey).descending && a !== null && a !== undefined && b !== null && b !== undefined) c = -c
        if (c !== 0) return c
      }
      return newestFirst ? y.slot.seq - x.slot.seq : x.slot.seq - y.slot.seq
    })
    sorted = rows.map((row) => row.slot)
    if (key !== undefined) selection.remember(key, sorted)
  }
  return sorted.slice(start, start + limit).map((slot) => slot.record)
}

/** Readers for filter parameters; each refuses a malformed value with a 400 naming the parameter. */
export function filters(query: URLSearchParams) {
  return {
    /** All values of a repeatable parameter (comma-separated values split), or undefined when absent. */
    list(name: string): string[] | undefined {
      const values = query
        .getAll(name)
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v.length > 0)
      return values.length > 0 ? values : undefined
    },
    string(name: string): string | undefined {
      const value = single(query, name)?.trim()
      return value ? value : undefined
    },
    /** An ISO 8601 date-time, or a date (midnight UTC). */
    dateTime(name: string): string | undefined {
      const value = single(query, name)?.trim()
      if (!value) return undefined
      const ok = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i.test(value)
      const time = ok ? Date.parse(/T/i.test(value) && !/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? `${value}Z` : value) : Number.NaN
      if (Number.isNaN(time)) throw badRequest('invalid_query', `"${name}" must be an ISO 8601 date-time; got "${value}"`)
      return new Date(time).toISOString()
    },
    integer(name: string): number | undefined {
      const value = single(query, name)?.trim()
      if (!value) return undefined
      if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
        throw badRequest('invalid_query', `"${name}" must be an integer; got "${value}"`)
      }
      return Number(value)
    },
    boolean(name: string): boolean | undefined {
      const value = single(query, name)?.trim().toLowerCase()
      if (!value) return undefined
      if (value !== 'true' && value !== 'false') throw badRequest('invalid_query', `"${name}" must be true or false; got "${value}"`)
      return value === 'true'
    },
  }
}

/** The merchants a list may show, narrowed by its `merchantId` filter (a condition on the merchantId index). */
export function merchantsWithin(visible: ReadonlySet<string>, requested: readonly string[] | undefined): string[] {
  return requested === undefined ? [...visible] : requested.filter((id) => visible.has(id))
}

/**
 * The customers a list may show: the `customerId` filter, narrowed to the customer in context
 * (`Customer-Id`, `Customer-Delegate-User-Id`) when there is one, so that the header is applied,
 * never ignored. Undefined: no filter.
 */
export function customersWithin(scope: { customerId: string | null }, requested: readonly string[] | undefined): string[] | undefined {
  if (scope.customerId === null) return requested === undefined ? undefined : [...requested]
  return requested === undefined || requested.includes(scope.customerId) ? [scope.customerId] : []
}

/** True when `value` is in `allowed`, or when there is no filter. */
export function oneOf(allowed: readonly string[] | undefined, value: string | null | undefined): boolean {
  return allowed === undefined || (value !== null && value !== undefined && allowed.includes(value))
}

/** True when `at` (a timestamp) is inside [after, before), bounds optional. */
export function inRange(at: string, after: string | undefined, before: string | undefined): boolean {
  return (after === undefined || at >= after) && (before === undefined || at < before)
}
