// Marketplaces, digital card issuing and the money-side simulations (blocked cards, manual
// payouts), over HTTP.
import { describe, expect, it } from 'vitest'
import { SEEDED_LOAN_ID } from '../../src/emulator/resources/loans.js'
import { MARKETPLACE, MERCHANT, SUB_MERCHANT } from './helpers.js'
import { asMarketplace, expectError, unanswered, useHttpEmulator } from './money-http.js'
import { routesUnder } from './contract-routes.js'

const http = useHttpEmulator()

const aud = (minorCurrencyUnits: number) => ({ minorCurrencyUnits, currency: 'AUD' })

describe('marketplaces', () => {
  it('shows the marketplace to its own credentials only', async () => {
    expect(await http.ok('GET', `/marketplaces/${MARKETPLACE}`, asMarketplace)).toMatchObject({
      marketplaceId: MARKETPLACE,
      name: 'Local Marketplace',
      merchantCount: 2,
      merchantIds: [MERCHANT, SUB_MERCHANT],
    })
    const asMerchant = await http.ok('GET', `/marketplaces/${MARKETPLACE}`)
    expect(asMerchant.marketplaceId).toBe(MARKETPLACE)
    expect(asMerchant.merchantIds).toBeUndefined()
    expectError(await http.call('GET', '/marketplaces/mktp_SomebodyElse0001', asMarketplace), 404, 'not_found')
  })

  it('upserts a marketplace customer once by e-mail address, and links the merchant customers of the same person', async () => {
    const first = await http.ok('POST', '/marketplaces/customer', { ...asMarketplace, body: { emailAddress: 'Sam@Example.com', givenName: 'Sam' } })
    expect(first).toMatchObject({
      marketplaceCustomerId: expect.stringMatching(/^mcust_[A-Za-z0-9_-]{16}$/),
      marketplaceId: MARKETPLACE,
      created: true,
      merchantCustomers: [],
    })
    const merchantCustomer = await http.ok('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: 'sam@example.com' } } })
    const again = await http.ok('POST', '/marketplaces/customer', { ...asMarketplace, body: { emailAddress: 'sam@example.com', familyName: 'Lee' } })
    expect(again).toMatchObject({
      marketplaceCustomerId: first.marketplaceCustomerId,
      created: false,
      givenName: 'Sam',
      familyName: 'Lee',
      merchantCustomers: [{ merchantId: MERCHANT, customerId: merchantCustomer.customerId }],
    })
    expectError(await http.call('POST', '/marketplaces/customer', { body: { emailAddress: 'x@example.com' } }), 403, 'marketplace_only')
    expectError(await http.call('POST', '/marketplaces/customer', { ...asMarketplace, body: { emailAddress: 'not an address' } }), 400, 'invalid_request')
    expectError(await http.call('POST', '/marketplaces/customer', { ...asMarketplace }), 400, 'missing_body')
  })
})

describe('digital cards', () => {
  it('issues cards on the loan within its credit limit, lists them, and moves them through their states', async () => {
    const card = await http.ok('POST', '/issuer/card', {
      body: { IssueDigitalCard: { cardholderName: 'Alex Builder', limit: aud(1_000_000), loanId: SEEDED_LOAN_ID } },
    })
    expect(card).toMatchObject({
      cardId: expect.stringMatching(/^card_[A-Za-z0-9_-]{16}$/),
      merchantId: MERCHANT,
      loanId: SEEDED_LOAN_ID,
      cardholderName: 'Alex Builder',
      brand: 'Visa',
      maskedPan: expect.stringMatching(/^\*\*\*\* \*\*\*\* \*\*\*\* \d{4}$/),
      expiryYear: 2028,
      expiryMonth: 3,
      limit: aud(1_000_000),
      status: 'Active',
    })
    expect(card.maskedPan.endsWith(card.last4)).toBe(true)
    expect(JSON.stringify(card)).not.toMatch(/\d{12,}/)

    expectError(
      await http.call('POST', '/issuer/card', { body: { IssueDigitalCard: { cardholderName: 'Too Much', limit: aud(4_000_001), loanId: SEEDED_LOAN_ID } } }),
      422,
      'card_limit_exceeds_loan',
    )
    expectError(
      await http.call('POST', '/issuer/card', {
        body: { IssueDigitalCard: { cardholderName: 'Wrong', limit: { minorCurrencyUnits: 100, currency: 'NZD' }, loanId: SEEDED_LOAN_ID } },
      }),
      422,
      'currency_mismatch',
    )
    expectError(
      await http.call('POST', '/issuer/card', {
        ...asMarketplace,
        headers: { 'Merchant-Id': SUB_MERCHANT },
        body: { IssueDigitalCard: { cardholderName: 'Sub', limit: aud(100), loanId: SEEDED_LOAN_ID } },
      }),
      404,
      'not_found',
    )
    expectError(await http.call('POST', '/issuer/card', { body: { IssueDigitalCard: { cardholderName: '', limit: aud(100) } } }), 400, 'invalid_request')
    expectError(await http.call('POST', '/issuer/card', { body: { cardholderName: 'No envelope', limit: aud(100) } }), 400)
    const unsecured = await http.ok('POST', '/issuer/card', { body: { IssueDigitalCard: { cardholderName: 'Petty Cash', limit: aud(50_000) } } })
    expect(unsecured.loanId).toBeNull()

    const suspended = await http.ok('POST', '/issuer/card', { body: { SuspendDigitalCard: { cardId: card.cardId } } })
    expect(suspended.status).toBe('Suspended')
    expectError(await http.call('POST', '/issuer/card', { body: { SuspendDigitalCard: { cardId: card.cardId } } }), 409, 'card_status_conflict')
    expect((await http.ok('POST', '/issuer/card', { body: { ResumeDigitalCard: { cardId: card.cardId } } })).status).toBe('Active')
    expect((await http.ok('POST', '/issuer/card', { body: { UpdateDigitalCardLimit: { cardId: card.cardId, limit: aud(4_000_000) } } })).limit).toEqual(
      aud(4_000_000),
    )
    expectError(
      await http.call('POST', '/issuer/card', { body: { UpdateDigitalCardLimit: { cardId: card.cardId, limit: aud(5_000_001) } } }),
      422,
      'card_limit_exceeds_loan',
    )
    expect((await http.ok('POST', '/issuer/card', { body: { CancelDigitalCard: { cardId: card.cardId } } })).status).toBe('Cancelled')
    expectError(await http.call('POST', '/issuer/card', { body: { ResumeDigitalCard: { cardId: card.cardId } } }), 409, 'card_status_conflict')
    expectError(await http.call('POST', '/issuer/card', { body: { CancelDigitalCard: { cardId: 'card_doesNotExist0000' } } }), 404, 'not_found')

    const list = await http.call('GET', '/issuer/card?sort=createdAt')
    expect(list.headers.get('total-record-count')).toBe('2')
    expect(list.body.map((c: { cardId: string }) => c.cardId)).toEqual([card.cardId, unsecured.cardId])
    expect((await http.ok('GET', '/issuer/card?status=Active')).map((c: { cardId: string }) => c.cardId)).toEqual([unsecured.cardId])
    expect(await http.ok('GET', `/issuer/card?loanId=${SEEDED_LOAN_ID}`)).toHaveLength(1)
    expect(await http.ok('GET', '/issuer/card', { ...asMarketplace, headers: { 'Merchant-Id': SUB_MERCHANT } })).toEqual([])
    expect((await http.ok('GET', '/loans')).find((l: { loanId: string }) => l.loanId === SEEDED_LOAN_ID).cardCount).toBe(0)
  })
})

describe('money-side simulations', () => {
  it('raises a blocked-card event for a saved card, seen in GET /sources/blockedcards', async () => {
    const customer = await http.ok('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: 'card@example.com' } } })
    const source = await http.ok('POST', '/sources', {
      headers: { 'Customer-Id': customer.customerId },
      body: { CreateCardPaymentSource: { cardNumber: '4242 4242 4242 4242', expiryMonth: 12, expiryYear: 2040, cvc: '123' } },
    })
    const blocked = await http.simulate({ RaiseBlockedCardEvent: { paymentSourceId: source.paymentSourceId, reason: 'Reported stolen' } })
    expect(blocked).toMatchObject({
      cardBlockId: expect.stringMatching(/^cblk_/),
      paymentSourceId: source.paymentSourceId,
      cardHint: 'Visa ending 4242',
      reason: 'Reported stolen',
      status: 'Blocked',
    })
    expect((await http.ok('GET', '/sources/blockedcards')).map((b: { cardBlockId: string }) => b.cardBlockId)).toContain(blocked.cardBlockId)
    expectError(
      await http.call('POST', '/simulation', { body: { RaiseBlockedCardEvent: { paymentSourceId: source.paymentSourceId } } }),
      409,
      'card_already_blocked',
    )
    expectError(await http.call('POST', '/simulation', { body: { RaiseBlockedCardEvent: { paymentSourceId: 'psrc_doesNotExist000' } } }), 404, 'not_found')
  })

  it('turns manual payouts on for a merchant', async () => {
    expectError(
      await http.call('POST', '/transactions/payouts', { ...asMarketplace, headers: { 'Merchant-Id': SUB_MERCHANT }, body: {} }),
      409,
      'manual_payouts_disabled',
    )
    const merchant = await http.simulate({ SetMerchantManualPayouts: { merchantId: SUB_MERCHANT, enabled: true } }, asMarketplace)
    expect(merchant.manualPayoutsEnabled).toBe(true)
    expectError(
      await http.call('POST', '/transactions/payouts', { ...asMarketplace, headers: { 'Merchant-Id': SUB_MERCHANT }, body: {} }),
      422,
      'insufficient_balance',
    )
    expectError(await http.call('POST', '/simulation', { body: { SetMerchantManualPayouts: { merchantId: SUB_MERCHANT, enabled: true } } }), 404, 'not_found')
  })
})

describe('coverage', () => {
  it('answered 2xx over HTTP on every marketplace and card operation', () => {
    expect(unanswered(http, routesUnder('/marketplaces', '/issuer'))).toEqual([])
  })
})
