// Paginated lists: every record of every page, lazily (one page and its counts: page.ts).
import { InvalidInputError, ListIntegrityError, PageLimitError, ResponseFormatError } from './errors.js'
import { IdSet } from './id-set.js'
import { CLOCK_SKEW_MS, DEFAULT_CONCURRENCY, DEFAULT_MAX_PAGES, MAX_CONCURRENCY, type Page } from './page.js'

export {
  CLOCK_SKEW_MS,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_PAGES,
  DEFAULT_PAGE_SIZE,
  MAX_CONCURRENCY,
  MAX_PAGE_SIZE,
  type Page,
  checkPaging,
  toPage,
} from './page.js'

export interface IterateOptions<T = unknown> {
  /** Stop after this many records. */
  max?: number | undefined
  /** Refuse to fetch more than this many pages (PageLimitError). Default 100 000. */
  maxPages?: number | undefined
  /** Pages in flight at once once the page count is known (default 4, at most 16). */
  concurrency?: number | undefined
  /**
   * Accept what the service gives: a short page, a changed total or a count that does not add up
   * is reported through `onWarning` and the walk goes on, instead of a ListIntegrityError.
   */
  allowPartial?: boolean | undefined
  onWarning?: ((message: string) => void) | undefined
  /** The record's identifier: a record already delivered is not delivered again. */
  identify?: ((item: T) => string | undefined) | undefined
  /**
   * Fix the list's upper bound when the walk starts (the operation takes `createdBefore`): the
   * walk passes `bound` (ms since the epoch) to every page, so records created meanwhile stay out.
   */
  bounded?: boolean | undefined
  /** Clock for the bound (injected in tests). */
  now?: (() => number) | undefined
  /** The list's name for messages (its path, such as `/orders`). */
  what?: string | undefined
}

/** What the walk passes with each page it asks for. */
export interface PageRequest {
  /** The walk's fixed upper bound on creation time, when it has one. */
  bound?: number | undefined
  /** Aborted when the walk ends early (the consumer stopped, or a page failed). */
  signal: AbortSignal
}

/**
 * What a walk gives: every record, one at a time (`for await`), or in the groups they arrive in
 * (`batches()`, one array a page, records already delivered left out), which lets a consumer
 * such as the CLI's CSV writer handle a whole page in one go instead of one promise a record.
 */
export interface RecordStream<T> extends AsyncIterable<T> {
  batches(): AsyncIterable<T[]>
}

/** The walk of iteratePageBatches, as a RecordStream. */
export function pageStream<T>(
  fetchPage: (page: number, request: PageRequest) => Promise<Page<T> | (() => Page<T>)>,
  firstPage: number,
  options: IterateOptions<T> = {},
): RecordStream<T> {
  return {
    [Symbol.asyncIterator]: () => iteratePages(fetchPage, firstPage, options),
    batches: () => iteratePageBatches(fetchPage, firstPage, options),
  }
}

/** Every record of every page, strictly in order, one at a time: see iteratePageBatches. */
export async function* iteratePages<T>(
  fetchPage: (page: number, request: PageRequest) => Promise<Page<T> | (() => Page<T>)>,
  firstPage: number,
  options: IterateOptions<T> = {},
): AsyncGenerator<T, void, undefined> {
  for await (const batch of iteratePageBatches(fetchPage, firstPage, options)) {
    for (const item of batch) yield item
  }
}

/**
 * Every record of every page, strictly in order, starting at `firstPage`, as one array a page
 * (never an empty one).
 *
 * Once the first page has given the page count, up to `concurrency` further pages are in flight
 * at once; records are still delivered page by page, in order, and at most `concurrency` pages
 * wait in memory. Without counts (no `Page-Count` nor `Total-Record-Count`) the walk goes one
 * page ahead and stops at the first short page.
 *
 * A walk that makes no progress stops at the page that shows it: a page made only of records
 * already delivered (by identifier), or, for records without one, the same page twice in a row.
 * That is a ListIntegrityError (reason `repeated-page`), or with `allowPartial` a warning and the
 * end of the walk: never the next page of a service that answers the same page for ever.
 *
 * The result is complete or an error: a page shorter than the page size before the last page,
 * a last page that does not hold the rest of the total, a total that changes mid-walk, a page
 * whose body is malformed, or a number of distinct records that is not the total, each throw a
 * ListIntegrityError naming the page (or, with `allowPartial`, are reported through `onWarning`).
 */
export async function* iteratePageBatches<T>(
  fetchPage: (page: number, request: PageRequest) => Promise<Page<T> | (() => Page<T>)>,
  firstPage: number,
  options: IterateOptions<T> = {},
): AsyncGenerator<T[], void, undefined> {
  const max = options.max
  if (max !== undefined && (!Number.isInteger(max) || max < 0)) {
    throw new InvalidInputError(`max must be a whole number of at least 0 (got ${String(max)})`)
  }
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new InvalidInputError(`concurrency must be a whole number from 1 to ${MAX_CONCURRENCY} (got ${String(concurrency)})`)
  }
  if (max === 0) return
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES
  const controller = new AbortController()
  const identify = options.identify
  /** The identifiers delivered so far: made at the first page, for the records it announces. */
  let seen: IdSet | undefined
  let expected: number | undefined
  const warned = new Set<string>()
  const anomaly = (page: number, reason: ListIntegrityError['reason'], message: string) => {
    if (!options.allowPartial) throw new ListIntegrityError({ page, reason, message })
    if (!warned.has(reason)) options.onWarning?.(message)
    warned.add(reason)
  }
  /** A malformed page (not JSON, not a list, a record that does not fit) as the walk reports it. */
  const malformed = (page: number, error: unknown): unknown =>
    error instanceof ResponseFormatError
      ? new ListIntegrityError({ page, reason: 'malformed-page', message: `Page ${page} of the list is malformed: ${error.message}`, cause: error })
      : error
  const get = async (page: number, bound: number | undefined): Promise<Page<T> | (() => Page<T>)> => {
    try {
      return await fetchPage(page, { bound, signal: controller.signal })
    } catch (error) {
      throw malformed(page, error)
    }
  }
  /** A page as fetched, parsed now if it came as a function (kept as text while it waited). */
  const open = (got: Page<T> | (() => Page<T>), page: number): Page<T> => {
    if (typeof got !== 'function') return got
    try {
      return got()
    } catch (error) {
      throw malformed(page, error)
    }
  }

  let delivered = 0
  let unique = 0
  let duplicates = 0
  const what = options.what ?? 'the list'
  /** The last page's records were all known already (each had an identifier). */
  let allSeen = false
  /** The last page had at least one record with an identifier. */
  let identified = false
  /**
   * For records without identifiers: every page so far, in short (a 64-bit hash of its size, first
   * and last record) → its number, so pages that alternate (A, B, A, B…) stop as well as a page
   * answered twice in a row. About 60 bytes a page.
   */
  const pagesSeen = new Map<string, number>()
  /**
   * Whether the walk must stop at `page` (with `allowPartial`, after a warning): it brought nothing
   * new. Throws a ListIntegrityError otherwise.
   */
  const stalled = (page: number, items: T[]): boolean => {
    let message: string | undefined
    if (allSeen) {
      message = `Page ${page} of ${what} repeated records already delivered (all ${items.length} of them): the walk stopped`
    } else if (!identified && items.length > 0) {
      const signature = pageHash(`${items.length}\u0000${JSON.stringify(items[0])}\u0000${JSON.stringify(items[items.length - 1])}`)
      const earlier = pagesSeen.get(signature)
      if (earlier !== undefined) message = `Page ${page} of ${what} repeated page ${earlier}: the walk stopped`
      else pagesSeen.set(signature, page)
    }
    if (message === undefined) return false
    if (!options.allowPartial) throw new ListIntegrityError({ page, reason: 'repeated-page', message })
    options.onWarning?.(message)
    return true
  }
  /**
   * The records of `items` to deliver: those not delivered before, cut at `max`. The page's own
   * array when nothing is left out.
   */
  const deliverable = (items: T[]): T[] => {
    let out: T[] | undefined
    allSeen = false
    identified = false
    if (identify !== undefined) {
      let known = 0
      seen ??= new IdSet(expected)
      for (let i = 0; i < items.length; i++) {
        const item = items[i] as T
        const id = identify(item)
        if (id !== undefined) identified = true
        if (id === undefined || seen.add(id)) {
          out?.push(item)
          continue
        }
        duplicates++
        known++
        out ??= items.slice(0, i)
      }
      allSeen = items.length > 0 && known === items.length
    }
    const fresh = out ?? items
    unique += fresh.length
    const room = max === undefined ? fresh.length : max - delivered
    const batch = fresh.length > room ? fresh.slice(0, room) : fresh
    delivered += batch.length
    return batch
  }
  const done = () => max !== undefined && delivered >= max

  try {
    let bound = options.bounded ? Math.floor((options.now ?? Date.now)()) : undefined
    let first = open(await get(firstPage, bound), firstPage)
    if (bound !== undefined && first.serverTime !== undefined && Math.abs(first.serverTime - bound) > CLOCK_SKEW_MS) {
      // The service's clock is not ours: a bound by our clock would leave out records it has
      // (its clock ahead) or let in records made during the walk (behind). Take its time instead,
      // to the end of the second its Date header names (the header has no finer resolution).
      bound = first.serverTime + 1000
      first = open(await get(firstPage, bound), firstPage)
    }

    if (first.inferred && !first.counted?.pages) {
      yield* sequentialWalk(first, async (page) => open(await get(page, bound), page), { maxPages, deliverable, done, stalled })
      return
    }

    const pageCount = first.pageCount
    const total = !first.inferred || first.counted?.total ? first.totalRecordCount : undefined
    // A service that pages by fewer records than asked (its own maximum) says so through its
    // counts: page 1 is short, and the counts agree with that smaller size. Walk at its size.
    const got = first.items.length
    const smaller = got > 0 && got < first.limit && first.page < pageCount && (total === undefined || Math.ceil(total / got) === pageCount)
    const limit = smaller ? got : first.limit
    let last = pageCount
    if (max !== undefined) last = Math.min(last, firstPage + Math.ceil(max / Math.max(limit, 1)) - 1)
    if (total !== undefined) expected = Math.min(max ?? Infinity, Math.max(0, total - (firstPage - 1) * limit))
    if (last - firstPage + 1 > maxPages) {
      throw new PageLimitError(
        `The list has ${pageCount} pages (${first.totalRecordCount} records), more than the ${maxPages} a walk may fetch. Narrow the query or use a larger limit.`,
      )
    }

    const check = (page: Page<T>) => {
      const n = page.page
      const pageTotal = !page.inferred || page.counted?.total ? page.totalRecordCount : undefined
      if (total !== undefined && pageTotal !== undefined && pageTotal !== total) {
        anomaly(
          n,
          'total-changed',
          `Page ${n} of ${pageCount}: Total-Record-Count changed from ${total} to ${pageTotal} during the walk, so the list changed while it was read`,
        )
      } else if (page.pageCount !== pageCount && (!page.inferred || page.counted?.pages)) {
        anomaly(
          n,
          'total-changed',
          `Page ${n} of ${pageCount}: Page-Count changed from ${pageCount} to ${page.pageCount} during the walk, so the list changed while it was read`,
        )
      }
      const got = page.items.length
      if (got > limit) {
        anomaly(n, 'long-page', `Page ${n} of ${pageCount} had ${got} records, more than the page size ${limit}`)
      } else if (n < pageCount && got < limit) {
        anomaly(n, 'short-page', `Page ${n} of ${pageCount} had ${got} records where ${limit} were promised`)
      } else if (n === pageCount && total !== undefined && got !== total - (pageCount - 1) * limit) {
        anomaly(n, 'short-page', `Page ${n} of ${pageCount} (the last) had ${got} records where ${total - (pageCount - 1) * limit} were promised`)
      }
    }

    const inFlight = new Map<number, Promise<Page<T> | (() => Page<T>)>>()
    let next = firstPage + 1
    const fill = () => {
      while (inFlight.size < concurrency && next <= last) {
        const pending = get(next, bound)
        // A page the consumer never reaches (it stopped early) must not fail unhandled.
        pending.catch(() => undefined)
        inFlight.set(next, pending)
        next++
      }
    }

    check(first.limit === limit ? first : { ...first, limit })
    fill()
    let page: Page<T> | undefined = first
    for (let n = firstPage; page; n++) {
      const batch = deliverable(page.items)
      if (stalled(n, page.items)) return
      page = undefined
      if (batch.length > 0) yield batch
      if (done()) return
      if (n + 1 <= last) {
        page = open(await (inFlight.get(n + 1) as Promise<Page<T> | (() => Page<T>)>), n + 1)
        inFlight.delete(n + 1)
        fill()
        check(page.limit === limit ? page : { ...page, limit })
      }
    }

    if (total !== undefined && last === pageCount) {
      const expected = Math.max(0, total - (firstPage - 1) * limit)
      if (unique !== expected) {
        const moved = duplicates > 0 ? ` (${duplicates} repeated, dropped)` : ''
        anomaly(last, 'count-mismatch', `The walk delivered ${unique} distinct records${moved} of the ${expected} the service reported`)
      }
    }
  } finally {
    controller.abort()
  }
}

/** Without any count: one page ahead, stopping at the first short or empty page. */
async function* sequentialWalk<T>(
  first: Page<T>,
  get: (page: number) => Promise<Page<T>>,
  state: { maxPages: number; deliverable: (items: T[]) => T[]; done: () => boolean; stalled: (page: number, items: T[]) => boolean },
): AsyncGenerator<T[], void, undefined> {
  let fetched = 1
  let current: Page<T> | undefined = first
  while (current) {
    const page: Page<T> = current
    const batch = state.deliverable(page.items)
    if (state.stalled(page.page, page.items)) return
    const hasNext = page.items.length > 0 && page.page < page.pageCount && page.items.length >= page.limit
    let next: Promise<Page<T>> | undefined
    if (hasNext) {
      if (fetched >= state.maxPages) {
        throw new PageLimitError(`Stopped after ${state.maxPages} pages; the service did not say how many there are. Narrow the query or use a larger limit.`)
      }
      next = get(page.page + 1)
      next.catch(() => undefined)
      fetched++
    }
    if (batch.length > 0) yield batch
    if (state.done()) return
    current = next ? await next : undefined
  }
}

/** Two 32-bit FNV-1a hashes (different offsets) of `text`, as 16 hex digits: no crypto on the list path. */
function pageHash(text: string): string {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    a = Math.imul(a ^ code, 0x01000193) >>> 0
    b = Math.imul(b ^ code, 0x01000193 + 2) >>> 0
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')
}
