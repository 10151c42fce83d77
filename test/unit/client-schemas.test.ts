import { describe, expect, it } from 'vitest'
import * as s from '../../src/client/schemas/index.js'

const money = { minorCurrencyUnits: 1250, currency: 'AUD' }

describe('common shapes', () => {
  it('Money (request) is strict and integer', () => {
    expect(s.Money.safeParse(money).success).toBe(true)
    expect(s.Money.safeParse({ ...money, extra: 1 }).success).toBe(false)
    expect(s.Money.safeParse({ minorCurrencyUnits: 12.5, currency: 'AUD' }).success).toBe(false)
    expect(s.Money.safeParse({ minorCurrencyUnits: 1, currency: 'aud' }).success).toBe(false)
  })

  it('MoneyRecord (response) keeps unknown fields', () => {
    expect(s.MoneyRecord.parse({ ...money, display: '$12.50' })).toEqual({ ...money, display: '$12.50' })
  })

  it.each(['2023-06-22T01:52:52.096Z', '2023-06-22T01:52:52.096861Z', '2023-06-22T01:52:52.096861123Z', '2023-06-22T01:52:52Z', '2023-06-22T11:52:52+10:00'])(
    'Timestamp accepts %s',
    (t) => {
      expect(s.Timestamp.safeParse(t).success).toBe(true)
    },
  )

  it.each(['2023-06-22', 'yesterday', '22/06/2023 01:52'])('Timestamp refuses %s', (t) => {
    expect(s.Timestamp.safeParse(t).success).toBe(false)
  })

  it('Date is YYYY-MM-DD', () => {
    expect(s.Date.safeParse('2026-11-20').success).toBe(true)
    expect(s.Date.safeParse('2026-11-20T00:00:00Z').success).toBe(false)
  })

  it('idOf checks the prefix; cust_ does not accept custd_', () => {
    expect(s.idOf('ordr').safeParse('ordr_ZqCNoNcm_22WeZ-j').success).toBe(true)
    expect(s.idOf('ordr').safeParse('tran_ZqCNoNcm_22WeZ-j').success).toBe(false)
    expect(s.idOf('cust').safeParse('custd_abc').success).toBe(false)
    expect(s.idOf(s.ID_PREFIXES.dispute).safeParse('dispute_abc').success).toBe(true)
    expect(s.hasIdPrefix('webhook_abc', 'webhook')).toBe(true)
  })

  it('describeIssues names the field in one line', () => {
    const r = s.CreateOnlineOrder.safeParse({
      amount: { minorCurrencyUnits: 1, currency: 'AUD' },
      items: [{ amount: money, description: 'x', quantity: 1, colour: 'red' }],
    })
    expect(r.success).toBe(false)
    if (!r.success) expect(s.describeIssues(r.error, 'CreateOnlineOrder')).toBe('CreateOnlineOrder.items[0]: unknown field "colour"')
    const missing = s.CreateRefund.safeParse({})
    if (!missing.success) expect(s.describeIssues(missing.error)).toBe('refundAmount: is required (expected number)')
  })
})

describe('request schemas are strict', () => {
  it('CreateOnlineOrder takes the contract fields and refuses previous-generation ones', () => {
    const order = {
      referenceOrderId: 'inv-1',
      amount: money,
      customerEmailAddress: 'a@b.co',
      customerPhoneNumber: '+61401234567',
      description: 'Coffee',
      items: [{ amount: money, description: 'Beans', quantity: 2 }],
      billing: { address: { line1: '1 St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' }, name: 'Ada' },
      metadata: { anything: { nested: true } },
    }
    expect(s.CreateOnlineOrder.safeParse(order).success).toBe(true)
    expect(s.CreatePayByLinkOrder.safeParse(order).success).toBe(true)
    expect(s.CreateOnlineOrder.safeParse({ ...order, internalOrderId: 'x' }).success).toBe(false)
    // payfac sends whole quantities, as the contract says (the emulator takes decimals by default: lenient.ts).
    expect(s.CreateOnlineOrder.safeParse({ ...order, items: [{ amount: money, description: 'Beans', quantity: 1.5 }] }).success).toBe(false)
    expect(s.CreateOnlineOrder.safeParse({ ...order, amount: undefined }).success).toBe(false)
  })

  it('pay variants', () => {
    expect(s.PayByPayTo.safeParse({ paymentTokenId: 'ptkn_1' }).success).toBe(true)
    expect(s.PayByPayTo.safeParse({ paymentTokenId: 'ordr_1' }).success).toBe(false)
    expect(s.PayByCard.safeParse({ paymentTokenId: 'ptkn_1', request3DS: true }).success).toBe(true)
    expect(s.Confirm3DSComplete.safeParse({ paymentTokenId: 'ptkn_1', threeDSResponse: 'abc', authoriseOnly: false }).success).toBe(true)
    expect(s.Confirm3DSComplete.safeParse({ paymentTokenId: 'ptkn_1' }).success).toBe(false)
  })

  it('CreateRefund needs a positive integer', () => {
    expect(s.CreateRefund.safeParse({ refundAmount: 500 }).success).toBe(true)
    for (const bad of [0, -1, 1.5, '500']) expect(s.CreateRefund.safeParse({ refundAmount: bad }).success).toBe(false)
  })

  it('SendAgreement takes exactly one identifier and exactly one kind of terms', () => {
    const base = { customerName: 'Ada', purpose: 'Invoice 7', terms: { AgreementRequestTermsOpen: {} } }
    expect(s.SendAgreement.safeParse({ ...base, customerAccIdentifier: { Bban: { value: '062000 12345678' } } }).success).toBe(true)
    expect(s.SendAgreement.safeParse({ ...base, customerAccIdentifier: { Alias: { aliasType: 'Phone', value: '+61400000000' } } }).success).toBe(true)
    const both = s.SendAgreement.safeParse({ ...base, customerAccIdentifier: { Bban: { value: '1' }, Alias: { aliasType: 'Phone', value: '2' } } })
    expect(both.success).toBe(false)
    if (!both.success) expect(s.describeIssues(both.error)).toMatch(/^customerAccIdentifier: expected exactly one of/)
    const oneOff = { AgreementRequestTermsOneOff: { amount: { amount: 1250, currency: 'AUD' } } }
    expect(s.SendAgreement.safeParse({ ...base, terms: oneOff, customerAccIdentifier: { Bban: { value: '1' } } }).success).toBe(true)
    expect(
      s.SendAgreement.safeParse({ ...base, terms: { ...oneOff, AgreementRequestTermsOpen: {} }, customerAccIdentifier: { Bban: { value: '1' } } }).success,
    ).toBe(false)
  })

  it('webhook subscriptions need https (loopback http allowed for local receivers)', () => {
    const ok = (url: string) => s.CreateWebhookMerchantSubscription.safeParse({ url, events: ['TransactionPaid'] }).success
    expect(ok('https://hooks.example.com/x')).toBe(true)
    expect(ok('http://hooks.example.com/x')).toBe(false)
    expect(ok('http://127.0.0.1:9999/hook')).toBe(true)
    expect(ok('not a url')).toBe(false)
  })

  it('UpsertConsumerCustomer needs an e-mail and an E.164 phone', () => {
    expect(s.UpsertConsumerCustomer.safeParse({ emailAddress: 'a@b.co', phoneNumber: '+61401234567', givenName: 'Ada' }).success).toBe(true)
    expect(s.UpsertConsumerCustomer.safeParse({ emailAddress: 'a@b.co', phoneNumber: '0401 234 567' }).success).toBe(false)
    expect(s.UpsertConsumerCustomer.safeParse({ email: 'a@b.co' }).success).toBe(false)
  })

  it('UpsertOrganisationCustomer needs referenceCustomerId and lets the rest through', () => {
    expect(s.UpsertOrganisationCustomer.safeParse({ referenceCustomerId: 'org-1', tradingName: 'X' }).success).toBe(true)
    expect(s.UpsertOrganisationCustomer.safeParse({ tradingName: 'X' }).success).toBe(false)
  })

  it('CreateSavedPaymentSource and CreatePayToToken', () => {
    expect(s.CreateSavedPaymentSource.safeParse({ sourceMethod: { PayToMethod: { agreementToken: 't' } }, usageScope: 'ScopeOrganisation' }).success).toBe(true)
    expect(s.CreateSavedPaymentSource.safeParse({ sourceMethod: { PayToMethod: { agreementToken: 't' } }, usageScope: 'Other' }).success).toBe(false)
    expect(s.CreatePayToToken.safeParse({ amount: money, agreementToken: 't' }).success).toBe(true)
    expect(s.CreatePayToToken.safeParse({ amount: money }).success).toBe(false)
  })

  it('PayPlanOfferRequest', () => {
    expect(s.PayPlanOfferRequest.safeParse({ amount: money, initialPayment: 0, payPlanVariant: 'payplan_4_weekly_payments' }).success).toBe(true)
    expect(s.PayPlanOfferRequest.safeParse({ amount: money, initialPayment: 0.5, payPlanVariant: 'x' }).success).toBe(false)
  })
})

describe('response schemas are loose', () => {
  it('Order keeps unknown fields and tolerates nulls and fine timestamps', () => {
    const order = s.Order.parse({
      orderId: 'ordr_1',
      amount: money,
      customerPhoneNumber: null,
      createdAt: '2023-06-22T01:52:52.096861Z',
      surcharge: { a: 1 },
    })
    expect(order.surcharge).toEqual({ a: 1 })
  })

  it('Order needs orderId and amount', () => {
    expect(s.Order.safeParse({ amount: money }).success).toBe(false)
  })

  it('PayOrderComplete reads the contract example', () => {
    const tx = s.PayOrderComplete.parse({
      transactionId: 'tran_1',
      transactionStatus: 'paid',
      amount: 1250,
      currency: 'AUD',
      surchargeAmount: 0,
      payType: 'payinfull',
      transactionDetails: {
        purchaseDetails: { orderId: 'ordr_1', amount: money, refundedAmount: 0, refundIds: [], disputeId: null, disputeIds: [], paidOn: '2026-11-20' },
        paymentMethod: { paymentMethodType: 'PayTo', accountHint: 'xxx678', paymentStatus: 'Settled', paymentFailure: null },
        serviceFees: { variableAmount: 1, fixedAmount: 2, taxAmount: 0, totalAmount: 3 },
        customerDetails: null,
        timelines: [{ eventType: 'PaymentSucceed', eventTime: '2026-11-20T01:02:03.004Z', amount: 1250, identifier: null }],
      },
    })
    expect(tx.transactionDetails?.timelines?.[0]?.eventType).toBe('PaymentSucceed')
  })

  it('records the contract does not show accept anything', () => {
    expect(s.Payout.safeParse({ whatever: 1 }).success).toBe(true)
    expect(s.ServiceToken.safeParse({}).success).toBe(true)
  })
})

describe('ACTIONS', () => {
  it('lists the discriminators of each operation', () => {
    expect(s.actionKinds('POST /orders/{orderId}/pay')).toEqual(['PayByPayTo', 'PayByCard', 'PayByPaymentToken', 'Confirm3DSComplete'])
    expect(s.actionKinds('PATCH /transactions/{transactionId}')).toEqual([
      'CreateRefund',
      'ReverseFundsTransfer',
      'TransferFunds',
      'CaptureFunds',
      'CancelAuthorisation',
    ])
    expect(s.actionKinds('PATCH /sources/blockedcards/{cardBlockId}')).toBeUndefined()
  })

  it('matches concrete requests to templates, literal segments first', () => {
    expect(s.matchRoute('post', '/orders/ordr_1/pay')).toBe('POST /orders/{orderId}/pay')
    expect(s.matchRoute('PATCH', '/orders/ordr_1')).toBe('PATCH /orders/{orderId}')
    expect(s.matchRoute('PATCH', '/customers/delegates/custd_1?x=1')).toBe('PATCH /customers/delegates/{customerDelegateId}')
    expect(s.matchRoute('PATCH', '/sources/blockedcards/cb_1')).toBe('PATCH /sources/blockedcards/{cardBlockId}')
    expect(s.matchRoute('GET', '/orders/ordr_1')).toBeUndefined()
    expect(s.matchRoute('POST', '/payto/agreement', Object.keys(s.BODIES) as s.BodyRoute[])).toBe('POST /payto/agreement')
  })

  it('parseAction checks the single key, the kind and the fields', () => {
    expect(s.parseAction('PATCH /transactions/{transactionId}', { CreateRefund: { refundAmount: 5 } })).toEqual({
      ok: true,
      kind: 'CreateRefund',
      value: { refundAmount: 5 },
    })
    expect(s.parseAction('PATCH /transactions/{transactionId}', { CaptureFunds: { anything: 1 } }).ok).toBe(true)
    expect(s.parseAction('PATCH /transactions/{transactionId}', { CreateRefund: { refundAmount: 5 }, CaptureFunds: {} })).toEqual({
      ok: false,
      message:
        'the body must have exactly one key (one of CreateRefund, ReverseFundsTransfer, TransferFunds, CaptureFunds, CancelAuthorisation); found CreateRefund, CaptureFunds',
    })
    expect(s.parseAction('POST /orders', { CreateOrder: {} })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/"CreateOrder" is not an action of POST \/orders/),
    })
    expect(s.parseAction('POST /orders', { CreateOnlineOrder: {} })).toEqual({ ok: false, message: 'CreateOnlineOrder.amount: is required (expected object)' })
    expect(s.parseAction('PATCH /sources/blockedcards/{cardBlockId}', { Unblock: {} }).ok).toBe(true)
    expect(s.parseAction('POST /orders', [1]).ok).toBe(false)
  })

  it('accepts the real-world name CreatePayByLink beside the contract name', () => {
    expect(s.parseAction('POST /orders', { CreatePayByLink: { amount: money } }).ok).toBe(true)
  })

  it('parseBody checks plain bodies', () => {
    expect(s.parseBody('POST /payplans/offer', { amount: money, initialPayment: 0, payPlanVariant: 'v' }).ok).toBe(true)
    expect(s.parseBody('POST /payto/agreement', {}).ok).toBe(false)
  })
})
