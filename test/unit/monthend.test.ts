// Pure parts of month-end: ranges (calendar days, --last, splits, halves), the JSON report cut into
// entries whatever the chunking, CSV records, the ledger, the reconciler and the ordered fan-out.
import { parse as csvRecords } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'

import { fanOut, tagged } from '../../src/cli/fan-out/engine.js'
import { Reconciler } from '../../src/cli/reconcile/engine.js'
import { LedgerBook, parseLedger, parseLedgerColumns } from '../../src/cli/reconcile/ledger.js'
import { halve, resolveRange, splitRange, startOfLast } from '../../src/cli/range/range.js'
import { jsonEntries, outside } from '../../src/cli/range/report-stream.js'
import { checkedCsvPart } from '../../src/cli/range/report-csv.js'

const now = new Date('2026-03-31T12:00:00.000Z')

describe('ranges', () => {
  it('refuses days the calendar does not have, and reversed ranges', () => {
    expect(() => resolveRange({ from: '2026-02-30', to: '2026-03-02' }, now)).toThrow(/2026-02-30 is not a day/)
    expect(() => resolveRange({ from: '2028-02-29', to: '2028-03-01' }, now)).not.toThrow()
    expect(() => resolveRange({ from: '2026-03-02', to: '2026-03-01' }, now)).toThrow(/reversed/)
    expect(() => resolveRange({ from: '2026-03-02' }, now)).toThrow(/missing --to/)
  })

  it('reads --last in hours, days, weeks and calendar months', () => {
    expect(startOfLast('24h', now).toISOString()).toBe('2026-03-30T12:00:00.000Z')
    expect(startOfLast('2w', now).toISOString()).toBe('2026-03-17T12:00:00.000Z')
    expect(startOfLast('1m', now).toISOString()).toBe('2026-03-03T12:00:00.000Z')
    expect(() => startOfLast('0d', now)).toThrow(/--last/)
    expect(resolveRange({ last: '7d' }, now)).toMatchObject({ to: now, toText: now.toISOString() })
  })

  it('splits into consecutive parts that cover the range exactly, and halves to whole seconds', () => {
    const range = resolveRange({ from: '2026-01-01', to: '2026-01-10T06:00:00Z' }, now)!
    const parts = splitRange(range, 2 * 86_400_000)
    expect(parts).toHaveLength(5)
    expect(parts[0]!.from).toEqual(range.from)
    expect(parts.at(-1)!.to).toEqual(range.to)
    for (let i = 1; i < parts.length; i++) expect(parts[i]!.from).toEqual(parts[i - 1]!.to)
    expect(splitRange(range, undefined)).toEqual([range])
    const [a, b] = halve(range)!
    expect(a.to).toEqual(b.from)
    expect(a.to.getUTCMilliseconds()).toBe(0)
  })
})

async function* chunks(text: string, size: number) {
  const bytes = Buffer.from(text, 'utf8')
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

describe('the JSON report cut into entries', () => {
  const entries = [
    { settlementEntryId: 'stl_1', description: 'braces } ] in "quotes" \\ and é', amount: { minorCurrencyUnits: 5, currency: 'AUD' } },
    { settlementEntryId: 'stl_2', nested: { list: [1, { deep: '[' }] } },
    { settlementEntryId: 'stl_3' },
  ]
  const document = JSON.stringify({ summary0: { entries: ['not these'] }, entries, summary: { entryCount: 3, note: '{"entries":[' } })

  it.each([1, 2, 3, 7, 64, 100_000])('gives every entry and the rest with chunks of %i bytes', async (size) => {
    const rest = outside()
    const got: unknown[] = []
    for await (const batch of jsonEntries(chunks(document, size), rest)) for (const bytes of batch) got.push(JSON.parse(bytes.toString('utf8')))
    expect(got).toEqual(entries)
    expect(rest.value()).toEqual({ summary0: { entries: ['not these'] }, entries: [], summary: { entryCount: 3, note: '{"entries":[' } })
  })

  it('takes a bare array as the entries', async () => {
    const got: unknown[] = []
    for await (const batch of jsonEntries(chunks(JSON.stringify(entries), 5))) for (const b of batch) got.push(JSON.parse(b.toString()))
    expect(got).toEqual(entries)
  })

  it('cuts CSV records on line ends outside quotes, whatever the chunking', async () => {
    const csv = 'settlementEntryId,createdAt,type,currency,amount\r\n1,"x\r\ny",t,AUD,1\r\n2,"q""\n",t,AUD,2\r\n3,z,t,AUD,3'
    const at = { method: 'GET', path: '/r', expected: 'a CSV report', timeoutMs: 1000 }
    for (const size of [1, 3, 7, 1000]) {
      const out: Buffer[] = []
      const bytes = (async function* () {
        for await (const c of chunks(csv, size)) yield Buffer.from(c)
      })()
      for await (const b of checkedCsvPart(bytes, at, {})) out.push(b)
      expect(csvRecords(Buffer.concat(out).toString())).toEqual([
        ['settlementEntryId', 'createdAt', 'type', 'currency', 'amount'],
        ['1', 'x\r\ny', 't', 'AUD', '1'],
        ['2', 'q"\n', 't', 'AUD', '2'],
        ['3', 'z', 't', 'AUD', '3'],
      ])
    }
  })
})

describe('the ledger and the reconciler', () => {
  const columns = parseLedgerColumns('reference=Ref,amount=Amt,currency=Ccy')

  it('reads decimals and minor units, and names a bad line', async () => {
    expect(await parseLedger('Ref,Amt,Ccy\nA,12.50,aud\nB,-1.05,AUD\n', columns, 'decimal')).toEqual([
      { line: 2, reference: 'A', amount: 1250, currency: 'AUD', date: null },
      { line: 3, reference: 'B', amount: -105, currency: 'AUD', date: null },
    ])
    expect((await parseLedger('Ref,Amt,Ccy\nA,1250,AUD\n', columns, 'minor'))[0]!.amount).toBe(1250)
    await expect(parseLedger('Ref,Amt,Ccy\nA,12.5.0,AUD\n', columns, 'decimal', 'b.csv')).rejects.toThrow(/line 2 of b.csv/)
    await expect(parseLedger('Ref,Amount,Ccy\n', columns, 'decimal')).rejects.toThrow(/no column "Amt"/)
  })

  const txn = (id: string, amount: number, fee: number, status = 'paid') => ({
    purchaseDetails: {
      transactionId: id,
      merchantId: 'mcht_a',
      referenceOrderId: `ref-${id}`,
      amount: { minorCurrencyUnits: amount, currency: 'AUD' },
      surchargeAmount: 0,
      status,
    },
    serviceFees: { totalAmount: fee },
  })
  const entry = (type: string, transactionId: string | null, amount: number, extra: Record<string, unknown> = {}) => ({
    type,
    transactionId,
    merchantId: 'mcht_a',
    amount: { minorCurrencyUnits: amount, currency: 'AUD' },
    ...extra,
  })

  it('matches payments, fees, refunds and payouts, and names every kind of difference', async () => {
    const ledger = new LedgerBook(await parseLedger('Ref,Amt,Ccy\nref-t1,10.00,AUD\nref-t2,9.99,AUD\nstray,1.00,AUD\n', columns, 'decimal'))
    const r = new Reconciler('AUD', ledger)
    for (const e of [
      entry('Payment', 't1', 1000),
      entry('ServiceFee', 't1', -45),
      entry('Payment', 't2', 2000),
      entry('Payment', 't2', 2000),
      entry('ServiceFee', 't2', -60),
      entry('ServiceFee', 't3', -31),
      entry('Refund', 't1', -300, { refundId: 'r1' }),
      entry('Payment', 't9', 500),
    ])
      r.addEntry(e)
    const kinds = [
      ...r.checkTransaction(txn('t1', 1000, 45)),
      ...r.checkTransaction(txn('t2', 2000, 60)),
      ...r.checkTransaction(txn('t3', 3000, 30)),
      ...r.checkRefund({ refundId: 'r1', merchantId: 'mcht_a', amount: { minorCurrencyUnits: 300, currency: 'AUD' } }),
      ...r.checkRefund({ refundId: 'r2', merchantId: 'mcht_a', amount: { minorCurrencyUnits: 100, currency: 'AUD' } }),
      ...r.checkPayout(
        {
          payoutId: 'p1',
          amount: { minorCurrencyUnits: 700 },
          breakdown: { broughtForward: { minorCurrencyUnits: 0 }, carriedForward: { minorCurrencyUnits: 0 } },
        },
        655,
        [-700],
      ),
      ...r.finish(),
    ]
      .filter((d) => d.record === 'difference')
      .map((d) => `${d.kind} ${d.reference}`)
    expect(kinds).toEqual([
      'duplicate-payment t2',
      'ledger-amount ref-t2',
      'missing-payment t3',
      'fee-mismatch t3',
      'not-in-ledger t3',
      'missing-refund r2',
      'payout-sum p1',
      'unexpected-entry t9',
      'ledger-unmatched stray',
    ])
    expect(r.summary()).toMatch(
      /^Reconciled 7 records against 8 settlement entries: 2 matched, 9 differences\. AUD: payments 55\.00, refunds -3\.00, fees -1\.36/,
    )
  })
})

describe('the fan-out', () => {
  it('keeps merchant order whatever finishes first, at most N at once, and collects failures', async () => {
    let running = 0
    let most = 0
    const failures: Array<{ merchantId: string; error: unknown }> = []
    const run = async function* (id: string) {
      running += 1
      most = Math.max(most, running)
      await new Promise((r) => setTimeout(r, id === 'mcht_a' ? 30 : 5))
      running -= 1
      if (id === 'mcht_c') throw new Error('boom')
      yield { n: 1 }
      yield { n: 2, merchantId: 'wrong' }
    }
    const rows: unknown[] = []
    for await (const row of fanOut(['mcht_a', 'mcht_b', 'mcht_c', 'mcht_d'], 2, run, failures)) rows.push(row)
    expect(rows).toEqual(['mcht_a', 'mcht_a', 'mcht_b', 'mcht_b', 'mcht_d', 'mcht_d'].map((merchantId, i) => ({ merchantId, n: (i % 2) + 1 })))
    expect(Object.keys(rows[0] as object)[0]).toBe('merchantId')
    expect(most).toBe(2)
    expect(failures.map((f) => f.merchantId)).toEqual(['mcht_c'])
    expect(tagged('mcht_x', 5)).toEqual({ merchantId: 'mcht_x', value: 5 })
  })
})
