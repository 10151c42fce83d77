// The payplans topic against the emulator (each answer as JSON and as a table), and the checks
// that refuse bad input before anything is sent.
import { describe, expect, it } from 'vitest'

import { isPayPlanVariant } from '../../src/cli/requests/payplans.js'
import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'
import { advanceClock, newCustomer } from '../helpers/flows.js'

const { payfac, json } = useEmulator()

describe('pay plans against the emulator', () => {
  it('offers, creates a plan, pays an order with its token, and shows the plan', async () => {
    const customerId = await newCustomer(json, { verified: true })
    const offer = await json(
      'payplans',
      'offer',
      '--customer-id',
      customerId,
      '--amount',
      '400',
      '--currency',
      'AUD',
      '--initial-payment',
      '100',
      '--variant',
      'payplan_3_monthly_payments',
    )
    expect(offer).toMatchObject({
      customerId,
      amount: { minorCurrencyUnits: 40000, currency: 'AUD' },
      initialPayment: 10000,
      payPlanVariant: 'payplan_3_monthly_payments',
      status: 'Offered',
    })
    expect(offer.instalments).toHaveLength(4)

    const offerTable = await payfac(
      'payplans',
      'offer',
      '--customer-id',
      customerId,
      '--amount',
      '80',
      '--currency',
      'AUD',
      '--variant',
      'payplan_4_weekly_payments',
    )
    expect(offerTable.code, offerTable.stderr).toBe(0)
    expect(offerTable.stdout).toMatch(/Amount\s+80\.00 AUD/)
    expect(offerTable.stdout).toMatch(/Initial payment\s+0\.00 AUD/)
    expect(offerTable.stdout).toMatch(/Instalments\s+4/)
    expect(offerTable.stdout).toMatch(/Schedule\s+\d{4}-\d\d-\d\d 20\.00 AUD; /)

    const plan = await json('payplans', 'create', '--customer-id', customerId, '--offer', offer.offerId)
    expect(plan).toMatchObject({ offerId: offer.offerId, customerId, status: 'Pending' })
    expect(plan.paymentTokenId).toMatch(/^ptkn_/)

    const order = await json('orders', 'create', '--amount', '400', '--currency', 'AUD', '--reference', 'plan-1')
    const paid = await json('orders', 'pay', order.orderId, '--token', plan.paymentTokenId, '--method', 'payment-token')
    expect(paid.transactionStatus).toBeTruthy()

    const got = await json('payplans', 'get', plan.payPlanId)
    expect(got).toMatchObject({ payPlanId: plan.payPlanId, status: 'Active', orderId: order.orderId })
    const table = await payfac('payplans', 'get', plan.payPlanId)
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/Status\s+Active/)
    expect(table.stdout).toContain('400.00 AUD')

    const listed = await json('payplans', 'list', '--customer', customerId)
    expect(listed.map((p: { payPlanId: string }) => p.payPlanId)).toEqual([plan.payPlanId])
    const listTable = await payfac('payplans', 'list', '--status', 'Active', '--variant', 'payplan_3_monthly_payments')
    expect(listTable.stdout).toContain(plan.payPlanId)

    const reused = await payfac('payplans', 'create', '--customer-id', customerId, '--offer', offer.offerId)
    expect(reused.code).toBe(6)
  })

  it('refuses a plan from an offer older than 10 minutes (exit 6)', async () => {
    const customerId = await newCustomer(json, { verified: true })
    const offer = await json('payplans', 'offer', '--customer-id', customerId, '--amount', '50', '--currency', 'AUD', '--variant', 'payplan_fortnight_0_100')
    await advanceClock(json, 601)
    const late = await payfac('payplans', 'create', '--customer-id', customerId, '--offer', offer.offerId)
    expect(late.code).toBe(6)
    expect(late.stderr).toMatch(/offer_expired/)
  })

  it('refuses an offer to a customer who has not passed KYC (exit 6)', async () => {
    const result = await payfac(
      'payplans',
      'offer',
      '--customer-id',
      await newCustomer(json, { verified: false }),
      '--amount',
      '50',
      '--currency',
      'AUD',
      '--variant',
      'payplan_4_weekly_payments',
    )
    expect(result.code).toBe(6)
    expect(result.stderr).toMatch(/customer_not_verified/)
  })

  it('shows what a customer may still borrow', async () => {
    const customerId = await newCustomer(json, { verified: true })
    const max = await json('payplans', 'max', '--customer-id', customerId)
    expect(max).toMatchObject({ customerId, eligible: true })
    const table = await payfac('payplans', 'max', '--customer-id', customerId)
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/Eligible\s+yes/)
    expect(table.stdout).toMatch(/Maximum\s+\d+\.\d\d AUD/)
  })

  it('shows the parameters of some variants (beta), one row each', async () => {
    const answer = await json(
      'payplans',
      'parameters',
      '--amount',
      '120',
      '--currency',
      'AUD',
      '--variant',
      'payplan_3_monthly_payments',
      '--variant',
      'payplan_4_weekly_payments',
    )
    expect(answer.parameters.map((p: { payPlanVariant: string }) => p.payPlanVariant)).toEqual(['payplan_3_monthly_payments', 'payplan_4_weekly_payments'])
    const table = await payfac('payplans', 'parameters', '--amount', '120', '--currency', 'AUD', '--variant', 'payplan_3_monthly_payments')
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('payplan_3_monthly_payments')
    expect(table.stdout).toContain('120.00 AUD')
  })
})

describe('pay plan variants of the field notes', () => {
  it.each(['payplan_2_monthly_payments', 'payplan_12_monthly_payments', 'payplan_fortnight_25_25_25_25', 'payplan_30_days_0_100'])('accepts %s', (variant) => {
    expect(isPayPlanVariant(variant)).toBe(true)
  })
  it.each(['payplan_1_monthly_payments', 'payplan_13_monthly_payments', 'payplan_02_monthly_payments', 'payplan_5_weekly_payments', ''])(
    'refuses "%s"',
    (variant) => {
      expect(isPayPlanVariant(variant)).toBe(false)
    },
  )
})

describe('bad input exits 2 and sends nothing', () => {
  const recording = useRecordingServer(() => ({ status: 200, body: { offerId: 'offer_AAAAAAAAAAAAAAAA' } }))
  const { cli, server } = recording
  const CUSTOMER = ['--customer-id', 'cust_ZqCNoNcm_22WeZ-j']
  const OFFER = ['--amount', '400', '--currency', 'AUD']

  const cases: RefusalCase[] = [
    ['an unknown variant', ['payplans', 'offer', ...CUSTOMER, ...OFFER, '--variant', 'payplan_weekly'], /not a pay plan variant/],
    ['13 monthly payments', ['payplans', 'offer', ...CUSTOMER, ...OFFER, '--variant', 'payplan_13_monthly_payments'], /N from 2 to 12/],
    ['1 monthly payment', ['payplans', 'offer', ...CUSTOMER, ...OFFER, '--variant', 'payplan_1_monthly_payments'], /not a pay plan variant/],
    ['an offer without a variant', ['payplans', 'offer', ...CUSTOMER, ...OFFER], /--variant/],
    ['an offer without an amount', ['payplans', 'offer', ...CUSTOMER, '--variant', 'payplan_4_weekly_payments'], /--amount/],
    ['an offer without a customer', ['payplans', 'offer', ...OFFER, '--variant', 'payplan_4_weekly_payments'], /one customer/],
    [
      'an initial payment above the amount',
      ['payplans', 'offer', ...CUSTOMER, ...OFFER, '--initial-payment', '400.01', '--variant', 'payplan_4_weekly_payments'],
      /more than the amount/,
    ],
    [
      'an initial payment with too many decimals',
      ['payplans', 'offer', ...CUSTOMER, ...OFFER, '--initial-payment', '1.001', '--variant', 'payplan_4_weekly_payments'],
      /decimal places/,
    ],
    [
      'an offer body the contract refuses',
      ['payplans', 'offer', ...CUSTOMER, '--data', '{"amount":{"minorCurrencyUnits":100,"currency":"AUD"},"payPlanVariant":"payplan_4_weekly_payments"}'],
      /initialPayment/,
    ],
    ['a previous-generation field in an offer', ['payplans', 'offer', ...CUSTOMER, '--data', '{"internalCustomerId":"x"}'], /referenceCustomerId/],
    ['a plan without --offer', ['payplans', 'create', ...CUSTOMER], /--offer/],
    ['a plan without a customer', ['payplans', 'create', '--offer', 'offer_A'], /one customer/],
    ['the maximum without a customer', ['payplans', 'max'], /one customer/],
    ['parameters without an amount', ['payplans', 'parameters', '--variant', 'payplan_4_weekly_payments'], /--amount/],
    ['parameters of an unknown variant', ['payplans', 'parameters', ...OFFER, '--variant', 'payplan_0_monthly_payments'], /not a pay plan variant/],
    ['a list filter of an unknown variant', ['payplans', 'list', '--variant', 'weekly'], /not a pay plan variant/],
  ]

  itRefusesBeforeSending(cases, recording)

  it('sends the offer of the contract, the customer in the Customer-Id header', async () => {
    const result = await cli('payplans', 'offer', ...CUSTOMER, ...OFFER, '--initial-payment', '50.5', '--variant', 'payplan_12_monthly_payments')
    expect(result.code, result.stderr).toBe(0)
    const [request] = server.requests
    expect(request?.path).toBe('/payplans/offer')
    expect(request?.headers['customer-id']).toBe('cust_ZqCNoNcm_22WeZ-j')
    expect(request?.json).toEqual({
      amount: { minorCurrencyUnits: 40000, currency: 'AUD' },
      initialPayment: 5050,
      payPlanVariant: 'payplan_12_monthly_payments',
    })
  })
})
