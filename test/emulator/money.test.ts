// The money side of /transactions over HTTP: payouts, invoices and their PDF, settlement entries
// and the report, disputes, refunds; and a flow checking that ledger, balances, payouts, report and
// invoices agree to the cent.
import { describe, expect, it } from 'vitest'
import { KEYS, MERCHANT, SUB_MERCHANT } from './helpers.js'
import { asMarketplace, expectError, payOverHttp, startHttp, unanswered, useHttpEmulator, type HttpEmulator } from './money-http.js'
import { routesUnder } from './contract-routes.js'

const http = useHttpEmulator()

const WIDE = 'currency=AUD&createdAfter=2000-01-01T00:00:00Z&createdBefore=2100-01-01T00:00:00Z'
const sum = (values: number[]) => values.reduce((s, v) => s + v, 0)

async function allEntries(h: HttpEmulator, query: string, options = {}): Promise<any[]> {
  return h.ok('GET', `/transactions/settlement?${query}&limit=500&sort=createdAt`, options)
}

async function balanceOf(h: HttpEmulator, merchantId: string, options = {}) {
  const body = await h.ok('GET', `/merchants/${merchantId}/balances`, options)
  return body.balances.find((b: { currency: string }) => b.currency === 'AUD')
}

describe('money adds up', () => {
  it('pays, refunds partly, takes a bank transfer, transfers, disputes and pays out, and every view agrees to the cent', async () => {
    const h = await startHttp('2025-05-05T09:00:00.000Z')
    try {
      const t1 = await payOverHttp(h, 10_000, { reference: 'A-1' })
      const t2 = await payOverHttp(h, 25_050, { reference: 'A-2' })
      const t3 = await payOverHttp(h, 7_777, { reference: 'A-3' })
      await h.ok('PATCH', `/transactions/${t1}`, { body: { CreateRefund: { refundAmount: 2_500 } } })
      await h.ok('PATCH', `/transactions/${t2}`, { body: { CreateRefund: { refundAmount: 50 } } })
      await h.ok('PATCH', `/transactions/${t2}`, { body: { CreateRefund: { refundAmount: 1_000 } } })
      await h.simulate({ IncomingBankTransfer: { merchantId: MERCHANT, amount: { minorCurrencyUnits: 5_000, currency: 'AUD' } } })
      await h.ok('PATCH', `/transactions/${t3}`, { ...asMarketplace, body: { TransferFunds: { amount: 1_000, destinationMerchantId: SUB_MERCHANT } } })
      await h.simulate({ AdvanceClock: { seconds: 3 * 86_400 } })
      await h.simulate({ OpenDispute: { transactionId: t3, amount: 777, reason: 'Not received' } })

      const payout1 = await h.ok('POST', '/transactions/payouts', { body: { amount: { minorCurrencyUnits: 20_000, currency: 'AUD' } } })
      await payOverHttp(h, 3_000, { reference: 'A-4' })
      const payout2 = await h.ok('POST', '/transactions/payouts', { body: {} })

      // Balances are the sum of the ledger; available is what is available by today.
      const entries = await allEntries(h, `${WIDE}&merchantId=${MERCHANT}`)
      const balance = await balanceOf(h, MERCHANT)
      const today = (await h.simulate({ AdvanceClock: { seconds: 0.001 } })).now.slice(0, 10)
      expect(balance.total.minorCurrencyUnits).toBe(sum(entries.map((e) => e.amount.minorCurrencyUnits)))
      expect(balance.available.minorCurrencyUnits).toBe(sum(entries.filter((e) => e.availableOn <= today).map((e) => e.amount.minorCurrencyUnits)))
      // Everything available was paid out by the second payout; only the last payment waits.
      expect(balance.available.minorCurrencyUnits).toBe(0)
      expect(balance.pending.minorCurrencyUnits).toBe(3_000)

      // The report's summary totals equal the balances.
      const report = await h.ok('GET', `/transactions/settlement/report?${WIDE}&merchantId=${MERCHANT}`)
      expect(report.entries).toHaveLength(entries.length)
      expect(report.summary.net).toEqual({ minorCurrencyUnits: balance.total.minorCurrencyUnits, currency: 'AUD' })
      expect(report.summary.totalCredits.minorCurrencyUnits + report.summary.totalDebits.minorCurrencyUnits).toBe(report.summary.net.minorCurrencyUnits)
      expect(sum(report.summary.byType.map((t: { amount: { minorCurrencyUnits: number } }) => t.amount.minorCurrencyUnits))).toBe(
        balance.total.minorCurrencyUnits,
      )
      const typeTotal = (type: string) => report.summary.byType.find((t: { type: string }) => t.type === type)?.amount.minorCurrencyUnits
      expect(typeTotal('Payment')).toBe(10_000 + 25_050 + 7_777 + 3_000)
      expect(typeTotal('Refund')).toBe(-3_550)
      expect(typeTotal('BankTransfer')).toBe(5_000)
      expect(typeTotal('Transfer')).toBe(-1_000)
      expect(typeTotal('DisputeDebit')).toBe(-777)
      expect(typeTotal('Payout')).toBe(-(20_000 + payout2.amount.minorCurrencyUnits))
      const csv = await h.call('GET', `/transactions/settlement/report?${WIDE}&merchantId=${MERCHANT}`, { accept: 'text/csv' })
      const rows = (csv.body as string).trim().split('\r\n')
      expect(rows).toHaveLength(entries.length + 1)
      expect(sum(rows.slice(1).map((r) => Number(r.split(',')[5])))).toBe(balance.total.minorCurrencyUnits)

      // Each payout: brought forward + swept entries − carried forward = amount; the second brings forward what the first left.
      for (const p of [payout1, payout2]) {
        const detail = await h.ok('GET', `/transactions/payouts/${p.payoutId}`)
        const swept = sum(detail.breakdown.entries.map((t: { amount: { minorCurrencyUnits: number } }) => t.amount.minorCurrencyUnits))
        expect(detail.breakdown.broughtForward.minorCurrencyUnits + swept - detail.breakdown.carriedForward.minorCurrencyUnits).toBe(
          detail.amount.minorCurrencyUnits,
        )
        const ofPayout = await allEntries(h, `payoutId=${p.payoutId}`)
        expect(sum(ofPayout.filter((e) => e.type !== 'Payout').map((e) => e.amount.minorCurrencyUnits))).toBe(swept)
        expect(ofPayout.filter((e) => e.type === 'Payout').map((e) => e.amount.minorCurrencyUnits)).toEqual([-detail.amount.minorCurrencyUnits])
        expect(ofPayout.filter((e) => e.type !== 'Payout')).toHaveLength(detail.breakdown.entryCount)
      }
      const d1 = await h.ok('GET', `/transactions/payouts/${payout1.payoutId}`)
      const d2 = await h.ok('GET', `/transactions/payouts/${payout2.payoutId}`)
      expect(d1.breakdown.broughtForward.minorCurrencyUnits).toBe(0)
      expect(d2.breakdown.broughtForward).toEqual(d1.breakdown.carriedForward)
      expect(d2.breakdown.carriedForward.minorCurrencyUnits).toBe(0)

      // Invoices: their totals are the service fees the ledger took.
      const fees = -sum(entries.filter((e) => e.type === 'ServiceFee').map((e) => e.amount.minorCurrencyUnits))
      const invoices = await h.ok('GET', '/transactions/invoices')
      expect(invoices).toHaveLength(1)
      expect(invoices[0].totalAmount).toEqual({ minorCurrencyUnits: fees, currency: 'AUD' })
      const invoice = await h.ok('GET', `/transactions/invoices/${invoices[0].invoiceId}`)
      expect(invoice.lines).toHaveLength(4)
      expect(invoice.breakdown.subtotalAmount.minorCurrencyUnits + invoice.breakdown.taxAmount.minorCurrencyUnits).toBe(fees)

      // The sub-merchant got the transfer.
      const sub = await balanceOf(h, SUB_MERCHANT, asMarketplace)
      expect(sub.total.minorCurrencyUnits).toBe(1_000)
    } finally {
      await h.close()
    }
  })
})

describe('payouts', () => {
  it('refuses without manual payouts enabled (409), beyond the available balance (422), and for a marketplace without Merchant-Id (400)', async () => {
    expectError(
      await http.call('POST', '/transactions/payouts', { ...asMarketplace, headers: { 'Merchant-Id': SUB_MERCHANT }, body: {} }),
      409,
      'manual_payouts_disabled',
    )
    const tooMuch = await http.call('POST', '/transactions/payouts', { body: { amount: { minorCurrencyUnits: 99_999_999, currency: 'AUD' } } })
    expectError(tooMuch, 422, 'insufficient_balance')
    expect(tooMuch.body.metadata.available).toMatchObject({ currency: 'AUD' })
    expectError(await http.call('POST', '/transactions/payouts', { body: {} }), 422, 'insufficient_balance')
    expectError(await http.call('POST', '/transactions/payouts', { ...asMarketplace, body: {} }), 400, 'merchant_context_required')
    expectError(await http.call('POST', '/transactions/payouts', { body: { amount: { minorCurrencyUnits: 0, currency: 'AUD' } } }), 422, 'invalid_amount')
    // An unknown field is accepted and reported (lenient by default); the payout is still judged on its own rules.
    const unknown = await http.call('POST', '/transactions/payouts', { body: { colour: 'red' } })
    expectError(unknown, 422, 'insufficient_balance')
    expect(unknown.headers.get('emulator-warning')).toContain('"colour"')
  })

  it('pays out, lists, shows the breakdown and bank details, and becomes Paid by simulation', async () => {
    await payOverHttp(http, 5_000)
    await http.simulate({ AdvanceClock: { seconds: 2 * 86_400 } })
    const payout = await http.ok('POST', '/transactions/payouts', { body: { amount: { minorCurrencyUnits: 1_234, currency: 'AUD' }, description: 'Weekly' } })
    expect(payout).toMatchObject({
      payoutId: expect.stringMatching(/^payout_[A-Za-z0-9_-]{16}$/),
      merchantId: MERCHANT,
      payoutType: 'Manual',
      status: 'Pending',
      amount: { minorCurrencyUnits: 1_234, currency: 'AUD' },
      description: 'Weekly',
      bankAccount: { bankAccountId: 'bank_LocalMerchBank01', bsb: '062-000', accountNumberHint: '****5678' },
      disbursement: { method: 'BankTransfer', bsb: '062-000', accountNumberHint: '****5678', paidAt: null },
    })
    const detail = await http.ok('GET', `/transactions/payouts/${payout.payoutId}`)
    expect(detail.breakdown).toMatchObject({ broughtForward: { minorCurrencyUnits: 0 }, total: payout.amount, entries: expect.any(Array) })
    expect(detail.breakdown.carriedForward.minorCurrencyUnits).toBeGreaterThan(0)
    const list = await http.call('GET', '/transactions/payouts?status=Pending')
    expect(list.headers.get('total-record-count')).toBe('1')
    expect(list.body[0].payoutId).toBe(payout.payoutId)
    expect(await http.ok('GET', `/transactions/payouts?merchantId=${SUB_MERCHANT}`, asMarketplace)).toEqual([])

    const paid = await http.simulate({ SettlePayout: { payoutId: payout.payoutId } })
    expect(paid).toMatchObject({ status: 'Paid', paidAt: expect.any(String) })
    expect(http.emulator.app.store.events.some((e) => e.webhookEventType === 'PayoutPaid' && (e.event as any).payout.payoutId === payout.payoutId)).toBe(true)
    expectError(await http.call('POST', '/simulation', { body: { SettlePayout: { payoutId: payout.payoutId } } }), 409, 'payout_already_paid')
    expectError(await http.call('GET', '/transactions/payouts/payout_doesNotExist00'), 404, 'not_found')
  })

  it('runs scheduled payouts for merchants without manual payouts', async () => {
    await payOverHttp(http, 4_000, { credential: KEYS.marketplaceApiKey, headers: { 'Merchant-Id': SUB_MERCHANT } })
    await http.simulate({ AdvanceClock: { seconds: 2 * 86_400 } })
    const run = await http.simulate({ RunScheduledPayouts: {} }, asMarketplace)
    expect(run.payouts.map((p: { merchantId: string; payoutType: string }) => [p.merchantId, p.payoutType])).toEqual([[SUB_MERCHANT, 'Scheduled']])
    expect((await balanceOf(http, SUB_MERCHANT, asMarketplace)).available.minorCurrencyUnits).toBe(0)
    expect((await http.simulate({ RunScheduledPayouts: {} }, asMarketplace)).payouts).toEqual([])
  })
})

describe('settlement', () => {
  it('refuses a query without payoutId unless currency, createdAfter and createdBefore are all given (400)', async () => {
    for (const path of ['/transactions/settlement', '/transactions/settlement/report']) {
      for (const query of ['', 'currency=AUD', 'currency=AUD&createdAfter=2025-01-01', 'createdAfter=2025-01-01&createdBefore=2026-01-01']) {
        const answer = await http.call('GET', `${path}?${query}`)
        expectError(answer, 400, 'settlement_filter_required')
      }
    }
    expect((await http.call('GET', '/transactions/settlement?currency=AUD&createdAfter=2025-01-01&createdBefore=2026-01-01')).status).toBe(200)
    expect(await http.ok('GET', '/transactions/settlement?payoutId=payout_doesNotExist00')).toEqual([])
  })

  it('pages settlement entries with the totals in headers', async () => {
    const page = await http.call('GET', `/transactions/settlement?${WIDE}&limit=2&page=1&sort=createdAt`)
    expect(page.status).toBe(200)
    expect(page.body).toHaveLength(2)
    expect(Number(page.headers.get('page-count'))).toBe(Math.ceil(Number(page.headers.get('total-record-count')) / 2))
    expect(page.body[0]).toMatchObject({
      settlementEntryId: expect.stringMatching(/^stl_/),
      merchantId: MERCHANT,
      type: expect.any(String),
      availableOn: expect.any(String),
    })
    expect(await http.ok('GET', `/transactions/settlement?${WIDE}&type=BankTransfer`)).toEqual([])
  })

  it('answers the report as JSON or CSV by Accept, and 406 for anything else', async () => {
    const json = await http.ok('GET', `/transactions/settlement/report?${WIDE}`)
    expect(json.summary).toMatchObject({ currency: 'AUD', entryCount: json.entries.length, byType: expect.any(Array), byMerchant: expect.any(Array) })
    const csv = await http.call('GET', `/transactions/settlement/report?${WIDE}`, { accept: 'text/csv' })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    expect((csv.body as string).split('\r\n')[0]).toBe(
      'settlementEntryId,createdAt,availableOn,merchantId,type,amountMinorUnits,amount,currency,transactionId,orderId,refundId,payoutId,description',
    )
    expectError(await http.call('GET', `/transactions/settlement/report?${WIDE}`, { accept: 'text/html' }), 406, 'not_acceptable')
  })
})

describe('invoices', () => {
  it('lists one invoice per merchant and month, shows lines and billing details, and becomes Issued after the month', async () => {
    const [invoice] = await http.ok('GET', '/transactions/invoices')
    expect(invoice).toMatchObject({
      invoiceId: expect.stringMatching(/^inv_[A-Za-z0-9_-]{16}$/),
      merchantId: MERCHANT,
      period: '2025-03',
      status: 'Open',
      issuedOn: null,
    })
    const detail = await http.ok('GET', `/transactions/invoices/${invoice.invoiceId}`)
    expect(detail.billingDetails).toMatchObject({ merchantId: MERCHANT, name: 'Local Merchant Pty Ltd' })
    expect(detail.lines[0]).toMatchObject({ transactionId: expect.stringMatching(/^tran_/), amount: { currency: 'AUD' } })
    expect(sum(detail.lines.map((l: { amount: { minorCurrencyUnits: number } }) => l.amount.minorCurrencyUnits))).toBe(detail.totalAmount.minorCurrencyUnits)
    expectError(await http.call('GET', '/transactions/invoices/inv_doesNotExist0000'), 404, 'not_found')
    expect(await http.ok('GET', `/transactions/invoices?merchantId=${SUB_MERCHANT}`, asMarketplace)).toHaveLength(1)
    expect(await http.ok('GET', '/transactions/invoices?status=Issued')).toEqual([])
  })

  it('renders a real PDF: header, objects, a cross-reference table whose offsets are right, trailer, %%EOF', async () => {
    const [invoice] = await http.ok('GET', '/transactions/invoices')
    const detail = await http.ok('GET', `/transactions/invoices/${invoice.invoiceId}`)
    const answer = await http.call('GET', `/transactions/invoices/${invoice.invoiceId}/pdf`, { accept: 'application/pdf' })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/pdf')
    const pdf = answer.bytes.toString('latin1')
    expect(pdf.startsWith('%PDF-1.4')).toBe(true)
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true)
    const startxref = Number(/startxref\n(\d+)\n%%EOF/.exec(pdf)?.[1])
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref')
    const offsets = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]))
    expect(offsets.length).toBeGreaterThanOrEqual(7)
    offsets.forEach((offset, i) => {
      expect(pdf.slice(offset, offset + 10)).toMatch(new RegExp(`^${i + 1} 0 obj`))
    })
    expect(pdf).toMatch(/trailer\n<< \/Size \d+ \/Root 1 0 R/)
    expect(pdf).toContain(`(Invoice ${invoice.invoiceId})`)
    for (const line of detail.lines) expect(pdf).toContain(line.transactionId)
    expectError(await http.call('GET', `/transactions/invoices/${invoice.invoiceId}/pdf`, { accept: 'text/csv' }), 406, 'not_acceptable')
  })

  it('is Issued once its month is over', async () => {
    await http.simulate({ AdvanceClock: { seconds: 25 * 86_400 } })
    const [invoice] = await http.ok('GET', '/transactions/invoices?period=2025-03')
    expect(invoice).toMatchObject({ status: 'Issued', issuedOn: '2025-04-01' })
  })
})

describe('disputes', () => {
  it('are opened by simulation, debit the merchant, mark the transaction, and can be won back', async () => {
    const txn = await payOverHttp(http, 6_000, { reference: 'D-1' })
    const dispute = await http.simulate({ OpenDispute: { transactionId: txn, amount: 2_000, reason: 'Fraudulent' } })
    expect(dispute).toMatchObject({
      disputeId: expect.stringMatching(/^dispute_[A-Za-z0-9_-]{16}$/),
      transactionId: txn,
      status: 'Open',
      amount: { minorCurrencyUnits: 2_000, currency: 'AUD' },
    })
    const details = await http.ok('GET', `/transactions/${txn}`)
    expect(details.purchaseDetails).toMatchObject({ status: 'disputed', disputeId: dispute.disputeId, disputeIds: [dispute.disputeId] })
    expectError(await http.call('PATCH', `/transactions/${txn}`, { body: { CreateRefund: { refundAmount: 100 } } }), 409)
    expectError(await http.call('POST', '/simulation', { body: { OpenDispute: { transactionId: txn, amount: 4_001 } } }), 422, 'dispute_exceeds_disputable')

    const listed = await http.call('GET', `/transactions/disputes?transactionId=${txn}`)
    expect(listed.body.map((d: { disputeId: string }) => d.disputeId)).toEqual([dispute.disputeId])
    expect(listed.headers.get('total-record-count')).toBe('1')
    expect(await http.ok('GET', '/transactions/disputes?status=Won')).toEqual([])

    const won = await http.simulate({ ResolveDispute: { disputeId: dispute.disputeId, outcome: 'Won' } })
    expect(won).toMatchObject({ status: 'Won', resolvedAt: expect.any(String) })
    expect((await http.ok('GET', `/transactions/${txn}`)).purchaseDetails.status).toBe('paid')
    const ledger = await allEntries(http, `${WIDE}&transactionId=${txn}`)
    expect(ledger.filter((e) => e.type.startsWith('Dispute')).map((e) => [e.type, e.amount.minorCurrencyUnits])).toEqual([
      ['DisputeDebit', -2_000],
      ['DisputeCredit', 2_000],
    ])
    expectError(
      await http.call('POST', '/simulation', { body: { ResolveDispute: { disputeId: dispute.disputeId, outcome: 'Lost' } } }),
      409,
      'dispute_not_open',
    )
  })

  it('refuses a fully refunded transaction (409) and unknown transactions (404)', async () => {
    const txn = await payOverHttp(http, 1_500)
    await http.ok('PATCH', `/transactions/${txn}`, { body: { CreateRefund: { refundAmount: 1_500 } } })
    expectError(await http.call('POST', '/simulation', { body: { OpenDispute: { transactionId: txn } } }), 409, 'transaction_not_disputable')
    expectError(await http.call('POST', '/simulation', { body: { OpenDispute: { transactionId: 'tran_doesNotExist000' } } }), 404, 'not_found')
  })
})

describe('refunds', () => {
  it('lists refund records with the filters of real integrations, the last 30 days by default', async () => {
    const txn = await payOverHttp(http, 8_800, { reference: 'R-77' })
    await http.ok('PATCH', `/transactions/${txn}`, { body: { CreateRefund: { refundAmount: 880 } } })
    const [refund] = await http.ok('GET', `/transactions/refunds?transactionId=${txn}`)
    expect(refund).toMatchObject({
      refundId: expect.stringMatching(/^rfnd_/),
      transactionId: txn,
      transactionAmount: { minorCurrencyUnits: 8_800, currency: 'AUD' },
      orderId: expect.stringMatching(/^ordr_/),
      referenceOrderId: 'R-77',
      description: expect.any(String),
      amount: { minorCurrencyUnits: 880, currency: 'AUD' },
      merchantId: MERCHANT,
      createdAt: expect.any(String),
    })
    const ids = async (query: string, options = {}) =>
      (await http.ok('GET', `/transactions/refunds?${query}`, options)).map((r: { refundId: string }) => r.refundId)
    expect(await ids('amount=880')).toEqual([refund.refundId])
    expect(await ids('referenceOrderId=R-77')).toEqual([refund.refundId])
    expect(await ids(`orderId=${refund.orderId}`)).toEqual([refund.refundId])
    expect(await ids(`merchantId=${MERCHANT}&amount=880`)).toEqual([refund.refundId])
    expect(await ids('amount=881')).toEqual([])
    expect(await ids(`merchantId=${SUB_MERCHANT}`, asMarketplace)).toEqual([])
    expectError(await http.call('GET', '/transactions/refunds?amount=ten'), 400, 'invalid_query')

    await http.simulate({ AdvanceClock: { seconds: 31 * 86_400 } })
    expect(await ids('amount=880')).toEqual([])
    expect(await ids('amount=880&createdAfter=2025-01-01')).toEqual([refund.refundId])
    expect(await ids('amount=880&createdAfter=2025-01-01&createdBefore=2025-03-01')).toEqual([])
  })
})

describe('coverage', () => {
  it('answered 2xx over HTTP on every money operation', () => {
    const keys = routesUnder('/transactions/payouts', '/transactions/invoices', '/transactions/settlement', '/transactions/disputes', '/transactions/refunds')
    expect(unanswered(http, keys)).toEqual([])
  })
})
