import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InvalidInputError, OutcomeUnknownError } from '../../src/client/index.js'
import { type MockService, mockService } from './mock-service.js'

const money = { minorCurrencyUnits: 1250, currency: 'AUD' }
const emptyList = { body: [], headers: { 'page-count': '0', 'total-record-count': '0' } }

let svc: MockService
beforeEach(() => {
  svc = mockService()
})
afterEach(async () => svc.close())

async function drain(iterable: AsyncIterable<unknown>) {
  for await (const _ of iterable) {
    // nothing
  }
}

describe('transactions', () => {
  it('refund sends CreateRefund and returns TransactionDetails', async () => {
    const details = {
      purchaseDetails: { transactionId: 'tran_1', status: 'refunded', refundedAmount: 1250, refundIds: ['rfnd_1'] },
      timelines: [{ eventType: 'PaymentRefunded', eventTime: '2026-11-20T01:02:03.004Z', amount: 1250, identifier: 'rfnd_1' }],
    }
    svc.on('PATCH', '/transactions/tran_1', { body: details })
    const result = await svc.client({ context: { merchantId: 'mcht_1' } }).transactions.refund('tran_1', 1250)
    expect(result).toEqual(details)
    const req = svc.requests[0]!
    expect(req.json).toEqual({ CreateRefund: { refundAmount: 1250 } })
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.headers['merchant-id']).toBe('mcht_1')
  })

  it('refund refuses a non-positive or fractional amount before sending', async () => {
    const client = svc.client()
    await expect(client.transactions.refund('tran_1', 0)).rejects.toThrow(/CreateRefund\.refundAmount/)
    await expect(client.transactions.refund('tran_1', 12.5)).rejects.toThrow(InvalidInputError)
    expect(svc.requests).toHaveLength(0)
  })

  it('update passes the other actions through', async () => {
    svc.on('PATCH', '/transactions/tran_1', { body: { purchaseDetails: {} } })
    await svc.client().transactions.update('tran_1', { CaptureFunds: { amount: 100 } })
    expect(svc.requests[0]?.json).toEqual({ CaptureFunds: { amount: 100 } })
  })

  it('settlement list, iterate and report refuse a query without payoutId and without currency + dates', async () => {
    const client = svc.client()
    await expect(client.transactions.settlement.list({ currency: 'AUD', createdAfter: '2026-01-01' })).rejects.toThrow(
      'Settlement queries need payoutId, or all of currency, createdAfter and createdBefore (missing: createdBefore)',
    )
    expect(() => client.transactions.settlement.iterate({})).toThrow(InvalidInputError)
    await expect(client.transactions.settlement.report({ currency: 'AUD' }, 'csv')).rejects.toThrow(InvalidInputError)
    expect(svc.requests).toHaveLength(0)
  })

  it('settlement list accepts currency with both dates', async () => {
    svc.on('GET', (p) => p.startsWith('/transactions/settlement?'), emptyList)
    await svc.client().transactions.settlement.list({ currency: 'AUD', createdAfter: '2026-01-01', createdBefore: '2026-02-01' })
    expect(svc.requests[0]?.path).toBe('/transactions/settlement?currency=AUD&createdAfter=2026-01-01&createdBefore=2026-02-01')
  })

  it('the CSV settlement report asks for text/csv and streams it', async () => {
    svc.on('GET', (p) => p.startsWith('/transactions/settlement/report'), { body: 'id,amount\ns_1,100\n', headers: { 'content-type': 'text/csv' } })
    const stream = await svc.client().transactions.settlement.report({ payoutId: 'pay_1' }, 'csv')
    let text = ''
    for await (const chunk of stream) text += String(chunk)
    expect(text).toBe('id,amount\ns_1,100\n')
    expect(svc.requests[0]?.headers.accept).toBe('text/csv')
  })

  it('the JSON settlement report asks for application/json', async () => {
    svc.on('GET', (p) => p.startsWith('/transactions/settlement/report'), { body: { entries: [], summary: { total: 0 } } })
    expect(await svc.client().transactions.settlement.report({ payoutId: 'pay_1' })).toEqual({ entries: [], summary: { total: 0 } })
    expect(svc.requests[0]?.headers.accept).toBe('application/json')
  })
})

describe('auth', () => {
  it('service token list needs merchantId or marketplaceId', async () => {
    const client = svc.client()
    await expect(client.auth.serviceTokens.list({ status: ['Active'] })).rejects.toThrow('Listing service tokens needs a merchantId or a marketplaceId filter')
    await expect(client.auth.serviceTokens.list({ merchantId: [] })).rejects.toThrow(InvalidInputError)
    expect(() => client.auth.serviceTokens.iterate({})).toThrow(InvalidInputError)
    expect(svc.requests).toHaveLength(0)
  })

  it('signIn returns the sign-in result and refuses a malformed customer id', async () => {
    svc.on('POST', '/auth/signin', { body: { customerId: 'cust_1', customerDelegateId: null, customToken: 'jwt' } })
    const client = svc.client()
    expect(await client.auth.signIn({ SignInConsumer: { customerId: 'cust_1' } }, { context: { merchantId: 'mcht_1' } })).toEqual({
      customerId: 'cust_1',
      customerDelegateId: null,
      customToken: 'jwt',
    })
    expect(svc.requests[0]?.headers['merchant-id']).toBe('mcht_1')
    await expect(client.auth.signIn({ SignInConsumer: { customerId: 'mcht_1' } })).rejects.toThrow(/expected an identifier starting with "cust_"/)
  })

  it('signIn refuses an answer without customToken (a POST: its outcome is unknown)', async () => {
    svc.on('POST', '/auth/signin', { body: { customerId: 'cust_1' } })
    await expect(svc.client().auth.signIn({ SignInConsumer: { customerId: 'cust_1' } })).rejects.toThrow(OutcomeUnknownError)
  })
})

describe('tokens', () => {
  it('create unwraps PayToToken into kind and token', async () => {
    const token = { paymentTokenId: 'ptkn_1', amount: money, surchargeAmount: 0, agreementUid: 'u', accountIdentifierHint: 'xx78' }
    svc.on('POST', '/tokens', { body: { PayToToken: token } })
    const result = await svc.client().tokens.create({ CreatePayToToken: { amount: money, agreementToken: 'agr_1' } })
    expect(result).toEqual({ kind: 'PayToToken', token })
  })

  it('create passes through other token envelopes with their kind', async () => {
    svc.on('POST', '/tokens', { body: { BankAccountToken: { paymentTokenId: 'ptkn_2' } } })
    const result = await svc.client().tokens.create({ CardPaymentSourceId: { paymentSourceId: 'psrc_1' } })
    expect(result).toEqual({ kind: 'BankAccountToken', token: { paymentTokenId: 'ptkn_2' } })
  })

  it('create refuses a saved-source token request without amount', async () => {
    await expect(svc.client().tokens.create({ CreateSavedPaymentSourceToken: { paymentSourceId: 'psrc_1' } } as never)).rejects.toThrow(
      /CreateSavedPaymentSourceToken\.amount: is required/,
    )
  })
})

describe('webhooks', () => {
  it('unwraps subscription envelopes in answers and lists', async () => {
    svc.on('GET', '/webhooks/webhook_1', { body: { WebhookMarketplaceSubscription: { id: 'webhook_1', marketplaceId: 'mktp_1', status: 'Active' } } })
    svc.on('GET', '/webhooks', {
      body: [{ WebhookMerchantSubscription: { id: 'webhook_2' } }, { id: 'webhook_3' }],
      headers: { 'page-count': '1', 'total-record-count': '2' },
    })
    const client = svc.client()
    expect((await client.webhooks.get('webhook_1')).marketplaceId).toBe('mktp_1')
    expect((await client.webhooks.list()).items.map((s) => s.id)).toEqual(['webhook_2', 'webhook_3'])
  })

  it('create refuses a plain-http destination before sending', async () => {
    await expect(
      svc.client().webhooks.create({ CreateWebhookMarketplaceSubscription: { url: 'http://hooks.example.com', events: ['MerchantCreated'] } }),
    ).rejects.toThrow('Invalid request for POST /webhooks: CreateWebhookMarketplaceSubscription.url: expected an https:// URL')
  })
})

describe('loans', () => {
  it('the entries report needs a loan or settlement id, or a currency and a date range', async () => {
    const client = svc.client()
    await expect(client.loans.entries.report({ currency: 'AUD' })).rejects.toThrow(InvalidInputError)
    await expect(client.loans.entries.report({ createdAfter: '2026-01-01' })).rejects.toThrow(InvalidInputError)
    expect(svc.requests).toHaveLength(0)
    svc.on('GET', (p) => p.startsWith('/loans/statements/entries/report'), { body: [] })
    await client.loans.entries.report({ currency: 'AUD', dueOnFrom: '2026-01-01', dueOnTo: '2026-02-01' })
    expect(svc.requests).toHaveLength(1)
  })
})

describe('customers and payto input checks', () => {
  it('refuses a consumer upsert with a non-E.164 phone', async () => {
    await expect(svc.client().customers.upsert({ UpsertConsumerCustomer: { emailAddress: 'a@b.co', phoneNumber: '0401 234 567' } })).rejects.toThrow(
      /UpsertConsumerCustomer\.phoneNumber: expected a telephone number in E\.164 form/,
    )
  })

  it('refuses an agreement with both an alias and a BBAN', async () => {
    await expect(
      svc.client().payto.sendAgreement({
        customerName: 'Ada',
        customerAccIdentifier: { Bban: { value: '1' }, Alias: { aliasType: 'Phone', value: '2' } } as never,
        terms: { AgreementRequestTermsOpen: {} },
      }),
    ).rejects.toThrow(/customerAccIdentifier: expected exactly one of/)
  })

  it('refuses to poll an agreement without a token', async () => {
    await expect(svc.client().payto.agreement('')).rejects.toThrow(InvalidInputError)
  })

  it('simulation refuses a body that is not a single-key envelope', async () => {
    await expect(svc.client().simulation.run({ A: {}, B: {} })).rejects.toThrow(InvalidInputError)
  })
})

describe('generic list and iterate', () => {
  it('client.iterate walks any paginated path', async () => {
    svc.on('GET', (p) => p.startsWith('/loans?'), { body: [{ loanId: 'l1' }], headers: { 'page-count': '1', 'total-record-count': '1' } })
    const seen: unknown[] = []
    for await (const loan of svc.client().iterate('/loans', { status: 'open' })) seen.push(loan)
    expect(seen).toEqual([{ loanId: 'l1' }])
    expect(svc.requests[0]?.path).toBe('/loans?status=open&limit=500&page=1')
  })

  it('every resource iterate drains an empty list after one request', async () => {
    svc.on('GET', () => true, emptyList, { times: 30 })
    const c = svc.client()
    const iterables = [
      c.customers.iterate(),
      c.customers.delegates.iterate(),
      c.merchants.iterate(),
      c.sources.iterate(),
      c.sources.blockedCards.iterate(),
      c.payplans.iterate(),
      c.orders.iterate(),
      c.transactions.iterate(),
      c.transactions.payouts.iterate(),
      c.transactions.invoices.iterate(),
      c.transactions.settlement.iterate({ payoutId: 'pay_1' }),
      c.transactions.disputes.iterate(),
      c.transactions.refunds.iterate(),
      c.webhooks.iterate(),
      c.loans.iterate(),
      c.loans.statements.iterate(),
      c.loans.entries.iterate(),
      c.cards.iterate(),
      c.auth.serviceTokens.iterate({ merchantId: 'mcht_1' }),
    ]
    for (const iterable of iterables) await drain(iterable)
    expect(svc.requests.map((r) => r.pathname)).toEqual([
      '/customers',
      '/customers/delegates',
      '/merchants',
      '/sources',
      '/sources/blockedcards',
      '/payplans',
      '/orders',
      '/transactions',
      '/transactions/payouts',
      '/transactions/invoices',
      '/transactions/settlement',
      '/transactions/disputes',
      '/transactions/refunds',
      '/webhooks',
      '/loans',
      '/loans/statements',
      '/loans/statements/entries',
      '/issuer/card',
      '/auth/servicetokens',
    ])
  })
})
