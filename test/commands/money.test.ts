// Payouts, invoices, settlement, disputes and refunds against the emulator (each answer as JSON
// and as a table), and the checks that refuse bad input before anything is sent.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer, useTempDir } from '../helpers/command-harness.js'
import { paidByPayTo } from '../helpers/flows.js'

const { ctx, payfac, json, marketplace } = useEmulator()
const asMarketplace = marketplace.payfac
const dir = useTempDir('payfac-money-')
const today = () => new Date().toISOString().slice(0, 10)
const range = ['--currency', 'AUD', '--from', '2025-06-01', '--to', '2099-01-01']
/** A PayTo payment of `amount` AUD, made with commands only. */
const payByPayTo = (amount: string) => paidByPayTo(json, amount, 'money')

describe('refunds list', () => {
  it('lists refunds by transaction, order, reference, amount and merchant filter', async () => {
    const { transactionId, orderId, reference } = await payByPayTo('12.50')
    const refunded = await json('transactions', 'refund', transactionId, '--amount', '2.25')
    const [refundId] = refunded.purchaseDetails.refundIds

    const byTransaction = await json('refunds', 'list', '--transaction-id', transactionId)
    expect(byTransaction).toHaveLength(1)
    expect(byTransaction[0]).toMatchObject({ refundId, transactionId, orderId, transactionAmount: { minorCurrencyUnits: 1250, currency: 'AUD' } })
    expect((await json('refunds', 'list', '--order-id', orderId)).map((r: { refundId: string }) => r.refundId)).toEqual([refundId])
    expect((await json('refunds', 'list', '--reference', reference)).map((r: { refundId: string }) => r.refundId)).toEqual([refundId])
    expect((await json('refunds', 'list', '--amount', '2.25', '--currency', 'AUD')).map((r: { refundId: string }) => r.refundId)).toContain(refundId)
    expect(await json('refunds', 'list', '--transaction-id', transactionId, '--created-before', '2025-01-02')).toEqual([])

    const mine = await asMarketplace('refunds', 'list', '--merchant', ctx.emulator.ids.merchantId, '--transaction-id', transactionId, '--json')
    expect(mine.code, mine.stderr).toBe(0)
    expect(JSON.parse(mine.stdout)).toHaveLength(1)
    const theirs = await asMarketplace('refunds', 'list', '--merchant', ctx.emulator.ids.subMerchantId, '--transaction-id', transactionId, '--json')
    expect(JSON.parse(theirs.stdout)).toEqual([])

    const table = await payfac('refunds', 'list', '--transaction-id', transactionId)
    expect(table.code).toBe(0)
    expect(table.stdout).toContain(refundId)
    expect(table.stdout).toContain('2.25 AUD')
    expect(table.stdout).toContain('12.50 AUD')
  })
})

describe('settlement', () => {
  it('lists entries of a currency and period, and prints the report as a table, JSON and CSV', async () => {
    const { transactionId } = await payByPayTo('24.70')
    const entries = await json('settlement', 'list', ...range, '--transaction-id', transactionId)
    expect(entries.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['Payment', 'ServiceFee']))
    const payment = entries.find((e: { type: string }) => e.type === 'Payment')
    expect(payment.amount).toEqual({ minorCurrencyUnits: 2470, currency: 'AUD' })

    const onlyPayments = await json('settlement', 'list', ...range, '--type', 'Payment', '--transaction-id', transactionId)
    expect(onlyPayments).toHaveLength(1)

    const listTable = await payfac('settlement', 'list', ...range, '--transaction-id', transactionId)
    expect(listTable.code).toBe(0)
    expect(listTable.stdout).toContain('24.70 AUD')

    const report = await json('settlement', 'report', ...range, '--transaction-id', transactionId)
    expect(report.entries).toHaveLength(entries.length)
    expect(report.summary).toMatchObject({ currency: 'AUD', entryCount: entries.length, totalCredits: { minorCurrencyUnits: 2470, currency: 'AUD' } })

    const table = await payfac('settlement', 'report', ...range, '--transaction-id', transactionId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(payment.settlementEntryId)
    expect(table.stdout).toMatch(/Credits\s+24\.70 AUD/)
    expect(table.stdout).toMatch(/By type\s+Payment 1 × 24\.70 AUD/)

    const csv = await payfac('settlement', 'report', ...range, '--transaction-id', transactionId, '--csv')
    expect(csv.code, csv.stderr).toBe(0)
    const lines = csv.stdout.trim().split(/\r?\n/)
    expect(lines[0]).toContain('settlementEntryId')
    expect(lines).toHaveLength(entries.length + 1)
    expect(csv.stdout).toContain(payment.settlementEntryId)
  })

  it('saves the report atomically with --out: CSV with --csv, JSON otherwise', async () => {
    await payByPayTo('3.00')
    const csvFile = join(dir(), 'report.csv')
    const savedCsv = await payfac('settlement', 'report', ...range, '--csv', '--out', csvFile)
    expect(savedCsv.code, savedCsv.stderr).toBe(0)
    expect(savedCsv.stdout).toBe('')
    const csvText = readFileSync(csvFile, 'utf8')
    expect(savedCsv.stderr).toContain(`Saved ${Buffer.byteLength(csvText)} bytes to ${csvFile}`)
    expect(csvText.split(/\r?\n/)[0]).toContain('settlementEntryId')

    const jsonFile = join(dir(), 'report.json')
    const savedJson = await payfac('settlement', 'report', ...range, '--out', jsonFile)
    expect(savedJson.code, savedJson.stderr).toBe(0)
    const saved = JSON.parse(readFileSync(jsonFile, 'utf8'))
    expect(saved).toHaveProperty('entries')
    expect(saved).toHaveProperty('summary')
    expect(readdirSync(dir()).filter((name) => name.endsWith('.part'))).toEqual([])

    const missingFolder = await payfac('settlement', 'report', ...range, '--csv', '--out', join(dir(), 'no-such-folder', 'r.csv'))
    expect(missingFolder.code).toBe(2)
  })
})

describe('payouts', () => {
  it('checks first and does not send a payout without balance, or one for a merchant without manual payouts (exit 6)', async () => {
    const sent = () =>
      ctx.emulator.app.namespaces.root.requests.last(1000).filter((r) => r.method === 'POST' && r.url.startsWith('/transactions/payouts')).length
    const before = sent()
    const tooMuch = await payfac('payouts', 'request', '--amount', '100000', '--currency', 'AUD')
    expect(tooMuch.code).toBe(6)
    expect(tooMuch.stderr).toMatch(/Payout not sent: the available balance is -?[\d.]+ AUD, less than the 100000.00 AUD asked for/)

    const disabled = await asMarketplace('payouts', 'request', '--merchant-id', ctx.emulator.ids.subMerchantId, '--amount', '1', '--currency', 'AUD')
    expect(disabled.code).toBe(6)
    expect(disabled.stderr).toMatch(/Payout not sent: manual payouts are not enabled for mcht_LocalSubMerch001/)
    expect(sent()).toBe(before)
  })

  it('pays out available funds and shows the payout, its list and its settlement entries', async () => {
    await json(
      'api',
      'POST',
      '/simulation',
      '--data',
      JSON.stringify({ IncomingBankTransfer: { merchantId: ctx.emulator.ids.merchantId, amount: { minorCurrencyUnits: 50000, currency: 'AUD' } } }),
    )
    const payout = await json('payouts', 'request', '--amount', '250', '--currency', 'AUD', '--description', 'Weekly sweep')
    expect(payout).toMatchObject({
      payoutType: 'Manual',
      status: 'Pending',
      amount: { minorCurrencyUnits: 25000, currency: 'AUD' },
      description: 'Weekly sweep',
    })
    expect(payout.payoutId).toMatch(/^payout_/)

    const table = await payfac('payouts', 'get', payout.payoutId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('250.00 AUD')
    expect(table.stdout).toContain('062-000')

    const listed = await json('payouts', 'list', '--type', 'Manual', '--status', 'Pending')
    expect(listed.map((p: { payoutId: string }) => p.payoutId)).toContain(payout.payoutId)
    const listTable = await payfac('payouts', 'list')
    expect(listTable.stdout).toContain(payout.payoutId)

    const swept = await json('settlement', 'list', '--payout', payout.payoutId)
    expect(swept.length).toBeGreaterThan(0)
    expect(swept.every((e: { payoutId: string }) => e.payoutId === payout.payoutId)).toBe(true)
  })
})

describe('invoices', () => {
  it('lists and shows the service-fee invoice, and downloads its PDF', async () => {
    await payByPayTo('10.00')
    const invoices = await json('invoices', 'list', '--period', today().slice(0, 7))
    expect(invoices.length).toBeGreaterThan(0)
    const invoice = invoices[0]
    expect(invoice.invoiceId).toMatch(/^inv_/)

    const got = await json('invoices', 'get', invoice.invoiceId)
    expect(got).toMatchObject({ invoiceId: invoice.invoiceId, currency: 'AUD' })
    const table = await payfac('invoices', 'get', invoice.invoiceId)
    expect(table.code).toBe(0)
    expect(table.stdout).toContain(invoice.invoiceId)
    expect(table.stdout).toMatch(/Total\s+\d+\.\d\d AUD/)

    const file = join(dir(), 'invoice.pdf')
    const saved = await payfac('invoices', 'pdf', invoice.invoiceId, '--out', file)
    expect(saved.code, saved.stderr).toBe(0)
    const bytes = readFileSync(file)
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(saved.stderr).toContain(`Saved ${bytes.length} bytes to ${file}`)

    const piped = await payfac('invoices', 'pdf', invoice.invoiceId)
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout.startsWith('%PDF-')).toBe(true)

    expect((await payfac('invoices', 'get', 'inv_NoSuchInvoice000')).code).toBe(5)
  })
})

describe('disputes', () => {
  it('lists a dispute opened on a transaction', async () => {
    const { transactionId } = await payByPayTo('8.00')
    await json('api', 'POST', '/simulation', '--data', JSON.stringify({ OpenDispute: { transactionId, reason: 'Fraudulent' } }))
    const disputes = await json('disputes', 'list', '--transaction-id', transactionId)
    expect(disputes).toHaveLength(1)
    expect(disputes[0]).toMatchObject({ transactionId, status: 'Open', amount: { minorCurrencyUnits: 800, currency: 'AUD' } })
    expect(disputes[0].disputeId).toMatch(/^dispute_/)

    const table = await payfac('disputes', 'list', '--status', 'Open')
    expect(table.code).toBe(0)
    expect(table.stdout).toContain(disputes[0].disputeId)
    expect(table.stdout).toContain('8.00 AUD')

    const transaction = await json('transactions', 'get', transactionId)
    expect(transaction.purchaseDetails.status).toBe('disputed')
  })
})

describe('bad input exits 2 and sends nothing', () => {
  const recording = useRecordingServer(() => ({ status: 200, body: [], headers: { 'Page-Count': '0', 'Total-Record-Count': '0' } }))
  const { cli, server } = recording

  const cases: RefusalCase[] = [
    [
      'settlement list with no selection',
      ['settlement', 'list'],
      /--payout, or by --currency and a range given as --last or as --from and --to \(missing --currency and a range\)/,
    ],
    ['settlement list without --to', ['settlement', 'list', '--currency', 'AUD', '--from', '2026-11-01'], /missing --to/],
    ['settlement list with a currency only', ['settlement', 'list', '--currency', 'AUD'], /--last or as --from and --to \(missing a range\)/],
    ['settlement report with no selection', ['settlement', 'report'], /--payout/],
    ['settlement report as CSV with no selection', ['settlement', 'report', '--csv', '--out', '/tmp/never-written.csv'], /--payout/],
    ['settlement with an unknown currency', ['settlement', 'report', '--currency', 'XYZ', '--from', '2026-11-01', '--to', '2026-12-01'], /Unknown currency/],
    ['settlement with a bad date', ['settlement', 'list', '--currency', 'AUD', '--from', '1 Nov', '--to', '2026-12-01'], /YYYY-MM-DD/],
    ['settlement with a bad transaction id', ['settlement', 'list', '--payout', 'payout_x', '--transaction-id', 'ordr_ZqCNoNcm_22WeZ-j'], /tran_/],
    ['a payout without an amount', ['payouts', 'request'], /--amount, or --available/],
    ['a payout with too many decimals', ['payouts', 'request', '--amount', '1.234', '--currency', 'AUD'], /decimal places/],
    ['a payout with --data and --amount', ['payouts', 'request', '--amount', '1', '--currency', 'AUD', '--data', '{}'], /--data|cannot also be provided/],
    ['an invoice period that is not a month', ['invoices', 'list', '--period', '2026-13'], /YYYY-MM/],
    ['refunds --amount without --currency', ['refunds', 'list', '--amount', '5'], /currency/],
    ['refunds with a merchant filter without its prefix', ['refunds', 'list', '--merchant', 'LocalMerchant'], /mcht_/],
    ['refunds with a bad transaction id', ['refunds', 'list', '--transaction-id', 'rfnd_ZqCNoNcm_22WeZ-j'], /tran_/],
    ['disputes with a bad order id', ['disputes', 'list', '--order-id', 'tran_ZqCNoNcm_22WeZ-j'], /ordr_/],
  ]

  itRefusesBeforeSending(cases, recording)

  it('sends the settlement query with its contract names, and asks for text/csv with --csv', async () => {
    const header = 'settlementEntryId,createdAt,type,amountMinorUnits,currency\r\n'
    server.respond(() => ({ status: 200, headers: { 'content-type': 'text/csv' }, body: header }))
    const result = await cli('settlement', 'report', '--currency', 'aud', '--from', '2026-11-01', '--to', '2026-12-01', '--csv')
    expect(result.code, result.stderr).toBe(0)
    const [request] = server.requests
    expect(request?.path).toBe('/transactions/settlement/report')
    expect(Object.fromEntries(request?.query ?? [])).toEqual({
      currency: 'AUD',
      createdAfter: '2026-11-01T00:00:00.000Z',
      createdBefore: '2026-12-01T00:00:00.000Z',
    })
    expect(request?.headers.accept).toContain('text/csv')
    expect(result.stdout).toBe(header)
  })

  it('sends --merchant-id of refunds list as a repeated filter, not as the Merchant-Id header', async () => {
    const result = await cli(
      'refunds',
      'list',
      '--merchant-id',
      'mcht_AAAAAAAAAAAAAAAA',
      '--merchant-id',
      'mcht_BBBBBBBBBBBBBBBB',
      '--amount',
      '5',
      '--currency',
      'AUD',
    )
    expect(result.code, result.stderr).toBe(0)
    const [request] = server.requests
    expect(request?.query.getAll('merchantId')).toEqual(['mcht_AAAAAAAAAAAAAAAA', 'mcht_BBBBBBBBBBBBBBBB'])
    expect(request?.query.get('amount')).toBe('500')
    expect(request?.headers['merchant-id']).toBeUndefined()
  })
})
