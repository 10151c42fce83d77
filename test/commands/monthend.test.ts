// Month-end against the emulator's month fixture: reconcile (all matched, each seeded mismatch
// named, an entry removed through the control plane, a ledger with one altered line), ranges in
// parts giving the same records as one call, the marketplace fan-out with one merchant failing,
// and impossible or reversed ranges refused before anything is sent.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

import { type RefusalCase, RECORDING_MARKETPLACE_KEY, itRefusesBeforeSending, useEmulator, useRecordingServer, useTempDir } from '../helpers/command-harness.js'

const { ctx, json, payfac, marketplace } = useEmulator()
const dir = useTempDir('payfac-monthend-')
const month = (...extra: string[]) => marketplace.json('emulator', 'month', '--transactions', '150', ...extra)
const reconcile = (...extra: string[]) => marketplace.payfac('settlement', 'reconcile', '--currency', 'AUD', '--last', '30d', ...extra)

describe('settlement reconcile on the month fixture', () => {
  it('finds everything settled exactly once (exit 0), for the marketplace and for one merchant', async () => {
    const built = await month()
    expect(built.merchantIds).toHaveLength(5)
    expect(built.transactions).toBe(150)
    expect(built.payouts).toBeGreaterThan(0)
    const all = await reconcile('--json')
    expect(all.code, all.stderr).toBe(0)
    const records = JSON.parse(all.stdout)
    expect(records.filter((r: { record: string }) => r.record === 'difference')).toEqual([])
    expect(records.at(-1)).toMatchObject({ record: 'summary', matched: true, differences: 0 })
    expect(all.stderr).toMatch(/^Reconciled (\d+) records against (\d+) settlement entries: \1 matched, 0 differences\. AUD: payments /m)
    expect(all.stderr).toMatch(/^All \d+ records matched \(\d+ settlement entries\)/m)
    const one = await payfac('settlement', 'reconcile', '--currency', 'AUD', '--last', '30d')
    expect(one.code, one.stderr).toBe(0)
  })

  it.each([
    ['missing-entry', 'missing-payment'],
    ['duplicate-entry', 'duplicate-payment'],
    ['fee-off-by-cent', 'fee-mismatch'],
  ])('finds the seeded %s and names its transaction (exit 6)', async (kind, difference) => {
    const built = await month('--mismatch', kind)
    const result = await reconcile('--json')
    expect(result.code, result.stderr).toBe(6)
    const differences = JSON.parse(result.stdout).filter((r: { record: string }) => r.record === 'difference')
    expect(differences).toEqual([expect.objectContaining({ kind: difference, reference: built.mismatch.transactionId })])
    expect(result.stderr).toMatch(/: \d+ matched, 1 difference\./)
  })

  it('finds an entry removed through the control plane, as a table naming the transaction', async () => {
    await month()
    const [payment] = await marketplace.json('settlement', 'list', '--currency', 'AUD', '--last', '30d', '--type', 'Payment', '--limit', '1')
    await marketplace.json('emulator', 'remove-entry', payment.settlementEntryId)
    const result = await reconcile()
    expect(result.code).toBe(6)
    expect(result.stdout).toContain('missing-payment')
    expect(result.stdout).toContain(payment.transactionId)
    if (payment.payoutId) expect(result.stdout).toContain(payment.payoutId)
  })

  it('reconciles one payout, and finds it short when one of its entries is removed', async () => {
    await month()
    const [payout] = await marketplace.json('payouts', 'list', '--limit', '1')
    const clean = await marketplace.payfac('settlement', 'reconcile', '--payout', payout.payoutId)
    expect(clean.code, clean.stdout + clean.stderr).toBe(0)
    const [swept] = await marketplace.json('settlement', 'list', '--payout', payout.payoutId, '--type', 'Payment', '--limit', '1')
    await marketplace.json('emulator', 'remove-entry', swept.settlementEntryId)
    const result = await marketplace.payfac('settlement', 'reconcile', '--payout', payout.payoutId, '--json')
    expect(result.code).toBe(6)
    const [difference] = JSON.parse(result.stdout).filter((r: { record: string }) => r.record === 'difference')
    expect(difference).toMatchObject({ kind: 'payout-sum', reference: payout.payoutId, merchantId: payout.merchantId, currency: 'AUD' })
    expect(difference.expected).toEqual({
      minorCurrencyUnits: payout.amount.minorCurrencyUnits,
      currency: 'AUD',
      decimal: expect.stringMatching(/^\d+\.\d{2}$/),
    })
  })

  it('compares a ledger CSV: all lines match, then one altered line is found', async () => {
    await month()
    const transactions = await json('transactions', 'list', '--created-after', '2000-01-01', '--all')
    const lines = transactions
      .filter((t: any) => ['paid', 'partially_refunded', 'refunded', 'disputed'].includes(t.purchaseDetails.status))
      .map((t: any) => `${t.purchaseDetails.referenceOrderId},"${(t.purchaseDetails.amount.minorCurrencyUnits / 100).toFixed(2)}",AUD`)
    const file = join(dir(), 'books.csv')
    writeFileSync(file, `Ref,Total,Ccy\n${lines.join('\n')}\n`)
    const args = [
      'settlement',
      'reconcile',
      '--currency',
      'AUD',
      '--last',
      '30d',
      '--ledger',
      file,
      '--ledger-columns',
      'reference=Ref,amount=Total,currency=Ccy',
    ]
    const clean = await payfac(...args)
    expect(clean.code, clean.stdout + clean.stderr).toBe(0)

    const altered = readFileSync(file, 'utf8').split('\n')
    const reference = (altered[3] as string).split(',')[0] as string
    altered[3] = `${reference},"0.01",AUD`
    writeFileSync(file, altered.join('\n'))
    const result = await payfac(...args, '--csv')
    expect(result.code).toBe(6)
    const rows = result.stdout
      .trim()
      .split(/\r?\n/)
      .filter((row) => row.startsWith('difference,'))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatch(new RegExp(`^difference,mcht_\\w+,ledger-amount,${reference},AUD,,,\\d+,[\\d.]+,1,0\\.01,,false,ledger line 4 `))
  })
})

describe('ranges in parts', () => {
  it('gives the same entries, report and CSV in parts as in one call', async () => {
    await month()
    const range = ['--currency', 'AUD', '--from', new Date(Date.now() - 31 * 86_400_000).toISOString(), '--to', new Date(Date.now() + 60_000).toISOString()]
    const ids = (entries: Array<{ settlementEntryId: string }>) => entries.map((e) => e.settlementEntryId)
    const whole = await marketplace.json('settlement', 'list', ...range, '--all')
    const parts = await marketplace.json('settlement', 'list', ...range, '--split', '2d')
    expect(whole.length).toBeGreaterThan(300)
    expect(new Set(ids(parts)).size).toBe(parts.length)
    expect(ids(parts).sort()).toEqual(ids(whole).sort())

    const report = await marketplace.json('settlement', 'report', ...range)
    const split = await marketplace.json('settlement', 'report', ...range, '--split', '3d')
    expect(ids(split.entries).sort()).toEqual(ids(report.entries).sort())
    for (const key of ['entryCount', 'totalCredits', 'totalDebits', 'net']) expect(split.summary[key]).toEqual(report.summary[key])

    const csvWhole = await marketplace.payfac('settlement', 'report', ...range, '--csv')
    const csvParts = await marketplace.payfac('settlement', 'report', ...range, '--csv', '--split', '5d')
    const sorted = (text: string) => text.trim().split('\r\n').sort()
    expect(sorted(csvParts.stdout)).toEqual(sorted(csvWhole.stdout))

    const out = join(dir(), 'report.json')
    const saved = await marketplace.payfac('settlement', 'report', ...range, '--split', '7d', '--out', out)
    expect(saved.stderr).toMatch(/^Sending the range in \d+ parts \(--split 7d\), one after another\nSaved \d+ bytes to /)
    expect(JSON.parse(readFileSync(out, 'utf8')).summary.entryCount).toBe(report.summary.entryCount)
  })
})

describe('marketplace fan-out', () => {
  it('prints every merchant with a merchantId column, and the others when one fails (exit 6)', async () => {
    const built = await month()
    const rowsOf = (csv: string) => csv.trim().split(/\r?\n/)
    const all = await marketplace.payfac('merchants', 'balances', '--each-merchant', '--csv')
    expect(all.code, all.stderr).toBe(0)
    const [header, ...rows] = rowsOf(all.stdout)
    expect(header).toMatch(/^merchantId,/)
    expect(rows.map((r) => r.split(',')[0]).sort()).toEqual([...built.merchantIds].sort())

    const failing = built.merchantIds[2]
    await marketplace.json('emulator', 'faults', '--add', '500', '--path', `/merchants/${failing}/balances`)
    const some = await marketplace.payfac('merchants', 'balances', '--each-merchant', '--csv', '--concurrency', '2')
    await marketplace.json('emulator', 'faults', '--clear')
    expect(some.code).toBe(6)
    expect(
      rowsOf(some.stdout)
        .slice(1)
        .map((r) => r.split(',')[0])
        .sort(),
    ).toEqual(built.merchantIds.filter((id: string) => id !== failing).sort())
    expect(some.stderr).toContain(`Merchant ${failing} failed: `)

    const listed = await marketplace.json('transactions', 'list', '--merchants', `${built.merchantIds[1]},${built.merchantIds[0]}`, '--limit', '500')
    const order = listed.map((t: { merchantId: string }) => t.merchantId)
    expect(new Set(order).size).toBe(2)
    expect(order.indexOf(built.merchantIds[0])).toBeGreaterThan(order.lastIndexOf(built.merchantIds[1]))
    expect(listed.every((t: any) => t.merchantId === t.purchaseDetails.merchantId)).toBe(true)
  })

  it('is a usage error with a merchant credential', async () => {
    const result = await payfac('payouts', 'list', '--each-merchant')
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/need a marketplace credential/)
    expect(ctx.emulator.url).toMatch(/^http/)
  })
})

describe('impossible or reversed ranges exit 2 and send nothing', () => {
  const recording = useRecordingServer(() => ({ status: 200, body: [], headers: { 'Page-Count': '0', 'Total-Record-Count': '0' } }), {
    credential: RECORDING_MARKETPLACE_KEY,
  })
  const cases: RefusalCase[] = [
    [
      'settlement report from February 30',
      ['settlement', 'report', '--currency', 'AUD', '--from', '2026-02-30', '--to', '2026-03-31'],
      /2026-02-30 is not a day of the calendar/,
    ],
    [
      'settlement list to February 29 of a common year',
      ['settlement', 'list', '--currency', 'AUD', '--from', '2026-02-01', '--to', '2026-02-29T00:00:00Z'],
      /not a day of the calendar/,
    ],
    ['settlement list with a reversed range', ['settlement', 'list', '--currency', 'AUD', '--from', '2026-12-01', '--to', '2026-11-01'], /reversed or empty/],
    ['settlement report with an empty range', ['settlement', 'report', '--currency', 'AUD', '--from', '2026-11-01', '--to', '2026-11-01'], /reversed or empty/],
    ['reconcile with a reversed range', ['settlement', 'reconcile', '--currency', 'AUD', '--from', '2026-12-01', '--to', '2026-11-01'], /reversed/],
    ['reconcile on February 30', ['settlement', 'reconcile', '--currency', 'AUD', '--from', '2026-02-30', '--to', '2026-03-01'], /not a day of the calendar/],
    ['reconcile without a currency', ['settlement', 'reconcile', '--last', '30d'], /--currency/],
    [
      'reconcile with --last and --from',
      ['settlement', 'reconcile', '--currency', 'AUD', '--last', '7d', '--from', '2026-11-01'],
      /--last|cannot also be provided/,
    ],
    ['a bad --last', ['settlement', 'list', '--currency', 'AUD', '--last', '7 days'], /--last takes a period/],
    ['a ledger without its columns', ['settlement', 'reconcile', '--currency', 'AUD', '--last', '7d', '--ledger', 'books.csv'], /--ledger-columns/],
    [
      'ledger columns without a reference',
      ['settlement', 'reconcile', '--currency', 'AUD', '--last', '7d', '--ledger', 'b.csv', '--ledger-columns', 'amount=A,currency=C'],
      /misses reference/,
    ],
    [
      'a ledger with the fan-out',
      [
        'settlement',
        'reconcile',
        '--currency',
        'AUD',
        '--last',
        '7d',
        '--ledger',
        'b.csv',
        '--ledger-columns',
        'reference=R,amount=A,currency=C',
        '--each-merchant',
      ],
      /cannot be split by merchant/,
    ],
    ['--merchants with an id without its prefix', ['merchants', 'balances', '--merchants', 'mcht_LocalMerchant001,LocalSub'], /mcht_/],
  ]
  itRefusesBeforeSending(cases, recording)
})
