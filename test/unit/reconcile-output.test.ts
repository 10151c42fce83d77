// What settlement reconcile prints besides its checks (issue 36): the balances (a real check of
// opening + movements = closing, and "not given" where the contract cannot give one), the table's
// columns said once above it, and the workbook's cells (service text stays text).
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'

import type { PayfacClient } from '../../src/client/index.js'
import { balanceRecords } from '../../src/cli/reconcile/balances.js'
import { hoist } from '../../src/cli/reconcile/deliver.js'
import { Reconciler } from '../../src/cli/reconcile/engine.js'
import { differenceTableView, makeRecord, recordMoney } from '../../src/cli/reconcile/records.js'
import { recordCells } from '../../src/cli/reconcile/xlsx.js'

const aud = (minorCurrencyUnits: number) => ({ minorCurrencyUnits, currency: 'AUD' })
const entry = (amount: number, createdAt: string) => ({ settlementEntryId: `stl_${createdAt}`, type: 'Payment', amount: aud(amount), createdAt })

/** A client that answers balances, the merchant and settlement reports from fixed entries. */
function fakeClient(entries: Array<ReturnType<typeof entry>>, total: number | undefined, asOf = '2026-11-20T00:00:00.000Z') {
  const reports: string[] = []
  const client = {
    merchants: {
      balances: async () => ({ merchantId: 'mcht_a', asOf, balances: total === undefined ? [] : [{ currency: 'AUD', total: aud(total) }] }),
      get: async () => ({ merchantId: 'mcht_a', createdAt: '2025-06-01T00:00:00.000Z' }),
    },
    transactions: {
      settlement: {
        report: async (q: { createdAfter: string; createdBefore: string }) => {
          reports.push(`${q.createdAfter}..${q.createdBefore}`)
          const inside = entries.filter((e) => e.createdAt >= q.createdAfter && e.createdAt < q.createdBefore)
          return Readable.from([Buffer.from(JSON.stringify({ entries: inside, summary: {} }))])
        },
      },
    },
  }
  return { client: client as unknown as PayfacClient, reports }
}

const scope = { currency: 'AUD', from: new Date('2026-10-01T00:00:00.000Z'), to: new Date('2026-11-01T00:00:00.000Z') }
const history = [entry(500, '2026-09-15T00:00:00.000Z'), entry(700, '2026-10-02T00:00:00.000Z'), entry(100, '2026-11-05T00:00:00.000Z')]

function engineWith(amounts: number[]): Reconciler {
  const engine = new Reconciler('AUD')
  for (const amount of amounts) engine.addEntry({ type: 'Payment', transactionId: `t${amount}`, amount: aud(amount) })
  return engine
}

describe('the balances of the period', () => {
  it('reads opening from the history, closing from the balance less what came since, and checks opening + movements = closing', async () => {
    const { client, reports } = fakeClient(history, 1300)
    const rows = await balanceRecords(client, engineWith([700]), scope, { merchantId: 'mcht_a' }, 5000)
    expect(rows.map((r) => [r.record, r.kind, r.amount?.minorCurrencyUnits, r.matched])).toEqual([
      ['balance', 'opening', 500, null],
      ['balance', 'movements', 700, null],
      ['balance', 'closing', 1200, true],
    ])
    // History from the merchant's creation up to the period; the tail from its end to the balance's asOf.
    expect(reports).toEqual(['2025-06-01T00:00:00.000Z..2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z..2026-11-20T00:00:00.000Z'])
  })

  it('is a balance-mismatch difference when the service keeps another balance than its entries give', async () => {
    const { client } = fakeClient(history, 1301)
    const engine = engineWith([700])
    const rows = await balanceRecords(client, engine, scope, { merchantId: 'mcht_a' }, 5000)
    expect(rows[0]).toMatchObject({ record: 'difference', kind: 'balance-mismatch', expected: recordMoney(1201, 'AUD'), found: recordMoney(1200, 'AUD') })
    expect(rows.at(-1)).toMatchObject({ kind: 'closing', matched: false })
    expect(engine.differences).toBe(1)
  })

  it('says where the contract gives no balance, with no amount', async () => {
    const { client } = fakeClient(history, undefined)
    const none = await balanceRecords(client, engineWith([]), scope, { none: 'this credential sees every merchant' }, 5000)
    expect(none.map((r) => [r.kind, r.amount, r.detail])).toEqual([
      ['opening', null, 'not given: this credential sees every merchant'],
      ['movements', recordMoney(0, 'AUD'), expect.any(String)],
      ['closing', null, 'not given: this credential sees every merchant'],
    ])
    const payout = await balanceRecords(client, engineWith([]), { currency: 'AUD' }, { none: 'one payout' }, 5000)
    expect(payout.map((r) => [r.kind, r.amount])).toEqual([
      ['opening', null],
      ['closing', null],
    ])
    expect(payout[0]?.detail).toMatch(/one payout has no period/)
    const noLine = await balanceRecords(client, engineWith([]), scope, { merchantId: 'mcht_a' }, 5000)
    expect(noLine.at(-1)).toMatchObject({ kind: 'closing', amount: null, detail: 'not given: the balances of mcht_a show no total in AUD' })
  })
})

describe('the table of differences', () => {
  const row = (merchantId: string | null, currency: string) =>
    makeRecord({ record: 'difference', kind: 'missing-payment', reference: 'tran_x', merchantId, currency, expected: recordMoney(100, currency) })

  it('says the columns every row shares once above it, and keeps the others', () => {
    const same = hoist(differenceTableView, [row('mcht_a', 'AUD'), row('mcht_a', 'AUD')])
    expect(same.above).toBe('Merchant: mcht_a   Currency: AUD\n')
    expect(same.view.columns.map((c) => c.key)).toEqual(['kind', 'reference', 'expected', 'found', 'detail'])
    const mixed = hoist(differenceTableView, [row('mcht_a', 'AUD'), row('mcht_b', 'AUD')])
    expect(mixed.above).toBe('Currency: AUD\n')
    expect(mixed.view.columns.map((c) => c.key)).toContain('merchantId')
    expect(hoist(differenceTableView, []).above).toBeUndefined()
    expect(hoist(differenceTableView, [row('mcht_\u001b[2Jx', 'AUD')]).above).not.toContain('\u001b')
  })

  it('keeps the reference whole', () => {
    expect(differenceTableView.columns.find((c) => c.key === 'reference')?.whole).toBe(true)
  })
})

describe('the workbook cells', () => {
  it('are the CSV cells: numbers for money with the currency decimals, text defused, XML-safe', () => {
    const record = makeRecord({
      record: 'matched',
      kind: 'payment',
      reference: '=HYPERLINK("http://x")\u0000',
      merchantId: 'mcht_a',
      currency: 'JPY',
      amount: recordMoney(-1250, 'JPY'),
      count: 1,
      matched: true,
    })
    const { cells, formats } = recordCells(record)
    expect(cells).toEqual(['matched', 'mcht_a', 'payment', `'=HYPERLINK("http://x")\ufffd`, 'JPY', -1250, -1250, null, null, null, null, 1, true, null])
    expect(formats[6]).toBe('#,##0')
    expect(recordCells(makeRecord({ record: 'total', kind: 'net', currency: 'AUD', amount: recordMoney(-5, 'AUD') })).formats[6]).toBe('#,##0.00')
  })

  it('cuts a text longer than a workbook cell holds (32,767 characters: Excel repairs a file with a longer one), never inside a character', () => {
    const long = `=${'x'.repeat(32_763)}😀${'y'.repeat(10_000)}`
    const { cells, cut } = recordCells(makeRecord({ record: 'difference', kind: 'unknown', reference: 'tran_1', detail: long }))
    const detail = cells.at(-1) as string
    expect(cut).toBe(1)
    expect(detail.length).toBeLessThanOrEqual(32_767)
    expect(detail.startsWith("'=xxx")).toBe(true)
    expect(detail.endsWith('x…')).toBe(true)
    expect(recordCells(makeRecord({ record: 'difference', kind: 'unknown', detail: 'y'.repeat(32_767) })).cut).toBe(0)
  })
})

describe('settlement report --out with the fan-out (report-output.ts)', () => {
  it('names each merchant file only from an id made of letters, digits, _ and -, and never two that differ by case', async () => {
    const { reportOutput } = await import('../../src/cli/range/report-output.js')
    const { mkdtempSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const folder = mkdtempSync(join(tmpdir(), 'payfac-report-out-'))
    const output = reportOutput({ out: join(folder, 's-{merchantId}.csv'), csv: true, 'each-merchant': true })
    if (output.kind !== 'each') throw new Error(`expected one file per merchant, got ${output.kind}`)
    expect(output.pathOf('mcht_Ab-1')).toBe(join(folder, 's-mcht_Ab-1.csv'))
    for (const hostile of ['../../etc/passwd', 'mcht_x/../../y', 'mcht_\u0000', '', 'mcht_x y'])
      expect(() => output.pathOf(hostile)).toThrow(/cannot name a file/)
    expect(() => output.pathOf('mcht_aB-1')).toThrow(/would be the file of mcht_Ab-1/)
    const inFolder = reportOutput({ out: folder, merchants: 'mcht_a' })
    expect(inFolder.kind === 'each' && inFolder.pathOf('mcht_a')).toBe(join(folder, 'settlement-mcht_a.json'))
    expect(reportOutput({ out: join(folder, 'all.csv'), csv: true, 'each-merchant': true })).toEqual({ kind: 'combined', path: join(folder, 'all.csv') })
    expect(reportOutput({ out: join(folder, 'one.csv'), csv: true })).toEqual({ kind: 'file', path: join(folder, 'one.csv') })
  })
})
