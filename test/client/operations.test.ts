// Every one of the contract's 80 operations, called through its client method, goes out with the
// right method and path (and body, where the method builds one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PayfacClient } from '../../src/client/index.js'
import { type MockService, mockService } from './mock-service.js'

const money = { minorCurrencyUnits: 1250, currency: 'AUD' }
const order = { orderId: 'ordr_1', amount: money }
const list = { body: [], headers: { 'page-count': '0', 'total-record-count': '0' } }

interface Row {
  op: string
  call: (c: PayfacClient) => Promise<unknown>
  reply?: { status?: number; body?: unknown; headers?: Record<string, string> }
  json?: unknown
}

const rows: Row[] = [
  // Authentication (5)
  {
    op: 'POST /auth/signin',
    call: (c) => c.auth.signIn({ SignInConsumer: { customerId: 'cust_1' } }),
    reply: { body: { customerId: 'cust_1', customToken: 'jwt' } },
    json: { SignInConsumer: { customerId: 'cust_1' } },
  },
  { op: 'GET /auth/servicetokens/st_1', call: (c) => c.auth.serviceTokens.get('st_1') },
  { op: 'GET /auth/servicetokens?marketplaceId=mktp_1', call: (c) => c.auth.serviceTokens.list({ marketplaceId: 'mktp_1' }), reply: list },
  {
    op: 'POST /auth/servicetokens',
    call: (c) => c.auth.serviceTokens.create({ CreateServiceToken: { name: 'ci' } }),
    json: { CreateServiceToken: { name: 'ci' } },
  },
  {
    op: 'PATCH /auth/servicetokens/st_1',
    call: (c) => c.auth.serviceTokens.update('st_1', { UpdateServiceToken: { revoke: true } }),
    json: { UpdateServiceToken: { revoke: true } },
  },
  // Customers (9)
  { op: 'GET /customers?emailAddress=a%40b.co', call: (c) => c.customers.list({ emailAddress: 'a@b.co' }), reply: list },
  {
    op: 'POST /customers',
    call: (c) => c.customers.upsert({ UpsertConsumerCustomer: { emailAddress: 'a@b.co' } }),
    reply: { body: { customerId: 'cust_1', merchantId: 'mcht_1' } },
    json: { UpsertConsumerCustomer: { emailAddress: 'a@b.co' } },
  },
  { op: 'GET /customers/cust_1', call: (c) => c.customers.get('cust_1') },
  { op: 'POST /customers/kyc', call: (c) => c.customers.kyc({ customerId: 'cust_1' }), json: { customerId: 'cust_1' } },
  { op: 'GET /customers/delegates', call: (c) => c.customers.delegates.list(), reply: list },
  { op: 'GET /customers/delegates/custd_1', call: (c) => c.customers.delegates.get('custd_1') },
  {
    op: 'PATCH /customers/delegates/custd_1',
    call: (c) => c.customers.delegates.update('custd_1', { LinkDelegateToCustomer: { customerId: 'cust_2' } }),
    json: { LinkDelegateToCustomer: { customerId: 'cust_2' } },
  },
  { op: 'POST /customers/delegates', call: (c) => c.customers.delegates.upsert({ emailAddress: 'd@b.co' }), json: { emailAddress: 'd@b.co' } },
  { op: 'DELETE /customers/delegates/custd_1', call: (c) => c.customers.delegates.delete('custd_1') },
  // Merchants (14)
  { op: 'GET /merchants', call: (c) => c.merchants.list(), reply: list },
  { op: 'POST /merchants', call: (c) => c.merchants.create({ businessName: 'Cafe' }), json: { businessName: 'Cafe' } },
  { op: 'GET /merchants/mcht_1', call: (c) => c.merchants.get('mcht_1') },
  {
    op: 'PATCH /merchants/mcht_1',
    call: (c) => c.merchants.update('mcht_1', { SetMerchantPrimaryBankAccount: { bankAccountId: 'ba_1' } }),
    json: { SetMerchantPrimaryBankAccount: { bankAccountId: 'ba_1' } },
  },
  { op: 'GET /merchants/mcht_1/balances', call: (c) => c.merchants.balances('mcht_1') },
  {
    op: 'POST /merchants/mcht_1/files',
    call: (c) => c.merchants.uploadFile('mcht_1', { content: new Uint8Array([1]), fileName: 'a.png', contentType: 'image/png' }),
  },
  { op: 'GET /merchants/mcht_1/files/file_1', call: (c) => c.merchants.getFile('mcht_1', 'file_1') },
  { op: 'GET /merchants/mcht_1/walletpay', call: (c) => c.merchants.walletpay('mcht_1'), reply: { body: ['shop.example.com'] } },
  { op: 'GET /merchants/mcht_1/owners', call: (c) => c.merchants.owners.list('mcht_1'), reply: { body: [{ ownerId: 'own_1' }] } },
  { op: 'POST /merchants/mcht_1/owners', call: (c) => c.merchants.owners.create('mcht_1', { givenName: 'Ada' }), json: { givenName: 'Ada' } },
  { op: 'GET /merchants/mcht_1/owners/own_1', call: (c) => c.merchants.owners.get('mcht_1', 'own_1') },
  { op: 'PUT /merchants/mcht_1/owners/own_1', call: (c) => c.merchants.owners.replace('mcht_1', 'own_1', { givenName: 'Ada' }), json: { givenName: 'Ada' } },
  { op: 'DELETE /merchants/mcht_1/owners/own_1', call: (c) => c.merchants.owners.delete('mcht_1', 'own_1') },
  { op: 'GET /merchants/industries', call: (c) => c.merchants.industries(), reply: { body: [{ code: '5812' }] } },
  // Payment sources (6)
  { op: 'GET /sources/psrc_1', call: (c) => c.sources.get('psrc_1'), reply: { body: { paymentSourceId: 'psrc_1' } } },
  { op: 'DELETE /sources/psrc_1', call: (c) => c.sources.delete('psrc_1') },
  {
    op: 'POST /sources',
    call: (c) => c.sources.create({ CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken: 'agr_1' } } } }),
    reply: { body: { paymentSourceId: 'psrc_1', usageScope: null, sourceMethod: { PayToMethodResp: { agreementUid: 'u', accountIdentifierHint: 'xx78' } } } },
    json: { CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken: 'agr_1' } } } },
  },
  { op: 'GET /sources', call: (c) => c.sources.list(), reply: list },
  { op: 'GET /sources/blockedcards', call: (c) => c.sources.blockedCards.list(), reply: list },
  { op: 'PATCH /sources/blockedcards/cb_1', call: (c) => c.sources.blockedCards.update('cb_1', { Unblock: {} }), json: { Unblock: {} } },
  // Payment tokens (3)
  {
    op: 'POST /tokens',
    call: (c) => c.tokens.create({ CreatePayToToken: { amount: money, agreementToken: 'agr_1' } }),
    reply: { body: { PayToToken: { paymentTokenId: 'ptkn_1', amount: money } } },
    json: { CreatePayToToken: { amount: money, agreementToken: 'agr_1' } },
  },
  { op: 'GET /tokens/ptkn_1', call: (c) => c.tokens.get('ptkn_1') },
  { op: 'POST /tokens/mcht_1/surchargequote', call: (c) => c.tokens.surchargeQuote('mcht_1', { amount: money }), json: { amount: money } },
  // Pay plans (6)
  {
    op: 'POST /payplans/offer',
    call: (c) => c.payplans.offer({ amount: money, initialPayment: 0, payPlanVariant: 'payplan_4_weekly_payments' }),
    json: { amount: money, initialPayment: 0, payPlanVariant: 'payplan_4_weekly_payments' },
  },
  { op: 'GET /payplans', call: (c) => c.payplans.list(), reply: list },
  { op: 'POST /payplans', call: (c) => c.payplans.create({ offerId: 'off_1' }), json: { offerId: 'off_1' } },
  { op: 'GET /payplans/pp_1', call: (c) => c.payplans.get('pp_1') },
  { op: 'POST /payplans/max', call: (c) => c.payplans.max({ currency: 'AUD' }), json: { currency: 'AUD' } },
  { op: 'POST /payplans/parameters', call: (c) => c.payplans.parameters({ amount: money }), json: { amount: money } },
  // Orders (6)
  { op: 'GET /orders', call: (c) => c.orders.list(), reply: list },
  {
    op: 'POST /orders',
    call: (c) => c.orders.create({ CreateOnlineOrder: { amount: money } }),
    reply: { body: { OnlineOrder: { order } } },
    json: { CreateOnlineOrder: { amount: money } },
  },
  {
    op: 'POST /orders/ordr_1/pay',
    call: (c) => c.orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } }),
    reply: { body: { PayOrderComplete: { transactionId: 'tran_1', transactionStatus: 'paid' } } },
    json: { PayByPayTo: { paymentTokenId: 'ptkn_1' } },
  },
  { op: 'GET /orders/ordr_1', call: (c) => c.orders.get('ordr_1'), reply: { body: order } },
  { op: 'DELETE /orders/ordr_1', call: (c) => c.orders.cancel('ordr_1'), reply: { body: order } },
  {
    op: 'PATCH /orders/ordr_1',
    call: (c) => c.orders.setReference('ordr_1', 'inv-2'),
    reply: { body: order },
    json: { UpdateReferenceOrderId: { referenceOrderId: 'inv-2' } },
  },
  // Transactions (13)
  { op: 'GET /transactions/tran_1', call: (c) => c.transactions.get('tran_1'), reply: { body: { purchaseDetails: { transactionId: 'tran_1' } } } },
  { op: 'GET /transactions?orderId=ordr_1', call: (c) => c.transactions.list({ orderId: 'ordr_1' }), reply: list },
  {
    op: 'PATCH /transactions/tran_1',
    call: (c) => c.transactions.refund('tran_1', 1250),
    reply: { body: { purchaseDetails: { status: 'refunded', refundedAmount: 1250 } } },
    json: { CreateRefund: { refundAmount: 1250 } },
  },
  { op: 'POST /transactions/payouts', call: (c) => c.transactions.payouts.request({ amount: money }), json: { amount: money } },
  { op: 'GET /transactions/payouts', call: (c) => c.transactions.payouts.list(), reply: list },
  { op: 'GET /transactions/payouts/pay_1', call: (c) => c.transactions.payouts.get('pay_1') },
  { op: 'GET /transactions/invoices', call: (c) => c.transactions.invoices.list(), reply: list },
  { op: 'GET /transactions/invoices/inv_1', call: (c) => c.transactions.invoices.get('inv_1') },
  { op: 'GET /transactions/invoices/inv_1/pdf', call: async (c) => (await c.transactions.invoices.pdf('inv_1')).resume(), reply: { body: 'pdf' } },
  { op: 'GET /transactions/settlement?payoutId=pay_1', call: (c) => c.transactions.settlement.list({ payoutId: 'pay_1' }), reply: list },
  {
    op: 'GET /transactions/settlement/report?payoutId=pay_1',
    call: (c) => c.transactions.settlement.report({ payoutId: 'pay_1' }),
    reply: { body: { entries: [], summary: {} } },
  },
  { op: 'GET /transactions/disputes', call: (c) => c.transactions.disputes.list(), reply: list },
  { op: 'GET /transactions/refunds', call: (c) => c.transactions.refunds.list(), reply: list },
  // Marketplaces (2)
  { op: 'GET /marketplaces/mktp_1', call: (c) => c.marketplaces.get('mktp_1') },
  { op: 'POST /marketplaces/customer', call: (c) => c.marketplaces.upsertCustomer({ emailAddress: 'a@b.co' }), json: { emailAddress: 'a@b.co' } },
  // Webhooks (4)
  { op: 'GET /webhooks', call: (c) => c.webhooks.list(), reply: list },
  {
    op: 'POST /webhooks',
    call: (c) => c.webhooks.create({ CreateWebhookMerchantSubscription: { url: 'https://hooks.example.com/x', events: ['TransactionPaid'] } }),
    reply: { body: { WebhookMerchantSubscription: { id: 'webhook_1', status: 'Active', secret: 's' } } },
    json: { CreateWebhookMerchantSubscription: { url: 'https://hooks.example.com/x', events: ['TransactionPaid'] } },
  },
  { op: 'GET /webhooks/webhook_1', call: (c) => c.webhooks.get('webhook_1'), reply: { body: { id: 'webhook_1' } } },
  {
    op: 'PATCH /webhooks/webhook_1',
    call: (c) => c.webhooks.setStatus('webhook_1', 'Suspended'),
    reply: { body: { id: 'webhook_1', status: 'Suspended' } },
    json: { UpdateWebhookSubscriptionStatus: { status: 'Suspended' } },
  },
  // Loans (6)
  { op: 'GET /loans', call: (c) => c.loans.list(), reply: list },
  { op: 'GET /loans/statements/ls_1', call: (c) => c.loans.statements.get('ls_1') },
  { op: 'GET /loans/statements', call: (c) => c.loans.statements.list(), reply: list },
  { op: 'GET /loans/statements/entries', call: (c) => c.loans.entries.list(), reply: list },
  {
    op: 'GET /loans/enterprise/statements/ls_1/download',
    call: async (c) => (await c.loans.statements.download('ls_1')).body.resume(),
    reply: { body: 'zip' },
  },
  { op: 'GET /loans/statements/entries/report?loanId=loan_1', call: (c) => c.loans.entries.report({ loanId: 'loan_1' }) },
  // Card issuer (2)
  { op: 'POST /issuer/card', call: (c) => c.cards.create({ loanId: 'loan_1' }), json: { loanId: 'loan_1' } },
  { op: 'GET /issuer/card', call: (c) => c.cards.list(), reply: list },
  // PayTo (3)
  {
    op: 'GET /payto/alias?aliasType=Phone&value=%2B61400000000',
    call: (c) => c.payto.alias({ aliasType: 'Phone', value: '+61400000000' }),
    reply: { body: { displayName: 'A' } },
  },
  {
    op: 'POST /payto/agreement',
    call: (c) =>
      c.payto.sendAgreement({
        customerName: 'Ada',
        customerAccIdentifier: { Alias: { aliasType: 'Phone', value: '+61400000000' } },
        terms: { AgreementRequestTermsOpen: {} },
        purpose: 'Rent',
      }),
    reply: { body: { token: 'agr_1' } },
    json: {
      customerName: 'Ada',
      customerAccIdentifier: { Alias: { aliasType: 'Phone', value: '+61400000000' } },
      terms: { AgreementRequestTermsOpen: {} },
      purpose: 'Rent',
    },
  },
  { op: 'GET /payto/agreement?token=agr_1', call: (c) => c.payto.agreement('agr_1'), reply: { body: { status: 'Active' } } },
  // Simulation (1)
  { op: 'POST /simulation', call: (c) => c.simulation.run({ BankTransfer: { amount: money } }), json: { BankTransfer: { amount: money } } },
]

let svc: MockService
beforeAll(() => {
  svc = mockService()
})
afterAll(async () => svc.close())

describe('every contract operation', () => {
  it('has a row for each of the 80 operations', () => {
    const distinct = new Set(
      rows.map((r) => r.op.split('?')[0]!.replace(/\/(st|cust|custd|mcht|file|own|psrc|cb|ptkn|pp|ordr|tran|pay|inv|mktp|webhook|ls)_1/g, '/{id}')),
    )
    expect(rows).toHaveLength(80)
    expect(distinct.size).toBe(80)
  })

  it.each(rows)('$op', async ({ op, call, reply, json }) => {
    const [method, path] = op.split(' ') as [string, string]
    svc.requests.length = 0
    svc.on(method, (p) => p.split('?')[0] === path.split('?')[0], reply ?? { body: {} })
    await call(svc.client())
    expect(svc.requests).toHaveLength(1)
    const req = svc.requests[0]!
    expect(req.method).toBe(method)
    expect(req.path).toBe(path)
    if (json !== undefined) expect(req.json).toEqual(json)
    if (method === 'GET' || method === 'DELETE') expect(req.body).toBeUndefined()
  })
})
