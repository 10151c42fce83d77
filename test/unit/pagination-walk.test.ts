// The walk's guarantees, with pages injected: complete or an error naming the page, stable while
// records are added, strictly in order however the pages arrive, never more pages in flight
// than allowed.
import { describe, expect, it } from 'vitest'

import { collect } from '../helpers/collect.js'
import { ListIntegrityError, ResponseFormatError } from '../../src/client/errors.js'
import { IdSet } from '../../src/client/id-set.js'
import { type Page, type PageRequest, iteratePages, toPage } from '../../src/client/pagination.js'

interface Row {
  id: string
  createdAt: number
}

const identify = (row: Row) => row.id

/**
 * A service holding rows newest first, as the emulator lists them. `createdBefore` (the walk's
 * bound) filters by creation time; `onPage` runs before each page is cut, so a test can change
 * the store mid-walk; `spoil` replaces a page's answer.
 */
function newestFirst(count: number, limit: number, hooks: { onPage?: (page: number) => void; spoil?: (page: Page<Row>) => Page<Row> } = {}) {
  let clock = 1_000
  const rows: Row[] = []
  const add = (n: number) => {
    for (let i = 0; i < n; i++) rows.push({ id: `row_${rows.length + 1}`, createdAt: clock++ })
  }
  add(count)
  const requests: Array<{ page: number; bound: number | undefined }> = []
  const fetchPage = async (page: number, request?: PageRequest): Promise<Page<Row>> => {
    requests.push({ page, bound: request?.bound })
    await Promise.resolve()
    hooks.onPage?.(page)
    const bound = request?.bound
    const visible = rows.filter((r) => bound === undefined || r.createdAt < bound).reverse()
    const items = visible.slice((page - 1) * limit, page * limit)
    const built = toPage(items, { 'page-count': String(Math.ceil(visible.length / limit)), 'total-record-count': String(visible.length) }, { page, limit })
    return hooks.spoil ? hooks.spoil(built) : built
  }
  return { rows, add, requests, fetchPage, now: () => clock }
}

describe('a walk that is complete or fails', () => {
  it('refuses an empty page 3 of 4, naming it, after delivering pages 1 and 2 only', async () => {
    const svc = newestFirst(35, 10, { spoil: (p) => (p.page === 3 ? { ...p, items: [] } : p) })
    const { items, error } = await collect(iteratePages(svc.fetchPage, 1, { identify }))
    expect(error).toBeInstanceOf(ListIntegrityError)
    expect((error as ListIntegrityError).page).toBe(3)
    expect((error as ListIntegrityError).reason).toBe('short-page')
    expect((error as Error).message).toMatch(/Page 3 of 4 had 0 records where 10 were promised/)
    expect(items).toHaveLength(20)
  })

  it('walks at the size of a service that pages by fewer records than asked, when its counts agree', async () => {
    const svc = newestFirst(35, 10)
    const fetchPage = async (page: number, request: PageRequest) => ({ ...(await svc.fetchPage(page, request)), limit: 50 })
    const { items, error } = await collect(iteratePages(fetchPage, 1, { identify }))
    expect(error).toBeUndefined()
    expect(items).toHaveLength(35)
  })

  it('refuses a last page that does not hold the rest of the total', async () => {
    const svc = newestFirst(35, 10, { spoil: (p) => (p.page === 4 ? { ...p, items: p.items.slice(0, 2) } : p) })
    const { items, error } = await collect(iteratePages(svc.fetchPage, 1))
    expect(error).toMatchObject({ page: 4, reason: 'short-page' })
    expect(items).toHaveLength(30)
  })

  it('refuses a total that changes mid-walk, naming the page', async () => {
    const svc = newestFirst(35, 10, { spoil: (p) => (p.page === 2 ? { ...p, totalRecordCount: 36 } : p) })
    const { items, error } = await collect(iteratePages(svc.fetchPage, 1))
    expect(error).toMatchObject({ page: 2, reason: 'total-changed' })
    expect((error as Error).message).toMatch(/Total-Record-Count changed from 35 to 36/)
    expect(items).toHaveLength(10)
  })

  it('turns a malformed page into a ListIntegrityError naming the page', async () => {
    const svc = newestFirst(30, 10)
    const fetchPage = async (page: number, request: PageRequest) => {
      if (page === 2) throw new ResponseFormatError({ method: 'GET', path: '/rows', status: 200, body: '[{', reason: 'expected JSON' })
      return svc.fetchPage(page, request)
    }
    const { items, error } = await collect(iteratePages(fetchPage, 1))
    expect(error).toMatchObject({ page: 2, reason: 'malformed-page' })
    expect((error as Error).cause).toBeInstanceOf(ResponseFormatError)
    expect(items).toHaveLength(10)
  })

  it('with allowPartial, warns once per kind of fault and delivers what there is', async () => {
    const svc = newestFirst(35, 10, { spoil: (p) => (p.page === 3 ? { ...p, items: [] } : p) })
    const warnings: string[] = []
    const { items, error } = await collect(iteratePages(svc.fetchPage, 1, { allowPartial: true, onWarning: (w) => warnings.push(w) }))
    expect(error).toBeUndefined()
    expect(items).toHaveLength(25)
    expect(warnings).toEqual([expect.stringMatching(/^Page 3 of 4 had 0 records/), expect.stringMatching(/delivered 25 distinct records of the 35/)])
  })
})

describe('a walk stable while records are added', () => {
  it('fixes its bound when it starts: rows created during the walk stay out, every earlier row appears once', async () => {
    const svc = newestFirst(95, 10, { onPage: () => svc.add(3) })
    const { items, error } = await collect(iteratePages(svc.fetchPage, 1, { identify, bounded: true, now: () => svc.now(), concurrency: 3 }))
    expect(error).toBeUndefined()
    const ids = items.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.sort()).toEqual(Array.from({ length: 95 }, (_, i) => `row_${i + 1}`).sort())
    const bounds = new Set(svc.requests.map((r) => r.bound))
    expect(bounds.size).toBe(1)
  })

  it('without a bound, drops rows it already delivered and then says the count does not add up', async () => {
    const svc = newestFirst(30, 10, { onPage: (page) => page === 2 && svc.add(4) })
    const pages: Page<Row>[] = []
    const fetchPage = async (page: number, request: PageRequest) => {
      const built = await svc.fetchPage(page, request)
      pages.push(built)
      // The service's counts as of page 1: only the records moved, not the totals.
      return { ...built, totalRecordCount: 30, pageCount: 3 }
    }
    const { items, error } = await collect(iteratePages(fetchPage, 1, { identify, concurrency: 1 }))
    const ids = items.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(error).toMatchObject({ reason: 'count-mismatch' })
    expect((error as Error).message).toMatch(/4 repeated, dropped/)
  })

  it("takes the service's clock when its Date header is far from ours, asking for page 1 again", async () => {
    const svc = newestFirst(20, 10)
    const fetchPage = async (page: number, request: PageRequest) => ({ ...(await svc.fetchPage(page, request)), serverTime: 1_010_000 })
    const { items } = await collect(iteratePages(fetchPage, 1, { identify, bounded: true, now: () => 5 }))
    expect(items).toHaveLength(20)
    expect(svc.requests).toEqual([
      { page: 1, bound: 5 },
      { page: 1, bound: 1_011_000 },
      { page: 2, bound: 1_011_000 },
    ])
  })
})

describe('look-ahead', () => {
  /** Pages that resolve only when the test says so, in any order. */
  function controlled(total: number, limit: number) {
    const pending = new Map<number, () => void>()
    let inFlight = 0
    let most = 0
    const fetchPage = (page: number): Promise<Page<number>> =>
      new Promise((resolve) => {
        inFlight++
        most = Math.max(most, inFlight)
        pending.set(page, () => {
          inFlight--
          const start = (page - 1) * limit
          const items = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => start + i + 1)
          resolve(toPage(items, { 'page-count': String(Math.ceil(total / limit)), 'total-record-count': String(total) }, { page, limit }))
        })
      })
    const release = (page: number) => {
      const go = pending.get(page)
      pending.delete(page)
      go?.()
    }
    return { fetchPage, release, pending, most: () => most }
  }

  const ticks = async (n = 5) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
  }

  it('keeps records in page order however the pages arrive, and never more than `concurrency` pages in flight', async () => {
    const svc = controlled(100, 10)
    const seen: number[] = []
    const done = (async () => {
      for await (const n of iteratePages(svc.fetchPage, 1, { concurrency: 3 })) seen.push(n)
    })()
    svc.release(1)
    await ticks()
    expect([...svc.pending.keys()]).toEqual([2, 3, 4])
    // Later pages first: nothing of theirs may come out before page 2.
    svc.release(4)
    svc.release(3)
    await ticks()
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => i + 1))
    expect([...svc.pending.keys()]).toEqual([2])
    for (let page = 2; page <= 10; page++) {
      svc.release(page)
      await ticks()
    }
    await done
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    expect(svc.most()).toBe(3)
  })

  it('asks for no page beyond what --max needs', async () => {
    const requested: number[] = []
    const fetchPage = async (page: number) => {
      requested.push(page)
      return toPage(
        Array.from({ length: 10 }, (_, i) => (page - 1) * 10 + i),
        { 'page-count': '50', 'total-record-count': '500' },
        { page, limit: 10 },
      )
    }
    const { items } = await collect(iteratePages(fetchPage, 1, { max: 25, concurrency: 8 }))
    expect(items).toHaveLength(25)
    expect(requested.sort((a, b) => a - b)).toEqual([1, 2, 3])
  })

  it('aborts the pages in flight when the consumer stops', async () => {
    const signals: AbortSignal[] = []
    const fetchPage = async (page: number, request: PageRequest) => {
      signals.push(request.signal)
      return toPage([page], { 'page-count': '9', 'total-record-count': '9' }, { page, limit: 1 })
    }
    for await (const _ of iteratePages(fetchPage, 1)) break
    expect(signals.length).toBeGreaterThan(1)
    expect(signals.every((s) => s.aborted)).toBe(true)
  })

  it('refuses a concurrency outside 1 to 16', async () => {
    const fetchPage = async (page: number) => toPage([1], {}, { page, limit: 1 })
    await expect(collect(iteratePages(fetchPage, 1, { concurrency: 0 })).then((r) => Promise.reject(r.error))).rejects.toThrow(/concurrency/)
  })
})

describe('IdSet', () => {
  it('tells a new identifier from one already added, across growth', () => {
    const set = new IdSet()
    const id = (i: number) => `ordr_${i.toString(36).padStart(16, '0')}`
    let added = 0
    for (let i = 0; i < 50_000; i++) if (set.add(id(i))) added++
    let again = 0
    for (let i = 0; i < 50_000; i += 997) if (set.add(id(i))) again++
    expect([added, again, set.size]).toEqual([50_000, 0, 50_000])
  })

  it('made for the records a walk expects, still takes more than announced', () => {
    const set = new IdSet(1_000)
    const id = (i: number) => `txn_${i.toString(36).padStart(16, '0')}`
    const fresh = Array.from({ length: 5_000 }, (_, i) => set.add(id(i)))
    const repeated = Array.from({ length: 5_000 }, (_, i) => set.add(id(i)))
    expect([fresh.every(Boolean), repeated.some(Boolean), set.size]).toEqual([true, false, 5_000])
  })
})
