// One page of a paginated list: its counts, read from the headers or inferred when the service
// leaves them out, and the contract's bounds on `limit` and `page`.
//
// The contract: `limit` (1 to 500, default 20) and `page` (first page 1) in the query; the 200
// body is an array; headers `Page-Count` and `Total-Record-Count` give the totals.
import { InvalidInputError } from './errors.js'

export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 500
/** Iteration refuses to go past this many pages: a guard against a service that never ends. */
export const DEFAULT_MAX_PAGES = 100_000
/** Pages requested at once by a walk once the first page has told how many there are. */
export const DEFAULT_CONCURRENCY = 4
export const MAX_CONCURRENCY = 16
/** How far the service's clock (its `Date` header) may differ from ours before a walk takes the service's. */
export const CLOCK_SKEW_MS = 2000

export interface Page<T> {
  items: T[]
  /** This page's number (1 = first). */
  page: number
  /** The page size asked for (the service default, 20, when none was given). */
  limit: number
  /** Pages for the query: from `Page-Count`, or inferred when the header is missing. */
  pageCount: number
  /** Matching records: from `Total-Record-Count`, or inferred when the header is missing. */
  totalRecordCount: number
  /** True when a count was inferred because the service left out its header. */
  inferred?: boolean
  /** With `inferred`: which counts the headers did give (the page count also follows from the total). */
  counted?: { pages: boolean; total: boolean }
  /** The service's clock when it answered (its `Date` header), in ms since the epoch. */
  serverTime?: number
}

/**
 * Builds a Page from a list answer. Missing headers are inferred: a short page is the last one;
 * a full page without counts is assumed to have a successor (iteration stops at the first empty
 * or short page).
 */
export function toPage<T>(items: T[], headers: Record<string, string>, requested: { page?: number | undefined; limit?: number | undefined }): Page<T> {
  const page = requested.page ?? 1
  const limit = requested.limit ?? DEFAULT_PAGE_SIZE
  const pageCountHeader = readCount(headers['page-count'])
  const totalHeader = readCount(headers['total-record-count'])
  const lastByShape = items.length < limit
  let pageCount: number
  let totalRecordCount: number
  let inferred = false

  if (pageCountHeader !== undefined) {
    pageCount = pageCountHeader
  } else if (totalHeader !== undefined) {
    pageCount = Math.ceil(totalHeader / Math.max(limit, 1))
    inferred = true
  } else {
    pageCount = lastByShape ? (items.length === 0 ? page - 1 : page) : page + 1
    pageCount = Math.max(pageCount, 0)
    inferred = true
  }

  if (totalHeader !== undefined) {
    totalRecordCount = totalHeader
  } else {
    // Without the header only a lower bound is known: the records up to and on this page.
    totalRecordCount = (page - 1) * limit + items.length
    inferred = true
  }

  const result: Page<T> = inferred
    ? {
        items,
        page,
        limit,
        pageCount,
        totalRecordCount,
        inferred,
        counted: { pages: pageCountHeader !== undefined || totalHeader !== undefined, total: totalHeader !== undefined },
      }
    : { items, page, limit, pageCount, totalRecordCount }
  const date = headers.date === undefined ? Number.NaN : Date.parse(headers.date)
  if (!Number.isNaN(date)) result.serverTime = date
  return result
}

function readCount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const text = value.split(',')[0]?.trim() ?? ''
  if (!/^\d+$/.test(text)) return undefined
  const n = Number(text)
  return Number.isSafeInteger(n) ? n : undefined
}

/** Refuses a page size or number the contract does not allow, before anything is sent. */
export function checkPaging(query: { limit?: unknown; page?: unknown }): void {
  const { limit, page } = query
  if (limit !== undefined && limit !== null) {
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new InvalidInputError(`limit must be an integer from 1 to ${MAX_PAGE_SIZE} (got ${String(limit)})`)
    }
  }
  if (page !== undefined && page !== null) {
    if (typeof page !== 'number' || !Number.isInteger(page) || page < 1 || page > 2_147_483_647) {
      throw new InvalidInputError(`page must be an integer of at least 1 (got ${String(page)})`)
    }
  }
}
