// The reconciler's results, pinned: one month with every kind of difference (duplicates of each
// kind in arrival order, two merchants, a second currency, entries without ids, transactions in
// every status, refunds, a payout and a ledger). The expected rows were recorded from the
// reconciler before its index moved into typed columns; any change to a row, its order, a count
// or the summary is a change of results and fails here.
import { describe, expect, it } from 'vitest'

import { Reconciler } from '../../src/cli/reconcile/engine.js'
import { EntryIndex } from '../../src/cli/reconcile/entry-index.js'
import { LedgerBook, parseLedger, parseLedgerColumns } from '../../src/cli/reconcile/ledger.js'
import { terminalProgress } from '../../src/cli/reconcile/run.js'

type Loose = Record<string, unknown>

const money = (minorCurrencyUnits: number, currency = 'AUD') => ({ minorCurrencyUnits, currency })
const entry = (type: string, ids: { t?: string; r?: string }, amount: unknown, merchantId: string | null = 'mcht_a'): Loose => ({
  type,
  transactionId: ids.t ?? null,
  refundId: ids.r ?? null,
  merchantId,
  amount,
})
const txn = (id: string, status: string, amount: Loose, fee?: number, extra: Loose = {}): Loose => ({
  purchaseDetails: {
    transactionId: id,
    merchantId: 'mcht_a',
    orderId: `ord-${id}`,
    referenceOrderId: `ref-${id}`,
    amount,
    surchargeAmount: 0,
    status,
    ...extra,
  },
  ...(fee === undefined ? {} : { serviceFees: { totalAmount: fee } }),
})

async function month(label?: string) {
  const columns = parseLedgerColumns('reference=Ref,amount=Amt,currency=Ccy')
  const ledger = new LedgerBook(
    await parseLedger('Ref,Amt,Ccy\nref-t1,10.00,AUD\nord-t2,20.50,AUD\nr2,-1.00,AUD\nt11,10.01,AUD\nstray,1.00,AUD\nnz,1.00,NZD\n', columns, 'decimal'),
  )
  const r = new Reconciler('AUD', ledger, label)
  const entries: Loose[] = [
    entry('Payment', { t: 't1' }, money(1000)),
    entry('ServiceFee', { t: 't1' }, money(-45)),
    entry('Payment', { t: 't2' }, money(2000), 'mcht_b'),
    entry('Payment', { t: 't2' }, money(2100)),
    entry('ServiceFee', { t: 't2' }, money(-60)),
    entry('ServiceFee', { t: 't2' }, money(-61)),
    entry('ServiceFee', { t: 't2' }, money(-62)),
    entry('Payment', { t: 't3' }, money(500, 'NZD'), 'mcht_b'),
    entry('ServiceFee', { t: 't3' }, money(-15, 'NZD'), 'mcht_b'),
    entry('Refund', { t: 't1', r: 'r1' }, money(-300)),
    entry('Refund', { t: 't1', r: 'r1' }, money(-300)),
    entry('Refund', { r: 'r2' }, money(-100), null),
    entry('Refund', { t: 't1' }, money(-50)),
    entry('Payment', {}, money(70)),
    entry('Payout', {}, money(-700)),
    entry('Transfer', { t: 't1' }, money(30)),
    entry('Payment', { t: 't4' }, money(900)),
    entry('Payment', { t: 't5' }, money(800)),
    entry('Payment', { t: 't6' }, money(1200), null),
    entry('ServiceFee', { t: 't7' }, money(-10), 'mcht_b'),
    entry('Payment', { t: 't7' }, money(10)),
    entry('Refund', { r: 'r9' }, money(-20, 'NZD'), 'mcht_b'),
    entry('Refund', { r: 'r9' }, money(-21), 'mcht_b'),
    entry('Payment', { t: 't8' }, 400),
    entry('Payment', { t: 't9' }, undefined),
    entry('Payment', { t: 't10' }, money(3050)),
    entry('ServiceFee', { t: 't10' }, money(-12)),
    entry('Payment', { t: 't11' }, money(1000)),
    entry('Payment', { t: 't14' }, money(600)),
    entry('ServiceFee', { t: 't14' }, money(-6)),
    entry('Payment', { t: 't14' }, money(600)),
    entry('Payment', { t: 't15' }, money(-0)),
  ]
  for (const e of entries) r.addEntry(e)
  const rows = [
    ...r.checkTransaction(txn('t1', 'paid', money(1000), 45)),
    ...r.checkTransaction(txn('t2', 'partially_refunded', money(2000), 60)),
    ...r.checkTransaction(txn('t3', 'paid', money(500, 'NZD'), 15)),
    ...r.checkTransaction(txn('t4', 'pending', money(900), 9)),
    ...r.checkTransaction(txn('t5', 'cancelled', money(800), 8)),
    ...r.checkTransaction(txn('t8', 'paid', money(400))),
    ...r.checkTransaction(txn('t9', 'accepted', money(0), 5)),
    ...r.checkTransaction(txn('t10', 'disputed', money(3000), 12, { surchargeAmount: money(50) })),
    ...r.checkTransaction(txn('t11', 'paid', money(1001), 20)),
    ...r.checkTransaction(txn('t12', 'refunded', money(700), 7)),
    ...r.checkTransaction({ transactionId: 't13', amount: money(100), status: 'paid', merchantId: 'mcht_b' }),
    ...r.checkTransaction({ purchaseDetails: { amount: money(100), status: 'paid' } }),
    ...r.checkTransaction(txn('t14', 'failed', money(600), 6)),
    ...r.checkRefund({ refundId: 'r1', merchantId: 'mcht_a', amount: money(300) }),
    ...r.checkRefund({ refundId: 'r2', refundAmount: money(100) }),
    ...r.checkRefund({ refundId: 'r3', merchantId: 'mcht_b', amount: money(50) }),
    ...r.checkRefund({ refundId: 'r4', amount: money(50, 'NZD') }),
    ...r.checkPayout(
      { payoutId: 'p1', merchantId: 'mcht_a', amount: money(700), breakdown: { broughtForward: money(0), carriedForward: money(0) } },
      655,
      [-700, -700],
    ),
    ...r.finish(),
  ]
  return { r, rows }
}

describe('the reconciler over a month with every kind of difference', () => {
  it('reports the same rows, in the same order, with the same counts and summary', async () => {
    const { r, rows } = await month()
    expect(rows).toEqual(GOLDEN_ROWS)
    expect({ entries: r.entries, checked: r.checked, matched: r.matched, differences: r.differences }).toEqual(GOLDEN_COUNTS)
    expect(r.summary()).toBe(GOLDEN_SUMMARY)
  })

  it('names the merchant first in the summary of a fan-out run', async () => {
    expect((await month('mcht_a')).r.summary()).toBe(`mcht_a: ${GOLDEN_SUMMARY}`)
  })
})

describe('the entry index', () => {
  it('keeps every amount of every kind in arrival order, the first merchant and currency, past its growth', () => {
    const index = new EntryIndex(2)
    const n = 5000
    for (let i = 0; i < n; i++) index.add(`t${i}`, i % 3 === 0 ? 1 : 0, i, i % 7 === 0 ? null : `m${i % 5}`, i % 2 ? 'AUD' : 'NZD')
    for (let i = 0; i < n; i += 10) index.add(`t${i}`, 0, -i, 'other', 'USD')
    index.add('t1', 0, 2 ** 53 - 1, 'm1', 'AUD')
    index.add('t1', 0, -0.5, 'm1', 'AUD')
    expect(index.size).toBe(n)
    expect(index.take('t1')).toEqual({ merchantId: 'm1', currency: 'AUD', amounts: [[1, 2 ** 53 - 1, -0.5], []] })
    expect(index.take('t1')).toBeUndefined()
    expect(index.take('t0')).toEqual({ merchantId: null, currency: 'NZD', amounts: [[-0], [0]] })
    expect(index.take('t30')).toEqual({ merchantId: 'm0', currency: 'NZD', amounts: [[-30], [30]] })
    expect(index.take('t4999')).toEqual({ merchantId: 'm4', currency: 'AUD', amounts: [[4999], []] })
    expect(index.take('nope')).toBeUndefined()
    const left = [...index.drain()]
    expect(left).toHaveLength(n - 4)
    expect(left.slice(0, 3).map(([id]) => id)).toEqual(['t2', 't3', 't4'])
    expect(left[1]).toEqual(['t3', { merchantId: 'm3', currency: 'AUD', amounts: [[], [3]] }])
    expect(left.at(-1)).toEqual(['t4998', { merchantId: null, currency: 'NZD', amounts: [[], [4998]] }])
    expect(left.find(([id]) => id === 't4997')).toEqual(['t4997', { merchantId: 'm2', currency: 'AUD', amounts: [[4997], []] }])
    expect(index.size).toBe(0)
    expect([...index.drain()]).toEqual([])
  })
})

describe('the progress line', () => {
  const stream = (isTTY: boolean) => {
    const written: string[] = []
    return { written, stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream }
  }

  it('makes no text at all when stderr is not a terminal', () => {
    const { written, stream: s } = stream(false)
    const show = terminalProgress(s)
    let made = 0
    for (let i = 0; i < 1000; i++) show(() => `${++made}`)
    show.done()
    expect([made, written]).toEqual([0, []])
  })

  it('on a terminal, makes and shows the text at most every 100 ms, and clears it when done', () => {
    const { written, stream: s } = stream(true)
    const show = terminalProgress(s)
    let made = 0
    for (let i = 0; i < 1000; i++) show(() => `Reconciling: ${++made}`)
    show.done()
    expect(made).toBe(written.length - 1)
    expect(written[0]).toBe('\r\x1b[2KReconciling: 1')
    expect(written.at(-1)).toBe('\r\x1b[2K')
  })
})

const GOLDEN_ROWS = [
  { kind: 'duplicate-payment', reference: 't2', expected: '1 entry of 20.00 AUD', found: '2 entries: 20.00 AUD, 21.00 AUD', merchantId: 'mcht_a' },
  { kind: 'duplicate-fee', reference: 't2', expected: '1 entry of -0.60 AUD', found: '3 entries: -0.60 AUD, -0.61 AUD, -0.62 AUD', merchantId: 'mcht_a' },
  { kind: 'ledger-amount', reference: 'ord-t2', expected: '20.00 AUD', found: '20.50 AUD (ledger line 3)', merchantId: 'mcht_a' },
  { kind: 'unexpected-entry', reference: 't4', expected: 'no entry (transaction pending)', found: 'Payment 9.00 AUD', merchantId: 'mcht_a' },
  { kind: 'not-in-ledger', reference: 't8', expected: 'a ledger line of 4.00 AUD', found: 'none', merchantId: 'mcht_a' },
  { kind: 'missing-fee', reference: 't9', expected: '-0.05 AUD', found: 'no entry', merchantId: 'mcht_a' },
  { kind: 'not-in-ledger', reference: 't9', expected: 'a ledger line of 0.00 AUD', found: 'none', merchantId: 'mcht_a' },
  { kind: 'not-in-ledger', reference: 't10', expected: 'a ledger line of 30.00 AUD', found: 'none', merchantId: 'mcht_a' },
  { kind: 'payment-amount', reference: 't11', expected: '10.01 AUD', found: '10.00 AUD', merchantId: 'mcht_a' },
  { kind: 'missing-fee', reference: 't11', expected: '-0.20 AUD', found: 'no entry', merchantId: 'mcht_a' },
  { kind: 'missing-payment', reference: 't12', expected: '7.00 AUD', found: 'no entry', merchantId: 'mcht_a' },
  { kind: 'missing-fee', reference: 't12', expected: '-0.07 AUD', found: 'no entry', merchantId: 'mcht_a' },
  { kind: 'not-in-ledger', reference: 't12', expected: 'a ledger line of 7.00 AUD', found: 'none', merchantId: 'mcht_a' },
  { kind: 'missing-payment', reference: 't13', expected: '1.00 AUD', found: 'no entry', merchantId: 'mcht_b' },
  { kind: 'not-in-ledger', reference: 't13', expected: 'a ledger line of 1.00 AUD', found: 'none', merchantId: 'mcht_b' },
  {
    kind: 'unexpected-entry',
    reference: 't14',
    expected: 'no entry (transaction failed)',
    found: 'Payment 6.00 AUD, Payment 6.00 AUD, ServiceFee -0.06 AUD',
    merchantId: 'mcht_a',
  },
  { kind: 'duplicate-refund', reference: 'r1', expected: '1 entry of -3.00 AUD', found: '2 entries', merchantId: 'mcht_a' },
  { kind: 'missing-refund', reference: 'r3', expected: '-0.50 AUD', found: 'no entry', merchantId: 'mcht_b' },
  {
    kind: 'payout-sum',
    reference: 'p1',
    expected: '7.00 AUD',
    found: '6.55 AUD (brought forward 0.00 AUD + entries 6.55 AUD − carried forward 0.00 AUD)',
    merchantId: 'mcht_a',
  },
  { kind: 'payout-entry', reference: 'p1', expected: '1 Payout entry of -7.00 AUD', found: '-7.00 AUD, -7.00 AUD', merchantId: 'mcht_a' },
  {
    kind: 'unexpected-entry',
    reference: 't3',
    expected: 'no transaction paid in the range',
    found: 'Payment 5.00 NZD, ServiceFee -0.15 NZD',
    merchantId: 'mcht_b',
  },
  { kind: 'unexpected-entry', reference: 't6', expected: 'no transaction paid in the range', found: 'Payment 12.00 AUD', merchantId: null },
  {
    kind: 'unexpected-entry',
    reference: 't7',
    expected: 'no transaction paid in the range',
    found: 'Payment 0.10 AUD, ServiceFee -0.10 AUD',
    merchantId: 'mcht_b',
  },
  { kind: 'unexpected-entry', reference: 't15', expected: 'no transaction paid in the range', found: 'Payment 0.00 AUD', merchantId: 'mcht_a' },
  { kind: 'unexpected-entry', reference: 'r9', expected: 'no refund in the range', found: 'Refund -0.20 NZD, Refund -0.21 NZD', merchantId: 'mcht_b' },
  {
    kind: 'ledger-unmatched',
    reference: 'stray',
    expected: '1.00 AUD (ledger line 6)',
    found: 'no transaction or refund with this reference',
    merchantId: null,
  },
]
const GOLDEN_COUNTS = { entries: 32, checked: 15, matched: 2, differences: 26 }
const GOLDEN_SUMMARY =
  'Reconciled 15 records against 32 settlement entries: 2 matched, 26 differences. AUD: payments 137.30, refunds -7.71, fees -2.56, payouts -7.00, other 0.30, net 120.33; NZD: payments 5.00, refunds -0.20, fees -0.15, payouts 0.00, other 0.00, net 4.65'
