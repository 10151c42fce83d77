import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PageLimitError } from '../../src/client/index.js'
import { type MockService, mockService } from './mock-service.js'

let svc: MockService
beforeEach(() => {
  svc = mockService()
})
afterEach(async () => svc.close())

const tx = (n: number) => ({ purchaseDetails: { transactionId: `tran_${n}` } })

/** Serves `total` transactions `limit` per page with the contract's headers. */
function serveTransactions(total: number) {
  svc.on(
    'GET',
    (p) => p.startsWith('/transactions?'),
    (req) => {
      const page = Number(req.query.get('page'))
      const limit = Number(req.query.get('limit'))
      const start = (page - 1) * limit
      const items = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => tx(start + i + 1))
      return { body: items, headers: { 'page-count': String(Math.ceil(total / limit)), 'total-record-count': String(total) } }
    },
    { times: 1000 },
  )
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 10))

describe('list', () => {
  it('returns one page with the counts from Page-Count and Total-Record-Count', async () => {
    svc.on('GET', '/transactions?limit=2&page=3&status=paid', { body: [tx(5), tx(6)], headers: { 'page-count': '5', 'total-record-count': '9' } })
    const page = await svc.client().transactions.list({ status: 'paid', limit: 2, page: 3 })
    expect(page).toEqual({ items: [tx(5), tx(6)], page: 3, limit: 2, pageCount: 5, totalRecordCount: 9 })
    expect(svc.requests[0]?.path).toBe('/transactions?status=paid&limit=2&page=3')
  })

  it('works for any path through client.list', async () => {
    svc.on('GET', '/anything?limit=1', { body: [{ a: 1 }], headers: { 'page-count': '3', 'total-record-count': '3' } })
    const page = await svc.client().list<{ a: number }>('/anything', { limit: 1 })
    expect(page.items[0]?.a).toBe(1)
    expect(page.pageCount).toBe(3)
  })
})

describe('iterate', () => {
  it('with concurrency 1, walks 3 pages in order, one page of look-ahead and never more', async () => {
    serveTransactions(5)
    const seen: string[] = []
    const requestsAtItem: number[] = []
    for await (const t of svc.client().transactions.iterate({ limit: 2 }, { concurrency: 1 })) {
      seen.push(t.purchaseDetails?.transactionId as string)
      await pause()
      requestsAtItem.push(svc.requests.length)
    }
    expect(seen).toEqual(['tran_1', 'tran_2', 'tran_3', 'tran_4', 'tran_5'])
    // While page 1 is consumed page 2 is already fetched; page 3 only once page 2 is in hand.
    expect(requestsAtItem).toEqual([2, 2, 3, 3, 3])
    expect(svc.requests.map((r) => r.query.get('page'))).toEqual(['1', '2', '3'])
  })

  it('stops after max records without fetching the third page', async () => {
    serveTransactions(6)
    const seen: unknown[] = []
    for await (const t of svc.client().transactions.iterate({ limit: 2 }, { max: 3 })) seen.push(t)
    expect(seen).toHaveLength(3)
    expect(svc.requests.map((r) => r.query.get('page'))).toEqual(['1', '2'])
  })

  it('asks for 500 records a page when the query gives no limit, keeps the filters on every page and bounds creation time', async () => {
    serveTransactions(3)
    const all: unknown[] = []
    const before = Date.now()
    for await (const t of svc.client().transactions.iterate({ status: ['paid', 'refunded'] })) all.push(t)
    expect(all).toHaveLength(3)
    const path = svc.requests[0]?.path ?? ''
    expect(path).toMatch(/^\/transactions\?status=paid&status=refunded&limit=500&page=1&createdBefore=/)
    const bound = Date.parse(svc.requests[0]?.query.get('createdBefore') ?? '')
    expect(bound).toBeGreaterThanOrEqual(before - 1)
  })

  it('keeps a createdBefore of the caller that is already in the past', async () => {
    serveTransactions(3)
    for await (const _ of svc.client().transactions.iterate({ createdBefore: '2026-01-01T00:00:00.000Z' })) {
      // drain
    }
    expect(svc.requests[0]?.query.getAll('createdBefore')).toEqual(['2026-01-01T00:00:00.000Z'])
  })

  it('asks for up to four pages at once once page 1 has given the count, and delivers them in order', async () => {
    serveTransactions(11)
    const seen: string[] = []
    let inFlightAtFirst = 0
    for await (const t of svc.client().transactions.iterate({ limit: 1 })) {
      if (seen.length === 0) {
        await pause()
        inFlightAtFirst = svc.requests.length
      }
      seen.push(t.purchaseDetails?.transactionId as string)
    }
    expect(seen).toEqual(Array.from({ length: 11 }, (_, i) => `tran_${i + 1}`))
    expect(inFlightAtFirst).toBe(5)
  })

  it('passes per-call context to every page', async () => {
    serveTransactions(3)
    for await (const _ of svc.client().transactions.iterate({ limit: 1 }, { call: { context: { merchantId: 'mcht_9' } } })) {
      // drain
    }
    expect(svc.requests.map((r) => r.headers['merchant-id'])).toEqual(['mcht_9', 'mcht_9', 'mcht_9'])
  })

  it('honours the hard page cap', async () => {
    serveTransactions(10)
    const run = async () => {
      for await (const _ of svc.client().transactions.iterate({ limit: 1 }, { maxPages: 4 })) {
        // drain
      }
    }
    await expect(run()).rejects.toThrow(PageLimitError)
    // Page 1 tells there are 10 pages: the walk stops before asking for more.
    expect(svc.requests).toHaveLength(1)
  })
})
