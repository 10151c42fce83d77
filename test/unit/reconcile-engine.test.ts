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
    const money = (m: { decimal: string; currency: string } | null) => (m ? `${m.decimal} ${m.currency}` : null)
    expect(rows.map((r) => [r.record, r.kind, r.reference, r.merchantId, money(r.amount), money(r.expected), money(r.found), r.count, r.detail])).toEqual(
      GOLDEN_ROWS,
    )
    // Money is minor units with its decimal beside them, exactly.
    expect(rows[3]).toMatchObject({
      expected: { minorCurrencyUnits: 2000, currency: 'AUD', decimal: '20.00' },
      found: { minorCurrencyUnits: 4100, currency: 'AUD', decimal: '41.00' },
    })
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

// Each row as [record, kind, reference, merchant, amount, expected, found, count, detail], money as
// `decimal currency`: the differences are those recorded before issue 36 (kinds, references,
// merchants, order and amounts), now with their money in minor units and the matched entries
// between them.
const GOLDEN_ROWS: Array<[string, string, string | null, string | null, string | null, string | null, string | null, number | null, string | null]> = [
  ['matched', 'payment', 't1', 'mcht_a', '10.00 AUD', null, null, 1, null],
  ['matched', 'fee', 't1', 'mcht_a', '-0.45 AUD', null, null, 1, null],
  ['matched', 'ledger', 'ref-t1', 'mcht_a', '10.00 AUD', null, null, 1, 'ledger line 2 (t1)'],
  ['difference', 'duplicate-payment', 't2', 'mcht_a', null, '20.00 AUD', '41.00 AUD', 2, '2 Payment entries where 1 was expected: 20.00 AUD, 21.00 AUD'],
  [
    'difference',
    'duplicate-fee',
    't2',
    'mcht_a',
    null,
    '-0.60 AUD',
    '-1.83 AUD',
    3,
    '3 ServiceFee entries where 1 was expected: -0.60 AUD, -0.61 AUD, -0.62 AUD',
  ],
  ['difference', 'ledger-amount', 'ord-t2', 'mcht_a', null, '20.00 AUD', '20.50 AUD', null, 'ledger line 3 (t2)'],
  ['difference', 'unexpected-entry', 't4', 'mcht_a', null, null, '9.00 AUD', 1, 'no entry expected (transaction pending): Payment 9.00 AUD'],
  ['matched', 'payment', 't8', 'mcht_a', '4.00 AUD', null, null, 1, null],
  ['difference', 'not-in-ledger', 't8', 'mcht_a', null, '4.00 AUD', null, null, 'no ledger line'],
  ['matched', 'payment', 't9', 'mcht_a', '0.00 AUD', null, null, 1, null],
  ['difference', 'missing-fee', 't9', 'mcht_a', null, '-0.05 AUD', null, null, 'no ServiceFee entry'],
  ['difference', 'not-in-ledger', 't9', 'mcht_a', null, '0.00 AUD', null, null, 'no ledger line'],
  ['matched', 'payment', 't10', 'mcht_a', '30.50 AUD', null, null, 1, null],
  ['matched', 'fee', 't10', 'mcht_a', '-0.12 AUD', null, null, 1, null],
  ['difference', 'not-in-ledger', 't10', 'mcht_a', null, '30.00 AUD', null, null, 'no ledger line'],
  ['difference', 'payment-amount', 't11', 'mcht_a', null, '10.01 AUD', '10.00 AUD', null, 'Payment entry of another amount'],
  ['difference', 'missing-fee', 't11', 'mcht_a', null, '-0.20 AUD', null, null, 'no ServiceFee entry'],
  ['matched', 'ledger', 't11', 'mcht_a', '10.01 AUD', null, null, 1, 'ledger line 5 (t11)'],
  ['difference', 'missing-payment', 't12', 'mcht_a', null, '7.00 AUD', null, null, 'no Payment entry'],
  ['difference', 'missing-fee', 't12', 'mcht_a', null, '-0.07 AUD', null, null, 'no ServiceFee entry'],
  ['difference', 'not-in-ledger', 't12', 'mcht_a', null, '7.00 AUD', null, null, 'no ledger line'],
  ['difference', 'missing-payment', 't13', 'mcht_b', null, '1.00 AUD', null, null, 'no Payment entry'],
  ['difference', 'not-in-ledger', 't13', 'mcht_b', null, '1.00 AUD', null, null, 'no ledger line'],
  [
    'difference',
    'unexpected-entry',
    't14',
    'mcht_a',
    null,
    null,
    '11.94 AUD',
    3,
    'no entry expected (transaction failed): Payment 6.00 AUD, Payment 6.00 AUD, ServiceFee -0.06 AUD',
  ],
  ['difference', 'duplicate-refund', 'r1', 'mcht_a', null, '-3.00 AUD', '-6.00 AUD', 2, '2 Refund entries where 1 was expected: -3.00 AUD, -3.00 AUD'],
  ['matched', 'refund', 'r2', null, '-1.00 AUD', null, null, 1, null],
  ['matched', 'ledger', 'r2', null, '-1.00 AUD', null, null, 1, 'ledger line 4 (r2)'],
  ['difference', 'missing-refund', 'r3', 'mcht_b', null, '-0.50 AUD', null, null, 'no Refund entry'],
  [
    'difference',
    'payout-sum',
    'p1',
    'mcht_a',
    null,
    '7.00 AUD',
    '6.55 AUD',
    null,
    'brought forward 0.00 AUD + entries 6.55 AUD \u2212 carried forward 0.00 AUD',
  ],
  [
    'difference',
    'payout-entry',
    'p1',
    'mcht_a',
    null,
    '-7.00 AUD',
    '-14.00 AUD',
    2,
    '2 Payout entries where 1 of -7.00 AUD was expected: -7.00 AUD, -7.00 AUD',
  ],
  ['difference', 'unexpected-entry', 't3', 'mcht_b', null, null, '4.85 NZD', 2, 'no transaction paid in the range: Payment 5.00 NZD, ServiceFee -0.15 NZD'],
  ['difference', 'unexpected-entry', 't6', null, null, null, '12.00 AUD', 1, 'no transaction paid in the range: Payment 12.00 AUD'],
  ['difference', 'unexpected-entry', 't7', 'mcht_b', null, null, '0.00 AUD', 2, 'no transaction paid in the range: Payment 0.10 AUD, ServiceFee -0.10 AUD'],
  ['difference', 'unexpected-entry', 't15', 'mcht_a', null, null, '0.00 AUD', 1, 'no transaction paid in the range: Payment 0.00 AUD'],
  ['difference', 'unexpected-entry', 'r9', 'mcht_b', null, null, '-0.41 NZD', 2, 'no refund in the range: Refund -0.20 NZD, Refund -0.21 NZD'],
  ['difference', 'ledger-unmatched', 'stray', null, null, '1.00 AUD', null, null, 'ledger line 6: no transaction or refund with this reference'],
]
const GOLDEN_COUNTS = { entries: 32, checked: 15, matched: 2, differences: 26 }
const GOLDEN_SUMMARY =
  'Reconciled 15 records against 32 settlement entries: 2 matched, 26 differences. AUD: payments 137.30, refunds -7.71, fees -2.56, payouts -7.00, other 0.30, net 120.33; NZD: payments 5.00, refunds -0.20, fees -0.15, payouts 0.00, other 0.00, net 4.65'
