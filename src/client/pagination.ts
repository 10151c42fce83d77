// Paginated lists: one page with its counts, or every record of every page, lazily.
//
// The contract: `limit` (1 to 500, default 20) and `page` (first page 1) in the query; the 200
// body is an array; headers `Page-Count` and `Total-Record-Count` give the totals.
import { InvalidInputError, PageLimitError } from './errors.js'

export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 500
/** Iteration refuses to go past this many pages: a guard against a service that never ends. */
export const DEFAULT_MAX_PAGES = 100_000

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

  return inferred ? { items, page, limit, pageCount, totalRecordCount, inferred } : { items, page, limit, pageCount, totalRecordCount }
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

export interface IterateOptions {
  /** Stop after this many records. */
  max?: number | undefined
  /** Refuse to fetch more than this many pages (PageLimitError). Default 100 000. */
  maxPages?: number | undefined
}

/**
 * Every record of every page, in order, starting at `firstPage`. Fetches page n+1 while the
 * records of page n are being consumed, and never more than that: at most two pages are held.
 * Stops at the last page (by `Page-Count`, or at the first short or empty page), or after `max`
 * records; a consumer that stops early leaves at most one page fetched in vain.
 */
export async function* iteratePages<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  firstPage: number,
  options: IterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const max = options.max
  if (max !== undefined && (!Number.isInteger(max) || max < 0)) {
    throw new InvalidInputError(`max must be a whole number of at least 0 (got ${String(max)})`)
  }
  if (max === 0) return
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES
  let yielded = 0
  let fetched = 1
  let current: Promise<Page<T>> = fetchPage(firstPage)

  for (;;) {
    const page = await current
    const seen = yielded + page.items.length
    const wantMore = max === undefined || seen < max
    const hasNext = page.items.length > 0 && page.page < page.pageCount && !(page.inferred && page.items.length < page.limit)

    let next: Promise<Page<T>> | undefined
    if (wantMore && hasNext) {
      if (fetched >= maxPages) {
        throw new PageLimitError(
          `Stopped after ${maxPages} pages (${yielded + page.items.length} records); the service reports ${page.pageCount} pages. Narrow the query or use a larger limit.`,
        )
      }
      next = fetchPage(page.page + 1)
      fetched++
      // If the consumer stops before awaiting it, a failure of the prefetch must not go unhandled.
      next.catch(() => undefined)
    }

    for (const item of page.items) {
      yield item
      yielded++
      if (max !== undefined && yielded >= max) return
    }
    if (!next) return
    current = next
  }
}
