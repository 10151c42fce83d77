import { describe, expect, it } from 'vitest'
import { InvalidInputError, PageLimitError } from '../../src/client/errors.js'
import { type Page, checkPaging, iteratePages, toPage } from '../../src/client/pagination.js'

describe('toPage', () => {
  it('reads Page-Count and Total-Record-Count', () => {
    const page = toPage([1, 2], { 'page-count': '7', 'total-record-count': '13' }, { page: 3, limit: 2 })
    expect(page).toEqual({ items: [1, 2], page: 3, limit: 2, pageCount: 7, totalRecordCount: 13 })
  })

  it('defaults page to 1 and limit to 20', () => {
    const page = toPage([], { 'page-count': '0', 'total-record-count': '0' }, {})
    expect(page).toMatchObject({ page: 1, limit: 20, pageCount: 0, totalRecordCount: 0 })
  })

  it('infers the page count from the total when only the total is given', () => {
    expect(toPage([1, 2], { 'total-record-count': '5' }, { page: 1, limit: 2 })).toMatchObject({ pageCount: 3, totalRecordCount: 5, inferred: true })
  })

  it('without headers, treats a short page as the last one', () => {
    expect(toPage([1], {}, { page: 4, limit: 2 })).toMatchObject({ pageCount: 4, totalRecordCount: 7, inferred: true })
  })

  it('without headers, assumes a full page has a successor', () => {
    expect(toPage([1, 2], {}, { page: 1, limit: 2 })).toMatchObject({ pageCount: 2, totalRecordCount: 2, inferred: true })
  })

  it('ignores unreadable headers', () => {
    expect(toPage([1], { 'page-count': 'many' }, { page: 1, limit: 20 })).toMatchObject({ pageCount: 1, inferred: true })
  })
})

describe('checkPaging', () => {
  it.each([{ limit: 0 }, { limit: 501 }, { limit: 2.5 }, { limit: '10' }, { page: 0 }, { page: -1 }])('refuses %j', (q) => {
    expect(() => checkPaging(q)).toThrow(InvalidInputError)
  })
  it('accepts the contract range', () => {
    expect(() => checkPaging({ limit: 1, page: 1 })).not.toThrow()
    expect(() => checkPaging({ limit: 500 })).not.toThrow()
  })
})

/** A fake service of `total` records served `limit` per page, recording the order of events. */
function fakePages(total: number, limit: number, withHeaders = true) {
  const events: string[] = []
  const pageCount = Math.ceil(total / limit)
  const fetchPage = async (page: number): Promise<Page<number>> => {
    events.push(`fetch ${page}`)
    await Promise.resolve()
    const start = (page - 1) * limit
    const items = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => start + i + 1)
    const headers: Record<string, string> = withHeaders ? { 'page-count': String(pageCount), 'total-record-count': String(total) } : {}
    return toPage(items, headers, { page, limit })
  }
  return { events, fetchPage }
}

async function collect<T>(iterable: AsyncIterable<T>, events?: string[]): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) {
    events?.push(`item ${String(item)}`)
    out.push(item)
  }
  return out
}

describe('iteratePages', () => {
  it('yields every record of every page in order', async () => {
    const { fetchPage } = fakePages(7, 3)
    expect(await collect(iteratePages(fetchPage, 1))).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('with concurrency 1, fetches page n+1 before yielding page n, and never two pages ahead', async () => {
    const { events, fetchPage } = fakePages(6, 2)
    await collect(iteratePages(fetchPage, 1, { concurrency: 1 }), events)
    expect(events).toEqual(['fetch 1', 'fetch 2', 'item 1', 'item 2', 'fetch 3', 'item 3', 'item 4', 'item 5', 'item 6'])
  })

  it('stops after max records without fetching pages it does not need', async () => {
    const { events, fetchPage } = fakePages(100, 10)
    expect(await collect(iteratePages(fetchPage, 1, { max: 15 }))).toHaveLength(15)
    expect(events).toEqual(['fetch 1', 'fetch 2'])
  })

  it('max 0 fetches nothing', async () => {
    const { events, fetchPage } = fakePages(10, 5)
    expect(await collect(iteratePages(fetchPage, 1, { max: 0 }))).toEqual([])
    expect(events).toEqual([])
  })

  it('starts at the given page', async () => {
    const { fetchPage } = fakePages(5, 2)
    expect(await collect(iteratePages(fetchPage, 2))).toEqual([3, 4, 5])
  })

  it('without count headers, stops at the first short page', async () => {
    const { events, fetchPage } = fakePages(5, 2, false)
    expect(await collect(iteratePages(fetchPage, 1))).toEqual([1, 2, 3, 4, 5])
    expect(events).toEqual(['fetch 1', 'fetch 2', 'fetch 3'])
  })

  it('without count headers and an exact multiple, stops at the empty page', async () => {
    const { fetchPage } = fakePages(4, 2, false)
    expect(await collect(iteratePages(fetchPage, 1))).toEqual([1, 2, 3, 4])
  })

  it('throws PageLimitError before yielding anything when the page count is past the hard cap', async () => {
    const { fetchPage } = fakePages(10, 1)
    const seen: number[] = []
    await expect(
      (async () => {
        for await (const n of iteratePages(fetchPage, 1, { maxPages: 3 })) seen.push(n)
      })(),
    ).rejects.toThrow(PageLimitError)
    expect(seen).toEqual([])
  })

  it('without counts, throws PageLimitError at the hard cap after yielding what it had', async () => {
    const { fetchPage } = fakePages(10, 1, false)
    const seen: number[] = []
    await expect(
      (async () => {
        for await (const n of iteratePages(fetchPage, 1, { maxPages: 3 })) seen.push(n)
      })(),
    ).rejects.toThrow(PageLimitError)
    expect(seen).toEqual([1, 2])
  })

  it('a consumer that breaks early leaves at most one page fetched in vain, and no unhandled rejection', async () => {
    let calls = 0
    const fetchPage = async (page: number): Promise<Page<number>> => {
      calls++
      if (page === 2) throw new Error('page 2 failed')
      return toPage([1, 2], { 'page-count': '5' }, { page, limit: 2 })
    }
    for await (const n of iteratePages(fetchPage, 1, { concurrency: 1 })) {
      if (n === 1) break
    }
    expect(calls).toBe(2)
  })

  it('passes a failure of a later page to the consumer', async () => {
    const fetchPage = async (page: number): Promise<Page<number>> => {
      if (page === 2) throw new Error('page 2 failed')
      return toPage([1, 2], { 'page-count': '3' }, { page, limit: 2 })
    }
    await expect(collect(iteratePages(fetchPage, 1))).rejects.toThrow('page 2 failed')
  })

  it('refuses a negative max', async () => {
    const { fetchPage } = fakePages(1, 1)
    await expect(collect(iteratePages(fetchPage, 1, { max: -1 }))).rejects.toThrow(InvalidInputError)
  })

  it('keeps memory flat: a million records across 10 000 pages pass through', async () => {
    const limit = 100
    const fetchPage = async (page: number): Promise<Page<number>> =>
      toPage(
        Array.from({ length: limit }, (_, i) => (page - 1) * limit + i),
        { 'page-count': '10000', 'total-record-count': '1000000' },
        { page, limit },
      )
    let count = 0
    for await (const _ of iteratePages(fetchPage, 1)) count++
    expect(count).toBe(1_000_000)
  })
})
