// Large stores on a small scale: bulk seeding (POST /__emulator/seed), lists over what it made,
// and the streamed settlement report, whose bytes must be those of the report built whole.
import { afterEach, describe, expect, it } from 'vitest'
import { fakeClock } from '../../src/emulator/clock.js'
import { toCsv } from '../../src/emulator/csv.js'
import { formatMinorUnits } from '../../src/client/money.js'
import { isId } from '../../src/emulator/ids.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import type { SettlementEntry } from '../../src/emulator/ledger.js'
import type { EmulatorApp } from '../../src/emulator/app.js'
import { KEYS, MERCHANT, SUB_MERCHANT, aud, ok, paidTransaction, testApp } from './helpers.js'

const seed = (app: EmulatorApp, body: unknown) => app.request('POST', '/__emulator/seed', { credential: null, body })

describe('POST /__emulator/seed', () => {
  it('adds orders and ledger entries spread over the last days, which the lists then page through', () => {
    const app = testApp()
    const result = ok(seed(app, { orders: 250, settlementEntries: 120, days: 10 }))
    expect(result).toMatchObject({
      merchantId: MERCHANT,
      orders: 250,
      settlementEntries: 120,
      from: '2025-02-19T10:00:00.000Z',
      to: '2025-03-01T10:00:00.000Z',
    })
    const orders = app.store.orders.all()
    expect(orders).toHaveLength(250)
    expect(orders.every((o) => isId(o.orderId, 'ordr') && o.createdAt >= result.from && o.createdAt < result.to)).toBe(true)
    expect(new Set(orders.map((o) => o.orderId)).size).toBe(250)

    const first = app.request('GET', '/orders?limit=100')
    expect(first.headers['Total-Record-Count']).toBe('250')
    expect(first.body.map((o: { referenceOrderId: string }) => o.referenceOrderId).slice(0, 2)).toEqual(['seed-250', 'seed-249'])
    expect(app.request('GET', '/orders?limit=100&page=3').body).toHaveLength(50)
    expect(app.request('GET', '/orders?status=cancelled').headers['Total-Record-Count']).toBe('25')
    const day = app.request('GET', '/orders?createdAfter=2025-02-25T10:00:00Z&createdBefore=2025-02-26T10:00:00Z&limit=500')
    expect(day.body.length).toBe(orders.filter((o) => o.createdAt >= '2025-02-25T10:00:00.000Z' && o.createdAt < '2025-02-26T10:00:00.000Z').length)
    expect(day.body.length).toBe(25)

    const entries = app.request('GET', `/transactions/settlement?currency=AUD&createdAfter=${result.from}&createdBefore=${result.to}&limit=500`)
    expect(entries.body).toHaveLength(120)
    expect(entries.body.filter((e: SettlementEntry) => e.type === 'Payment')).toHaveLength(60)
  })

  it('seeds for the merchant named, and refuses what is not a count', () => {
    const app = testApp()
    ok(seed(app, { orders: 3, merchantId: SUB_MERCHANT }))
    expect(app.store.orders.all().map((o) => o.merchantId)).toEqual([SUB_MERCHANT, SUB_MERCHANT, SUB_MERCHANT])
    expect(seed(app, { orders: -1 }).status).toBe(400)
    expect(seed(app, { orders: 1.5 }).status).toBe(400)
    expect(seed(app, {}).status).toBe(400)
    expect(seed(app, { orders: 1, merchantId: 'mcht_Unknown' }).status).toBe(404)
  })
})

// The report as it was built before it streamed: the whole entry list, then a summary of it.
function wholeReport(entries: SettlementEntry[], query: URLSearchParams, payoutCurrency?: string) {
  const currency = query.get('currency') ?? entries[0]?.amount.currency ?? payoutCurrency ?? null
  const c = currency ?? ''
  const types = new Map<string, { type: string; count: number; amount: { minorCurrencyUnits: number; currency: string } }>()
  const merchants = new Map<string, { merchantId: string; count: number; net: { minorCurrencyUnits: number; currency: string } }>()
  let credits = 0
  let debits = 0
  for (const e of entries) {
    if (e.amount.minorCurrencyUnits >= 0) credits += e.amount.minorCurrencyUnits
    else debits += e.amount.minorCurrencyUnits
    const t = types.get(e.type) ?? { type: e.type, count: 0, amount: { minorCurrencyUnits: 0, currency: c } }
    t.count += 1
    t.amount.minorCurrencyUnits += e.amount.minorCurrencyUnits
    types.set(e.type, t)
    const m = merchants.get(e.merchantId) ?? { merchantId: e.merchantId, count: 0, net: { minorCurrencyUnits: 0, currency: c } }
    m.count += 1
    m.net.minorCurrencyUnits += e.amount.minorCurrencyUnits
    merchants.set(e.merchantId, m)
  }
  const json = JSON.stringify({
    entries: entries.map((e) => ({ ...e, amount: { ...e.amount } })),
    summary: {
      currency,
      payoutId: query.get('payoutId'),
      createdAfter: query.get('createdAfter'),
      createdBefore: query.get('createdBefore'),
      entryCount: entries.length,
      totalCredits: { minorCurrencyUnits: credits, currency: c },
      totalDebits: { minorCurrencyUnits: debits, currency: c },
      net: { minorCurrencyUnits: credits + debits, currency: c },
      byType: [...types.values()],
      byMerchant: [...merchants.values()],
    },
  })
  const header = [
    'settlementEntryId',
    'createdAt',
    'availableOn',
    'merchantId',
    'type',
    'amountMinorUnits',
    'amount',
    'currency',
    'transactionId',
    'orderId',
    'refundId',
    'payoutId',
    'description',
  ]
  const csv = toCsv(
    header,
    entries.map((e) => [
      e.settlementEntryId,
      e.createdAt,
      e.availableOn,
      e.merchantId,
      e.type,
      e.amount.minorCurrencyUnits,
      formatMinorUnits(e.amount.minorCurrencyUnits, e.amount.currency),
      e.amount.currency,
      e.transactionId,
      e.orderId,
      e.refundId,
      e.payoutId,
      e.description,
    ]),
  )
  return { json, csv }
}

function storeWithMoney(): EmulatorApp {
  const app = testApp()
  ok(seed(app, { settlementEntries: 40, days: 5 }))
  for (const amount of [10_000, 2_550, 777]) paidTransaction(app, amount)
  ok(
    app.request('POST', '/simulation', {
      body: { IncomingBankTransfer: { merchantId: SUB_MERCHANT, amount: aud(4_000) } },
      credential: KEYS.marketplaceApiKey,
      headers: { 'Merchant-Id': SUB_MERCHANT },
    }),
  )
  return app
}

const QUERIES = [
  'currency=AUD&createdAfter=2025-01-01T00:00:00Z&createdBefore=2026-01-01T00:00:00Z',
  'currency=AUD&createdAfter=2025-02-26T00:00:00Z&createdBefore=2025-02-28T00:00:00Z&type=Payment',
  'currency=AUD&createdAfter=2030-01-01T00:00:00Z&createdBefore=2031-01-01T00:00:00Z',
]

describe('the streamed settlement report', () => {
  let running: RunningEmulator | undefined
  afterEach(async () => {
    await running?.close()
    running = undefined
  })

  it('has the bytes of the report built whole, in JSON and in CSV, for each merchant and a marketplace', () => {
    const app = storeWithMoney()
    const entries = app.store.settlementEntries.all()
    for (const query of QUERIES) {
      for (const [credential, headers, visible] of [
        [KEYS.merchantSecretKey, {}, [MERCHANT]],
        [KEYS.marketplaceApiKey, {}, [MERCHANT, SUB_MERCHANT]],
      ] as const) {
        const q = new URLSearchParams(query)
        const selected = entries.filter(
          (e) =>
            visible.includes(e.merchantId as never) &&
            e.amount.currency === 'AUD' &&
            e.createdAt >= new Date(q.get('createdAfter') as string).toISOString() &&
            e.createdAt < new Date(q.get('createdBefore') as string).toISOString() &&
            (q.get('type') === null || e.type === q.get('type')),
        )
        const expected = wholeReport(selected, q)
        const json = app.request('GET', `/transactions/settlement/report?${query}`, { credential, headers })
        expect(JSON.stringify(json.body)).toBe(expected.json)
        const csv = app.request('GET', `/transactions/settlement/report?${query}`, { credential, headers: { ...headers, accept: 'text/csv' } })
        expect(csv.body).toBe(expected.csv)
      }
    }
  })

  it('streams the same bytes over HTTP, chunked, and keeps the summary of a payout report', async () => {
    running = await startEmulator({ port: 0, clock: fakeClock('2025-03-01T10:00:00.000Z') })
    const app = running.app
    ok(seed(app, { settlementEntries: 3000, days: 3 }))
    const query = QUERIES[0] as string
    const local = app.request('GET', `/transactions/settlement/report?${query}`, { headers: { accept: 'text/csv' } }).body as string
    const response = await fetch(`${running.url}/transactions/settlement/report?${query}`, {
      headers: { authorization: `Bearer ${KEYS.merchantSecretKey}`, accept: 'text/csv' },
    })
    expect(response.headers.get('transfer-encoding')).toBe('chunked')
    expect(await response.text()).toBe(local)
    expect(local.split('\r\n').length).toBe(3002)

    // A payout report: no currency in the query, so the summary takes the entries' currency.
    const payout = ok(app.request('POST', '/transactions/payouts', { body: {} }))
    const report = ok(app.request('GET', `/transactions/settlement/report?payoutId=${payout.payoutId}`))
    const swept = app.store.settlementEntries.all().filter((e) => e.payoutId === payout.payoutId)
    expect(JSON.stringify(report)).toBe(wholeReport(swept, new URLSearchParams(`payoutId=${payout.payoutId}`)).json)
    expect(report.summary.currency).toBe('AUD')
  })
})
