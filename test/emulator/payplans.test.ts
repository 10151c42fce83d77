// Pay plans over HTTP: offers (customer rules, 10-minute validity), pay plans and their payment
// token paying an order, eligibility, parameters per variant.
import { beforeAll, describe, expect, it } from 'vitest'
import { PAYPLAN_VARIANTS, schedule } from '../../src/emulator/resources/payplans.js'
import { KEYS, MERCHANT, SUB_MERCHANT } from './helpers.js'
import { expectError, unanswered, useHttpEmulator } from './money-http.js'
import { routesUnder } from './contract-routes.js'

// With a payment token lifetime (off by default), so that an unused pay plan token lapses its plan.
const http = useHttpEmulator(undefined, { paymentTokenLifetimeSeconds: 30 * 60 })
let verified: string
let unverified: string
let other: string

beforeAll(async () => {
  const upsert = async (emailAddress: string, isVerified: boolean) =>
    (await http.ok('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress, givenName: 'Pat', isVerified } } })).customerId as string
  verified = await upsert('pat@example.com', true)
  unverified = await upsert('new@example.com', false)
  other = await upsert('other@example.com', true)
})

const aud = (minorCurrencyUnits: number) => ({ minorCurrencyUnits, currency: 'AUD' })
const offerBody = (amount: number, payPlanVariant = 'payplan_4_weekly_payments', initialPayment = 0) => ({
  amount: aud(amount),
  initialPayment,
  payPlanVariant,
})
const as = (customerId: string) => ({ headers: { 'Customer-Id': customerId } })
const total = (instalments: Array<{ amount: { minorCurrencyUnits: number } }>) => instalments.reduce((s, i) => s + i.amount.minorCurrencyUnits, 0)

async function order(amount: number, options = {}): Promise<string> {
  return (await http.ok('POST', '/orders', { ...options, body: { CreateOnlineOrder: { amount: aud(amount), referenceOrderId: `pp-${amount}` } } })).OnlineOrder
    .order.orderId
}

describe('offers', () => {
  it('need a customer: the Customer-Id header, customerId, or a customer token (400 otherwise)', async () => {
    expectError(await http.call('POST', '/payplans/offer', { body: offerBody(40_000) }), 400, 'customer_required')
    const byHeader = await http.ok('POST', '/payplans/offer', { ...as(verified), body: offerBody(40_000) })
    expect(byHeader).toMatchObject({
      offerId: expect.stringMatching(/^offer_[A-Za-z0-9_-]{16}$/),
      customerId: verified,
      merchantId: MERCHANT,
      status: 'Offered',
    })
    expect(Date.parse(byHeader.expiresAt) - Date.parse(byHeader.createdAt)).toBe(600_000)
    expect(total(byHeader.instalments)).toBe(40_000)
    expect((await http.ok('POST', '/payplans/offer', { body: { ...offerBody(40_000), customerId: verified } })).customerId).toBe(verified)
    expectError(await http.call('POST', '/payplans/offer', { ...as(verified), body: { ...offerBody(40_000), customerId: other } }), 400, 'customer_mismatch')

    const signIn = await http.ok('POST', '/auth/signin', { body: { SignInConsumer: { customerId: verified } } })
    const asCustomer = { credential: signIn.customToken as string }
    expect((await http.ok('POST', '/payplans/offer', { ...asCustomer, body: offerBody(1_000) })).customerId).toBe(verified)
    expectError(await http.call('POST', '/payplans/offer', { ...asCustomer, body: { ...offerBody(1_000), customerId: other } }), 403, 'context_forbidden')
    expectError(await http.call('POST', '/payplans/offer', { credential: KEYS.merchantPublicKey, body: offerBody(1_000) }), 403)
  })

  it('are for KYC’d customers, known variants, AUD, and within the customer’s limit (422)', async () => {
    expectError(await http.call('POST', '/payplans/offer', { ...as(unverified), body: offerBody(10_000) }), 422, 'customer_not_verified')
    expectError(
      await http.call('POST', '/payplans/offer', { ...as(verified), body: offerBody(10_000, 'payplan_13_monthly_payments') }),
      422,
      'unknown_pay_plan_variant',
    )
    expectError(
      await http.call('POST', '/payplans/offer', { ...as(verified), body: offerBody(10_000, 'payplan_4_weekly_payments', 10_001) }),
      422,
      'invalid_initial_payment',
    )
    expectError(
      await http.call('POST', '/payplans/offer', { ...as(verified), body: { ...offerBody(10_000), amount: { minorCurrencyUnits: 10_000, currency: 'USD' } } }),
      422,
      'unsupported_currency',
    )
    expectError(await http.call('POST', '/payplans/offer', { ...as(verified), body: offerBody(250_000) }), 422, 'pay_plan_limit_exceeded')
    expectError(await http.call('POST', '/payplans/offer', { ...as(verified), body: { ...offerBody(10_000), initialPayment: -1 } }), 400, 'invalid_request')
    expect(
      (await http.call('POST', '/payplans/offer', { ...as(verified), body: { ...offerBody(10_000), term: 4 } })).headers.get('emulator-warning'),
    ).toContain('"term"')
  })
})

describe('pay plans', () => {
  it('are made from an offer with a payment token that pays an order of the same amount and merchant', async () => {
    const offer = await http.ok('POST', '/payplans/offer', { ...as(verified), body: offerBody(12_000, 'payplan_fortnight_25_25_25_25', 2_000) })
    expectError(await http.call('POST', '/payplans', { body: { offerId: offer.offerId } }), 400, 'customer_required')
    expectError(await http.call('POST', '/payplans', { ...as(other), body: { offerId: offer.offerId } }), 403, 'offer_customer_mismatch')
    expectError(await http.call('POST', '/payplans', { ...as(verified), body: { offerId: 'offer_doesNotExist000' } }), 404, 'not_found')

    const plan = await http.ok('POST', '/payplans', { ...as(verified), body: { offerId: offer.offerId } })
    expect(plan).toMatchObject({
      payPlanId: expect.stringMatching(/^pp_[A-Za-z0-9_-]{16}$/),
      offerId: offer.offerId,
      customerId: verified,
      status: 'Pending',
      amount: aud(12_000),
      initialPayment: 2_000,
      financedAmount: aud(10_000),
      payPlanVariant: 'payplan_fortnight_25_25_25_25',
      paymentToken: {
        paymentTokenId: expect.stringMatching(/^ptkn_/),
        amount: aud(12_000),
        payType: 'payplan',
        payPlanVariant: 'payplan_fortnight_25_25_25_25',
      },
    })
    expect(
      plan.instalments.map((i: { kind: string; dueOn: string; amount: { minorCurrencyUnits: number } }) => [i.kind, i.dueOn, i.amount.minorCurrencyUnits]),
    ).toEqual([
      ['InitialPayment', '2025-03-10', 2_000],
      ['Instalment', '2025-03-10', 2_500],
      ['Instalment', '2025-03-24', 2_500],
      ['Instalment', '2025-04-07', 2_500],
      ['Instalment', '2025-04-21', 2_500],
    ])
    expectError(await http.call('POST', '/payplans', { ...as(verified), body: { offerId: offer.offerId } }), 409, 'offer_already_used')

    const tokenId = plan.paymentToken.paymentTokenId
    expect(await http.ok('GET', `/tokens/${tokenId}`)).toMatchObject({
      payType: 'payplan',
      payPlanVariant: 'payplan_fortnight_25_25_25_25',
      method: 'PayPlan',
      customerId: verified,
    })
    expectError(
      await http.call('POST', `/orders/${await order(11_999)}/pay`, { body: { PayByPaymentToken: { paymentTokenId: tokenId } } }),
      422,
      'amount_mismatch',
    )
    const subOrder = await order(12_000, { credential: KEYS.marketplaceApiKey, headers: { 'Merchant-Id': SUB_MERCHANT } })
    expectError(
      await http.call('POST', `/orders/${subOrder}/pay`, {
        credential: KEYS.marketplaceApiKey,
        headers: { 'Merchant-Id': SUB_MERCHANT },
        body: { PayByPaymentToken: { paymentTokenId: tokenId } },
      }),
      404,
      'not_found',
    )
    const orderId = await order(12_000)
    expectError(await http.call('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId: tokenId } } }), 422, 'payment_method_mismatch')

    const paid = (await http.ok('POST', `/orders/${orderId}/pay`, { body: { PayByPaymentToken: { paymentTokenId: tokenId } } })).PayOrderComplete
    expect(paid).toMatchObject({ transactionStatus: 'paid', payType: 'payplan', amount: 12_000, surchargeAmount: 0 })
    expect(paid.transactionDetails.purchaseDetails.payType).toBe('PayPlan')
    expect(paid.transactionDetails.paymentMethod).toMatchObject({ paymentMethodType: 'PayPlan', paymentStatus: 'Settled' })
    expectError(
      await http.call('POST', `/orders/${await order(12_000)}/pay`, { body: { PayByPaymentToken: { paymentTokenId: tokenId } } }),
      409,
      'payment_token_used',
    )

    const active = await http.ok('GET', `/payplans/${plan.payPlanId}`)
    expect(active).toMatchObject({ status: 'Active', orderId, transactionId: paid.transactionId, paidAmount: aud(4_500), outstandingAmount: aud(7_500) })
    expect(active.instalments.map((i: { status: string }) => i.status)).toEqual(['Paid', 'Paid', 'Scheduled', 'Scheduled', 'Scheduled'])

    await http.simulate({ AdvanceClock: { seconds: 45 * 86_400 } })
    expect(await http.ok('GET', `/payplans/${plan.payPlanId}`)).toMatchObject({ status: 'Completed', paidAmount: aud(12_000), outstandingAmount: aud(0) })
  })

  it('refuses a pay plan from an offer older than 10 minutes (409 after 601 s)', async () => {
    const offer = await http.ok('POST', '/payplans/offer', { ...as(verified), body: offerBody(5_000) })
    await http.simulate({ AdvanceClock: { seconds: 601 } })
    const late = await http.call('POST', '/payplans', { ...as(verified), body: { offerId: offer.offerId } })
    expectError(late, 409, 'offer_expired')
    const fresh = await http.ok('POST', '/payplans/offer', { ...as(verified), body: offerBody(5_000) })
    await http.simulate({ AdvanceClock: { seconds: 599 } })
    expect((await http.ok('POST', '/payplans', { ...as(verified), body: { offerId: fresh.offerId } })).status).toBe('Pending')
  })

  it('lists and reads pay plans; a customer sees only their own; an unused token lapses the plan', async () => {
    const offer = await http.ok('POST', '/payplans/offer', { ...as(other), body: offerBody(3_000, 'payplan_30_days_0_100') })
    const plan = await http.ok('POST', '/payplans', { ...as(other), body: { offerId: offer.offerId } })
    const list = await http.call('GET', `/payplans?customerId=${other}`)
    expect(list.body.map((p: { payPlanId: string }) => p.payPlanId)).toEqual([plan.payPlanId])
    expect(list.headers.get('total-record-count')).toBe('1')
    expect((await http.ok('GET', '/payplans?status=Completed')).length).toBe(1)

    const signIn = await http.ok('POST', '/auth/signin', { body: { SignInConsumer: { customerId: verified } } })
    const mine = await http.ok('GET', '/payplans', { credential: signIn.customToken })
    expect(mine.every((p: { customerId: string }) => p.customerId === verified)).toBe(true)
    expectError(await http.call('GET', `/payplans/${plan.payPlanId}`, { credential: signIn.customToken }), 404, 'not_found')

    await http.simulate({ AdvanceClock: { seconds: 31 * 60 } })
    expect((await http.ok('GET', `/payplans/${plan.payPlanId}`)).status).toBe('Cancelled')
  })
})

describe('eligibility and parameters', () => {
  it('answers the maximum a customer may borrow now, deterministically', async () => {
    const fresh = await http.ok('POST', '/payplans/max', { ...as(other), body: {} })
    expect(fresh).toMatchObject({ customerId: other, eligible: true, maxAmount: aud(200_000), outstanding: aud(0), reason: null })
    const offer = await http.ok('POST', '/payplans/offer', { ...as(other), body: offerBody(50_000, 'payplan_3_monthly_payments', 5_000) })
    await http.ok('POST', '/payplans', { ...as(other), body: { offerId: offer.offerId } })
    expect(await http.ok('POST', '/payplans/max', { ...as(other) })).toMatchObject({ maxAmount: aud(155_000), outstanding: aud(45_000) })
    expect(await http.ok('POST', '/payplans/max', { ...as(unverified), body: {} })).toMatchObject({
      eligible: false,
      maxAmount: aud(0),
      reason: 'customer_not_verified',
    })
    expectError(await http.call('POST', '/payplans/max', { body: {} }), 400, 'customer_required')
  })

  it('gives the schedule of every variant, adding up to the amount', async () => {
    const answer = await http.ok('POST', '/payplans/parameters', { credential: KEYS.merchantPublicKey, body: { amount: aud(10_001), initialPayment: 1 } })
    expect(answer.parameters.map((p: { payPlanVariant: string }) => p.payPlanVariant)).toEqual(PAYPLAN_VARIANTS)
    for (const p of answer.parameters) expect(total(p.instalments), p.payPlanVariant).toBe(10_001)
    const monthly = answer.parameters.find((p: { payPlanVariant: string }) => p.payPlanVariant === 'payplan_12_monthly_payments')
    expect(monthly).toMatchObject({ frequency: 'Monthly', instalmentCount: 12, lastDueOn: expect.stringMatching(/^2026-0/) })
    const some = await http.ok('POST', '/payplans/parameters', { body: { amount: aud(1_000), payPlanVariants: ['payplan_7_week_0_100'] } })
    expect(some.parameters[0]).toMatchObject({ frequency: 'Deferred', instalmentCount: 1, instalments: [{ dayOffset: 49, amount: aud(1_000) }] })
    expectError(
      await http.call('POST', '/payplans/parameters', { body: { amount: aud(1_000), payPlanVariants: ['payplan_weird'] } }),
      422,
      'unknown_pay_plan_variant',
    )
    expectError(await http.call('POST', '/payplans/parameters', { body: { amount: aud(1_000), payPlanVariants: [] } }), 400, 'invalid_request')
  })

  it('keeps monthly due dates inside short months', () => {
    const plan = schedule('payplan_3_monthly_payments', aud(300), 0, new Date('2025-01-31T08:00:00Z'))
    expect(plan.map((i) => i.dueOn)).toEqual(['2025-01-31', '2025-02-28', '2025-03-31'])
  })
})

describe('coverage', () => {
  it('answered 2xx over HTTP on every pay plan operation', () => {
    expect(unanswered(http, routesUnder('/payplans'))).toEqual([])
  })
})
