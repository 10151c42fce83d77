// Invoices pinned: every answer of /transactions/invoices (lists with each sort, filter and page,
// every detail and PDF) over a ledger with several merchants, currencies and months, recorded
// before the invoices were kept up to date as fees are appended, and compared after each kind of
// change the ledger sees: new fees, a rewind of the clock, a removed entry, a fee changed in place.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { appendLedger } from '../../src/emulator/ledger.js'
import { seedMismatch, removeSettlementEntry } from '../../src/emulator/month-mismatch.js'
import type { EmulatorApp } from '../../src/emulator/app.js'
import { KEYS, MERCHANT, SUB_MERCHANT, paidTransaction, testApp } from './helpers.js'

const asMarketplace = { credential: KEYS.marketplaceApiKey }
const LISTS = [
  '',
  '?limit=2',
  '?limit=2&page=2',
  '?limit=3&page=3',
  '?sort=totalAmount',
  '?sort=-totalAmount',
  '?sort=period,-createdAt',
  '?sort=-status,totalAmount',
  '?sort=createdAt',
  '?status=Issued',
  '?status=Open',
  '?currency=nzd',
  `?merchantId=${SUB_MERCHANT}`,
  '?period=2025-01,2025-03',
  '?period=2024-12&currency=AUD&sort=-createdAt',
]

function fee(app: EmulatorApp, merchantId: string, currency: string, amount: number, transactionId: string | null = null) {
  return appendLedger(app, { merchantId, type: 'ServiceFee', amount: { minorCurrencyUnits: amount, currency }, description: `fee ${amount}`, transactionId })
}

/** Every answer the invoices give, as plain data. */
function answers(app: EmulatorApp) {
  const out: Record<string, unknown> = {}
  for (const [who, options] of [
    ['merchant', {}],
    ['marketplace', asMarketplace],
  ] as const) {
    for (const q of LISTS) {
      const r = app.request('GET', `/transactions/invoices${q}`, options)
      out[`${who} ${q}`] = { status: r.status, count: r.headers['Total-Record-Count'], pages: r.headers['Page-Count'], body: r.body }
    }
    const all = app.request('GET', '/transactions/invoices?limit=500', options).body as Array<{ invoiceId: string }>
    for (const { invoiceId } of all) {
      out[`${who} detail ${invoiceId}`] = app.request('GET', `/transactions/invoices/${invoiceId}`, options).body
      const pdf = app.request('GET', `/transactions/invoices/${invoiceId}/pdf`, { ...options, headers: { accept: 'application/pdf' } })
      out[`${who} pdf ${invoiceId}`] = { status: pdf.status, sha256: createHash('sha256').update(String(pdf.body)).digest('hex') }
    }
  }
  return out
}

describe('invoices over a ledger of several merchants, currencies and months', () => {
  it('answer as pinned, after appends, a rewound clock, a removed entry and a fee changed in place', () => {
    const app = testApp()
    const clock = app.clock as Required<typeof app.clock>
    clock.rewind(100 * 86_400) // 2024-11-21
    const tx: string[] = []
    for (let day = 0; day < 130; day += 7) {
      fee(app, MERCHANT, 'AUD', -(100 + day))
      if (day % 14 === 0) fee(app, SUB_MERCHANT, 'AUD', -(50 + day))
      if (day % 21 === 0) fee(app, MERCHANT, 'NZD', -(70 + day))
      if (day === 35) fee(app, MERCHANT, 'AUD', 44) // a returned fee
      if (day === 63) tx.push(paidTransaction(app, 12_345))
      clock.advance(7 * 86_400)
    }
    tx.push(paidTransaction(app, 2_000))
    expect(answers(app)).toMatchSnapshot('seeded')

    // New fees after the invoices were read: to an existing invoice and to a new one.
    fee(app, MERCHANT, 'AUD', -999)
    fee(app, SUB_MERCHANT, 'NZD', -321)
    tx.push(paidTransaction(app, 7_777))
    expect(answers(app)).toMatchSnapshot('appended')

    // The clock set back: a fee that belongs before others of its month.
    clock.rewind(20 * 86_400)
    fee(app, MERCHANT, 'AUD', -5)
    clock.advance(40 * 86_400)
    fee(app, MERCHANT, 'AUD', -6)
    expect(answers(app)).toMatchSnapshot('rewound')

    // A fee entry removed, then one changed in place (the month fixture's mismatches).
    const victim = app.store.settlementEntries.filter((e) => e.type === 'ServiceFee' && e.merchantId === SUB_MERCHANT)[1]
    removeSettlementEntry(app.store, victim!.settlementEntryId)
    expect(answers(app)).toMatchSnapshot('removed')
    seedMismatch(app.store, app.ids, 'fee-off-by-cent', tx)
    expect(answers(app)).toMatchSnapshot('changed')
  })
})
