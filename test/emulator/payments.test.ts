// Tokens, orders, paying, transactions and the ledger, with a fake clock.
import { describe, expect, it } from 'vitest'
import { createEmulatorApp } from '../../src/emulator/app.js'
import { fakeClock } from '../../src/emulator/clock.js'
import { serviceFees } from '../../src/emulator/fees.js'
import { seededIds } from '../../src/emulator/ids.js'
import { luhnValid, TEST_CARDS } from '../../src/emulator/cards.js'
import { KEYS, MERCHANT, SUB_MERCHANT, aud, oneOffAgreementBody, ok, openAgreementBody, paidTransaction, payableOrder, testApp } from './helpers.js'

type App = ReturnType<typeof testApp>

function order(app: App, amount: number, extra: Record<string, unknown> = {}, options: { credential?: string; headers?: Record<string, string> } = {}): string {
  return ok(app.request('POST', '/orders', { ...options, body: { CreateOnlineOrder: { amount: aud(amount), ...extra } } })).OnlineOrder.order.orderId
}

function activeAgreement(app: App, body: unknown): string {
  const { token } = ok(app.request('POST', '/payto/agreement', { body }))
  app.clock.advance(2)
  return token
}

function customer(app: App, email = 'jane@example.com'): string {
  return ok(app.request('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: email, givenName: 'Jane', familyName: 'Citizen' } } }))
    .customerId
}

function savedCard(app: App, customerId: string, cardNumber = '4242424242424242'): string {
  const body = { CreateCardPaymentSource: { cardNumber, expiryMonth: 12, expiryYear: 2030, cvc: '123', cardholderName: 'Jane Citizen' } }
  return ok(app.request('POST', '/sources', { body, headers: { 'Customer-Id': customerId } })).paymentSourceId
}

function cardToken(app: App, paymentSourceId: string, amount: number): string {
  return ok(app.request('POST', '/tokens', { body: { CreateSavedPaymentSourceToken: { paymentSourceId, amount: aud(amount) } } })).SavedPaymentSourceToken
    .paymentTokenId
}

/** What the customer does on the challenge page, told by the simulation (headless). */
function passChallenge(app: App, threeDSAuthorisationId: string): void {
  ok(app.request('POST', '/simulation', { body: { SetThreeDSOutcome: { threeDSAuthorisationId, outcome: 'passed' } } }))
}

const pay = (app: App, orderId: string, body: unknown, credential?: string) =>
  app.request('POST', `/orders/${orderId}/pay`, { body, ...(credential ? { credential } : {}) })

describe('PayTo tokens', () => {
  it('are made only from an Active agreement', () => {
    const app = testApp()
    const { token } = ok(app.request('POST', '/payto/agreement', { body: oneOffAgreementBody(1000) }))
    const early = app.request('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(1000), agreementToken: token } } })
    expect(early.status).toBe(409)
    expect(early.body.errorCode).toBe('agreement_not_active')
    app.clock.advance(2)
    const made = ok(app.request('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(1000), agreementToken: token } } }))
    expect(made.PayToToken).toEqual({
      paymentTokenId: expect.stringMatching(/^ptkn_/),
      amount: aud(1000),
      surchargeAmount: 0,
      agreementUid: expect.any(String),
      accountIdentifierHint: '062-000 *****678',
    })
  })

  it('from a one-off agreement are for its fixed amount only', () => {
    const app = testApp()
    const token = activeAgreement(app, oneOffAgreementBody(1000))
    const wrong = app.request('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(999), agreementToken: token } } })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errorCode).toBe('amount_mismatch')
  })

  it('a one-off agreement pays once', () => {
    const app = testApp()
    const agreementToken = activeAgreement(app, oneOffAgreementBody(1000))
    const make = () => app.request('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(1000), agreementToken } } })
    const first = ok(make()).PayToToken.paymentTokenId
    const second = ok(make()).PayToToken.paymentTokenId
    ok(pay(app, order(app, 1000), { PayByPayTo: { paymentTokenId: first } }))
    expect(pay(app, order(app, 1000), { PayByPayTo: { paymentTokenId: second } }).body.errorCode).toBe('agreement_used')
    expect(make().body.errorCode).toBe('agreement_used')
  })

  it('never expire by default (the contract gives them no lifetime)', () => {
    const app = testApp()
    const { orderId, paymentTokenId } = payableOrder(app)
    expect(ok(app.request('GET', `/tokens/${paymentTokenId}`)).expiresAt).toBeNull()
    app.clock.advance(30 * 86_400)
    expect(ok(app.request('GET', `/tokens/${paymentTokenId}`)).status).toBe('Unused')
    ok(pay(app, orderId, { PayByPayTo: { paymentTokenId } }))
  })

  it('expire after the lifetime the emulator was given (emulator time)', () => {
    const app = createEmulatorApp({
      clock: fakeClock('2025-03-01T10:00:00.000Z'),
      ids: seededIds('emulator-tests'),
      integrators: { paymentTokenLifetimeSeconds: 30 * 60 },
    })
    const { orderId, paymentTokenId } = payableOrder(app)
    expect(ok(app.request('GET', `/tokens/${paymentTokenId}`)).status).toBe('Unused')
    app.clock.advance(30 * 60)
    expect(ok(app.request('GET', `/tokens/${paymentTokenId}`)).status).toBe('Expired')
    const response = pay(app, orderId, { PayByPayTo: { paymentTokenId } })
    expect(response.status).toBe(409)
    expect(response.body.errorCode).toBe('payment_token_expired')
  })

  it('show the token record of real integrations', () => {
    const app = testApp()
    const { paymentTokenId } = payableOrder(app)
    expect(ok(app.request('GET', `/tokens/${paymentTokenId}`))).toMatchObject({
      paymentTokenId,
      paymentSourceId: null,
      amount: aud(10_000),
      surchargeAmount: 0,
      payType: 'payinfull',
      method: 'PayTo',
      payPlanVariant: null,
    })
    expect(app.request('GET', '/tokens/ptkn_none000000000000').status).toBe(404)
  })

  it('are made for a sub-merchant by the marketplace with Merchant-Id, and refused without it', () => {
    const app = testApp()
    const asMarketplace = { credential: KEYS.marketplaceApiKey }
    const sub = { ...asMarketplace, headers: { 'Merchant-Id': SUB_MERCHANT } }
    expect(app.request('POST', '/payto/agreement', { ...asMarketplace, body: oneOffAgreementBody(500) }).body.errorCode).toBe('merchant_context_required')
    const { token } = ok(app.request('POST', '/payto/agreement', { ...sub, body: oneOffAgreementBody(500) }))
    app.clock.advance(2)
    const made = ok(app.request('POST', '/tokens', { ...sub, body: { CreatePayToToken: { amount: aud(500), agreementToken: token } } }))
    expect(app.request('POST', '/orders', { ...asMarketplace, body: { CreateOnlineOrder: { amount: aud(500) } } }).status).toBe(400)
    const orderId = order(app, 500, {}, sub)
    const paid = ok(app.request('POST', `/orders/${orderId}/pay`, { ...sub, body: { PayByPayTo: { paymentTokenId: made.PayToToken.paymentTokenId } } }))
    expect(paid.PayOrderComplete.transactionDetails.purchaseDetails.merchantId).toBe(SUB_MERCHANT)
    expect(app.request('GET', `/orders/${orderId}`).status).toBe(404)
  })

  it('quote surcharges: none for PayTo, 1.1 % for cards', () => {
    const app = testApp()
    const quote = (paymentMethodType: string) =>
      ok(app.request('POST', `/tokens/${MERCHANT}/surchargequote`, { credential: KEYS.merchantPublicKey, body: { amount: aud(10_000), paymentMethodType } }))
    expect(quote('PayTo')).toMatchObject({ surchargeAmount: 0, totalAmount: aud(10_000) })
    expect(quote('Card')).toMatchObject({ surchargeAmount: 110, totalAmount: aud(10_110) })
    expect(app.request('POST', `/tokens/${SUB_MERCHANT}/surchargequote`, { body: { amount: aud(1), paymentMethodType: 'Card' } }).status).toBe(403)
    expect(app.request('POST', '/tokens/mcht_unknown0000000000/surchargequote', { body: { amount: aud(1), paymentMethodType: 'Card' } }).status).toBe(404)
  })
})

describe('paying an order with PayByPayTo', () => {
  it('pays: transaction paid and Settled, fees, PaymentSucceed, order metadata, ledger', () => {
    const app = testApp()
    const { paymentTokenId } = payableOrder(app, 10_000)
    const orderId = order(app, 10_000, { metadata: { cart: 'c-1' }, description: 'Two books', referenceOrderId: 'r-9' })
    const paid = ok(pay(app, orderId, { PayByPayTo: { paymentTokenId } })).PayOrderComplete
    expect(paid).toMatchObject({ transactionStatus: 'paid', amount: 10_000, currency: 'AUD', surchargeAmount: 0, payType: 'payinfull' })
    const details = paid.transactionDetails
    expect(details.purchaseDetails).toMatchObject({
      status: 'paid',
      orderId,
      referenceOrderId: 'r-9',
      orderMetadata: { cart: 'c-1' },
      paidOn: '2025-03-01',
      orderType: 'online',
      payType: 'PayInFull',
    })
    expect(details.paymentMethod).toEqual({ paymentMethodType: 'PayTo', accountHint: '062-000 *****678', paymentStatus: 'Settled', paymentFailure: null })
    expect(details.serviceFees).toEqual({ variableAmount: 150, fixedAmount: 30, taxAmount: 18, totalAmount: 198 })
    expect(details.timelines).toEqual([{ eventType: 'PaymentSucceed', eventTime: '2025-03-01T10:00:02.000Z', amount: 10_000, identifier: null }])
    expect(ok(app.request('GET', `/orders/${orderId}`))).toMatchObject({ status: 'paid', transactionId: paid.transactionId })
    const entries = app.store.settlementEntries.filter((e) => e.transactionId === paid.transactionId)
    expect(entries.map((e) => [e.type, e.amount.minorCurrencyUnits, e.availableOn])).toEqual([
      ['Payment', 10_000, '2025-03-03'],
      ['ServiceFee', -198, '2025-03-01'],
    ])
    expect(entries[0]?.settlementEntryId).toMatch(/^stl_/)
  })

  it('refuses a used token, another amount, a cancelled or paid order', () => {
    const app = testApp()
    const { orderId, paymentTokenId } = payableOrder(app, 1000)
    ok(pay(app, orderId, { PayByPayTo: { paymentTokenId } }))
    expect(pay(app, orderId, { PayByPayTo: { paymentTokenId } }).body.errorCode).toBe('order_already_paid')
    expect(pay(app, order(app, 1000), { PayByPayTo: { paymentTokenId } }).body.errorCode).toBe('payment_token_used')

    const open = activeAgreement(app, openAgreementBody())
    const token = ok(app.request('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(700), agreementToken: open } } })).PayToToken.paymentTokenId
    const wrong = pay(app, order(app, 800), { PayByPayTo: { paymentTokenId: token } })
    expect([wrong.status, wrong.body.errorCode]).toEqual([422, 'amount_mismatch'])
    const cancelled = order(app, 700)
    expect(ok(app.request('DELETE', `/orders/${cancelled}`)).status).toBe('cancelled')
    const refused = pay(app, cancelled, { PayByPayTo: { paymentTokenId: token } })
    expect([refused.status, refused.body.errorCode]).toEqual([409, 'order_cancelled'])
    expect(ok(pay(app, order(app, 700), { PayByPayTo: { paymentTokenId: token } })).PayOrderComplete.transactionStatus).toBe('paid')
  })

  it('refuses when the agreement was suspended after the token was made', () => {
    const app = testApp()
    const { orderId, paymentTokenId, agreementToken } = payableOrder(app, 1000)
    ok(app.request('POST', '/simulation', { body: { SetPayToAgreementStatus: { token: agreementToken, status: 'Suspended' } } }))
    const response = pay(app, orderId, { PayByPayTo: { paymentTokenId } })
    expect([response.status, response.body.errorCode]).toEqual([409, 'agreement_not_active'])
    expect(ok(app.request('GET', `/tokens/${paymentTokenId}`)).status).toBe('Unused')
  })

  it('declines with insufficient_funds for the test account, records a failed transaction, leaves the order payable', () => {
    const app = testApp()
    const agreementToken = activeAgreement(app, openAgreementBody('55555555'))
    const token = ok(app.request('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(300), agreementToken } } })).PayToToken.paymentTokenId
    const orderId = order(app, 300)
    const response = pay(app, orderId, { PayByPayTo: { paymentTokenId: token } })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ errorCode: 'insufficient_funds', metadata: { transactionId: expect.stringMatching(/^tran_/) } })
    const failed = ok(app.request('GET', `/transactions/${response.body.metadata.transactionId}`))
    expect(failed.purchaseDetails.status).toBe('failed')
    expect(failed.paymentMethod.paymentFailure).toEqual({ errorCode: 'insufficient_funds', message: expect.any(String) })
    expect(ok(app.request('GET', `/orders/${orderId}`)).status).toBe('pending')
    expect(app.store.settlementEntries.all()).toEqual([])
  })

  it('refuses PayByPayTo with a card token and PayByCard with a PayTo token', () => {
    const app = testApp()
    const { orderId, paymentTokenId } = payableOrder(app, 1000)
    expect(pay(app, orderId, { PayByCard: { paymentTokenId } }).body.errorCode).toBe('payment_method_mismatch')
    const card = cardToken(app, savedCard(app, customer(app)), 1000)
    expect(pay(app, orderId, { PayByPayTo: { paymentTokenId: card } }).body.errorCode).toBe('payment_method_mismatch')
  })

  it('lets a public key pay with a PayTo token, but not use a customer’s saved source', () => {
    const app = testApp()
    const { orderId, paymentTokenId } = payableOrder(app, 1000)
    ok(pay(app, orderId, { PayByPayTo: { paymentTokenId } }, KEYS.merchantPublicKey))
    const card = cardToken(app, savedCard(app, customer(app)), 1000)
    const refused = pay(app, order(app, 1000), { PayByCard: { paymentTokenId: card } }, KEYS.merchantPublicKey)
    expect([refused.status, refused.body.errorCode]).toEqual([403, 'customer_source_forbidden'])
    const source = [...app.store.sources.keys()][0] as string
    const tokenRefused = app.request('POST', '/tokens', {
      credential: KEYS.merchantPublicKey,
      body: { CreateSavedPaymentSourceToken: { paymentSourceId: source, amount: aud(1) } },
    })
    expect(tokenRefused.status).toBe(403)
  })
})

describe('card payments (test cards)', () => {
  it('has Luhn-valid test card numbers', () => {
    for (const number of Object.keys(TEST_CARDS)) expect(luhnValid(number), number).toBe(true)
  })

  it('accepts an approved card with the card surcharge', () => {
    const app = testApp()
    const token = cardToken(app, savedCard(app, customer(app)), 10_000)
    const paid = ok(pay(app, order(app, 10_000), { PayByCard: { paymentTokenId: token } })).PayOrderComplete
    expect(paid).toMatchObject({ transactionStatus: 'accepted', surchargeAmount: 110 })
    expect(paid.transactionDetails.paymentMethod).toMatchObject({ paymentMethodType: 'Card', paymentStatus: 'Captured', accountHint: 'Visa ending 4242' })
    expect(paid.transactionDetails.customerDetails).toMatchObject({ name: 'Jane Citizen', emailAddress: 'jane@example.com' })
    expect(app.store.settlementEntries.all()[0]?.amount.minorCurrencyUnits).toBe(10_110)
  })

  it('asks for 3DS when requested, then authorises only, captures, or cancels', () => {
    const app = testApp()
    const token = cardToken(app, savedCard(app, customer(app)), 2000)
    const orderId = order(app, 2000)
    const challenge = ok(pay(app, orderId, { PayByCard: { paymentTokenId: token, request3DS: true } }))
    expect(challenge.ThreeDSAuthorisationRequired.threeDSAuthorisationId).toMatch(/^threeds_/)
    expect(ok(app.request('GET', `/tokens/${token}`)).status).toBe('Unused')
    passChallenge(app, challenge.ThreeDSAuthorisationRequired.threeDSAuthorisationId)
    const done = ok(pay(app, orderId, { Confirm3DSComplete: { paymentTokenId: token, threeDSResponse: 'ok', authoriseOnly: true } })).PayOrderComplete
    expect(done.transactionStatus).toBe('not_captured')
    expect(app.store.settlementEntries.all()).toEqual([])
    const patch = (body: unknown) => app.request('PATCH', `/transactions/${done.transactionId}`, { body })
    expect(ok(patch({ CaptureFunds: {} })).purchaseDetails.status).toBe('accepted')
    expect(patch({ CaptureFunds: {} }).body.errorCode).toBe('transaction_not_capturable')
    const cancelled = ok(patch({ CancelAuthorisation: {} }))
    expect(cancelled.purchaseDetails.status).toBe('cancelled')
    expect(cancelled.paymentMethod.paymentStatus).toBe('Cancelled')
    const net = app.store.settlementEntries.all().reduce((sum, e) => sum + e.amount.minorCurrencyUnits, 0)
    expect(net).toBe(0)
    expect(ok(app.request('GET', `/orders/${orderId}`)).status).toBe('pending')
  })

  it('challenges the 3DS test card without being asked, and fails on a failed challenge', () => {
    const app = testApp()
    const token = cardToken(app, savedCard(app, customer(app), '4000000000003220'), 500)
    const orderId = order(app, 500)
    const challenge = ok(pay(app, orderId, { PayByPaymentToken: { paymentTokenId: token } })).ThreeDSAuthorisationRequired
    ok(app.request('POST', '/simulation', { body: { SetThreeDSOutcome: { threeDSAuthorisationId: challenge.threeDSAuthorisationId, outcome: 'failed' } } }))
    // The recorded outcome decides, not what the request says (field notes).
    const failed = pay(app, orderId, { Confirm3DSComplete: { paymentTokenId: token, threeDSResponse: { status: 'passed' } } })
    expect([failed.status, failed.body.errorCode]).toEqual([400, 'three_ds_failed'])
    expect(pay(app, orderId, { Confirm3DSComplete: { paymentTokenId: token, threeDSResponse: 'ok' } }).body.errorCode).toBe('three_ds_not_pending')
  })

  it('declines the decline test cards with status 400 and the decline code', () => {
    const app = testApp()
    const token = cardToken(app, savedCard(app, customer(app), '4000000000000002'), 500)
    const response = pay(app, order(app, 500), { PayByCard: { paymentTokenId: token } })
    expect([response.status, response.body.errorCode]).toEqual([400, 'do_not_honor'])
  })

  it('refuses invalid and expired cards when they are saved', () => {
    const app = testApp()
    const id = customer(app)
    const body = (cardNumber: string, expiryYear = 2030) => ({ CreateCardPaymentSource: { cardNumber, expiryMonth: 1, expiryYear, cvc: '123' } })
    expect(app.request('POST', '/sources', { body: body('4242424242424241'), headers: { 'Customer-Id': id } }).body.errorCode).toBe('invalid_card_number')
    expect(app.request('POST', '/sources', { body: body('4242424242424242', 2024), headers: { 'Customer-Id': id } }).body.errorCode).toBe('expired_card')
  })

  it('refuses CancelAuthorisation on a settled PayTo payment', () => {
    const app = testApp()
    const id = paidTransaction(app)
    const response = app.request('PATCH', `/transactions/${id}`, { body: { CancelAuthorisation: {} } })
    expect([response.status, response.body.errorCode]).toEqual([409, 'authorisation_not_cancellable'])
  })
})

describe('refunds', () => {
  it('refund partly, then the rest; refused beyond what remains', () => {
    const app = testApp()
    const id = paidTransaction(app, 10_000)
    const refund = (refundAmount: number) => app.request('PATCH', `/transactions/${id}`, { body: { CreateRefund: { refundAmount } } })
    const first = ok(refund(2500))
    expect(first.purchaseDetails).toMatchObject({ status: 'partially_refunded', refundedAmount: 2500 })
    app.clock.advance(60)
    const over = refund(7501)
    expect([over.status, over.body.errorCode]).toEqual([422, 'refund_exceeds_remaining'])
    const last = ok(refund(7500))
    expect(last.purchaseDetails).toMatchObject({ status: 'refunded', refundedAmount: 10_000 })
    expect(last.purchaseDetails.refundIds).toHaveLength(2)
    const refunds = last.timelines.filter((t: { eventType: string }) => t.eventType === 'PaymentRefunded')
    expect(refunds.map((t: { identifier: string; amount: number }) => [t.identifier, t.amount])).toEqual([
      [last.purchaseDetails.refundIds[0], 2500],
      [last.purchaseDetails.refundIds[1], 7500],
    ])
    expect(refund(1).body.errorCode).toBe('transaction_not_refundable')
    expect(app.store.refunds.all().map((r) => r.refundAmount.minorCurrencyUnits)).toEqual([2500, 7500])
    expect(app.store.settlementEntries.filter((e) => e.type === 'Refund').map((e) => e.amount.minorCurrencyUnits)).toEqual([-2500, -7500])
  })

  it('refuses zero and negative refunds', () => {
    const app = testApp()
    const id = paidTransaction(app)
    expect(app.request('PATCH', `/transactions/${id}`, { body: { CreateRefund: { refundAmount: 0 } } }).status).toBe(400)
  })
})

describe('transfers between merchants of the marketplace', () => {
  it('transfers part of a payment, reverses it, and writes both sides to the ledger', () => {
    const app = testApp()
    const id = paidTransaction(app, 10_000)
    const asMarketplace = (body: unknown) => app.request('PATCH', `/transactions/${id}`, { credential: KEYS.marketplaceApiKey, body })
    const moved = ok(asMarketplace({ TransferFunds: { amount: 4000, destinationMerchantId: SUB_MERCHANT } }))
    expect(moved.timelines.at(-1)).toMatchObject({ eventType: 'FundsTransferred', amount: 4000 })
    const transferId = ok(app.request('GET', `/transactions/${id}`)).transfers[0].transferId
    expect(asMarketplace({ TransferFunds: { amount: 6001, destinationMerchantId: SUB_MERCHANT } }).body.errorCode).toBe('transfer_exceeds_available')
    expect(app.request('PATCH', `/transactions/${id}`, { body: { TransferFunds: { amount: 1, destinationMerchantId: SUB_MERCHANT } } }).status).toBe(403)
    ok(asMarketplace({ ReverseFundsTransfer: { transferId, amount: 1000 } }))
    ok(asMarketplace({ ReverseFundsTransfer: { transferId } }))
    expect(asMarketplace({ ReverseFundsTransfer: { transferId } }).body.errorCode).toBe('transfer_already_reversed')
    const sub = app.store.settlementEntries.filter((e) => e.merchantId === SUB_MERCHANT)
    expect(sub.map((e) => [e.type, e.amount.minorCurrencyUnits])).toEqual([
      ['Transfer', 4000],
      ['TransferReversal', -1000],
      ['TransferReversal', -3000],
    ])
  })
})

describe('fees', () => {
  it('are 1.5 % + 30 plus 10 % GST, each rounded half away from zero', () => {
    expect(serviceFees(10_000)).toEqual({ variableAmount: 150, fixedAmount: 30, taxAmount: 18, totalAmount: 198 })
    expect(serviceFees(333)).toEqual({ variableAmount: 5, fixedAmount: 30, taxAmount: 4, totalAmount: 39 })
    expect(serviceFees(1)).toEqual({ variableAmount: 0, fixedAmount: 30, taxAmount: 3, totalAmount: 33 })
  })
})

describe('orders', () => {
  it('creates pay-by-link orders', () => {
    const app = testApp()
    for (const name of ['CreatePayByLinkOrder', 'CreatePayByLink']) {
      const made = ok(app.request('POST', '/orders', { body: { [name]: { amount: aud(100) } } })).PayByLinkOrder
      expect(made.order.orderType).toBe('paybylink')
      expect(made.payByLinkUrl).toBe(`http://127.0.0.1/checkout/paybylink/${made.order.orderId}`)
    }
  })

  it('changes the reference order id, also on its transaction', () => {
    const app = testApp()
    const { orderId, paymentTokenId } = payableOrder(app)
    const paid = ok(pay(app, orderId, { PayByPayTo: { paymentTokenId } })).PayOrderComplete
    expect(ok(app.request('PATCH', `/orders/${orderId}`, { body: { UpdateReferenceOrderId: { referenceOrderId: 'new-ref' } } })).referenceOrderId).toBe(
      'new-ref',
    )
    expect(ok(app.request('GET', `/transactions/${paid.transactionId}`)).purchaseDetails.referenceOrderId).toBe('new-ref')
  })

  it('cannot cancel a paid order; cancelling twice answers the order', () => {
    const app = testApp()
    const { orderId, paymentTokenId } = payableOrder(app)
    const other = order(app, 5)
    ok(app.request('DELETE', `/orders/${other}`))
    expect(ok(app.request('DELETE', `/orders/${other}`)).status).toBe('cancelled')
    ok(pay(app, orderId, { PayByPayTo: { paymentTokenId } }))
    expect(app.request('DELETE', `/orders/${orderId}`).body.errorCode).toBe('order_already_paid')
  })

  it('refuses items in another currency and a zero amount', () => {
    const app = testApp()
    const item = { amount: { minorCurrencyUnits: 1, currency: 'NZD' }, description: 'x', quantity: 1 }
    expect(app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(1), items: [item] } } }).body.errorCode).toBe('currency_mismatch')
    expect(app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(0) } } }).body.errorCode).toBe('invalid_amount')
  })

  it('lists with filters', () => {
    const app = testApp()
    const a = order(app, 100, { referenceOrderId: 'a' })
    app.clock.advance(10)
    const b = order(app, 200, { referenceOrderId: 'b' })
    ok(app.request('DELETE', `/orders/${a}`))
    const ids = (query: string) => ok(app.request('GET', `/orders${query}`)).map((o: { orderId: string }) => o.orderId)
    expect(ids('')).toEqual([b, a])
    expect(ids('?status=cancelled')).toEqual([a])
    expect(ids(`?orderId=${a}&orderId=${b}&sort=amount`)).toEqual([a, b])
    expect(ids('?referenceOrderId=b')).toEqual([b])
    expect(ids('?customerEmailAddress=NOBODY@example.com')).toEqual([])
    expect(ids('?createdAfter=2025-03-01T10:00:05Z')).toEqual([b])
    expect(ids('?createdBefore=2025-03-01T10:00:05.000Z')).toEqual([a])
    expect(app.request('GET', '/orders?createdAfter=yesterday').status).toBe(400)
  })
})

describe('transaction list', () => {
  it('filters by order, status and amount', () => {
    const app = testApp()
    const first = paidTransaction(app, 1000)
    const second = paidTransaction(app, 2000)
    ok(app.request('PATCH', `/transactions/${second}`, { body: { CreateRefund: { refundAmount: 1 } } }))
    const ids = (query: string) =>
      ok(app.request('GET', `/transactions${query}`)).map((t: { purchaseDetails: { transactionId: string } }) => t.purchaseDetails.transactionId)
    expect(ids('?sort=amount')).toEqual([first, second])
    expect(ids('?status=paid')).toEqual([first])
    expect(ids('?status=partially_refunded&status=paid&sort=-amount')).toEqual([second, first])
    expect(ids('?amount=2000')).toEqual([second])
    const orderId = app.store.transactions.get(first)?.orderId as string
    expect(ids(`?orderId=${orderId}`)).toEqual([first])
    expect(ids(`?merchantId=${SUB_MERCHANT}`)).toEqual([])
  })
})
