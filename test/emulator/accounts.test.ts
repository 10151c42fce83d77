// Customers, delegates, KYC, sign-in, service tokens, saved sources, blocked cards, simulation.
import { describe, expect, it } from 'vitest'
import { KEYS, MARKETPLACE, MERCHANT, SUB_MERCHANT, aud, oneOffAgreementBody, ok, openAgreementBody, testApp } from './helpers.js'

type App = ReturnType<typeof testApp>

const upsertConsumer = (app: App, fields: Record<string, unknown>, options: { credential?: string; headers?: Record<string, string> } = {}) =>
  ok(app.request('POST', '/customers', { ...options, body: { UpsertConsumerCustomer: fields } }))

function organisation(app: App, referenceCustomerId = 'ORG-1'): string {
  return ok(app.request('POST', '/customers', { body: { UpsertOrganisationCustomer: { referenceCustomerId, organisationName: 'Acme Pty Ltd' } } })).customerId
}

function delegate(app: App, customerId: string, emailAddress = 'pat@acme.example'): string {
  return ok(app.request('POST', '/customers/delegates', { body: { customerId, emailAddress, givenName: 'Pat' } })).customerDelegateId
}

describe('customers', () => {
  it('upserts a consumer by e-mail address per merchant', () => {
    const app = testApp()
    const first = upsertConsumer(app, { emailAddress: 'Jane@Example.com', givenName: 'Jane' })
    expect(first).toEqual({ customerId: expect.stringMatching(/^cust_[A-Za-z0-9_-]{16}$/), merchantId: MERCHANT })
    const again = upsertConsumer(app, { emailAddress: 'jane@example.com', familyName: 'Citizen', phoneNumber: '+61401234567' })
    expect(again.customerId).toBe(first.customerId)
    expect(ok(app.request('GET', `/customers/${first.customerId}`))).toMatchObject({
      emailAddress: 'jane@example.com',
      givenName: 'Jane',
      familyName: 'Citizen',
      phoneNumber: '+61401234567',
      customerType: 'Consumer',
    })
    const sub = upsertConsumer(app, { emailAddress: 'jane@example.com' }, { credential: KEYS.marketplaceApiKey, headers: { 'Merchant-Id': SUB_MERCHANT } })
    expect(sub.customerId).not.toBe(first.customerId)
    expect(sub.merchantId).toBe(SUB_MERCHANT)
  })

  it('upserts an organisation by referenceCustomerId', () => {
    const app = testApp()
    const id = organisation(app, 'ORG-7')
    expect(organisation(app, 'ORG-7')).toBe(id)
    expect(organisation(app, 'ORG-8')).not.toBe(id)
    const unknown = app.request('POST', '/customers', { body: { UpsertOrganisationCustomer: { referenceCustomerId: 'X', size: 'big' } } })
    expect(unknown.headers['Emulator-Warning']).toContain('"UpsertOrganisationCustomer.size"')
    expect(ok(app.request('GET', `/customers/${ok(unknown).customerId}`)).size).toBe('big')
  })

  it('lists with the filters of real integrations', () => {
    const app = testApp()
    const a = upsertConsumer(app, { emailAddress: 'a@example.com', givenName: 'Ann', familyName: 'Lee' }).customerId
    app.clock.advance(1)
    const b = upsertConsumer(app, { emailAddress: 'b@example.com', givenName: 'Bob' }).customerId
    const c = upsertConsumer(
      app,
      { emailAddress: 'c@example.com' },
      { credential: KEYS.marketplaceApiKey, headers: { 'Merchant-Id': SUB_MERCHANT } },
    ).customerId
    const ids = (query: string, credential?: string) =>
      ok(app.request('GET', `/customers${query}`, credential ? { credential } : {})).map((x: { customerId: string }) => x.customerId)
    expect(ids('')).toEqual([b, a])
    expect(ids('?emailAddress=a@example.com&emailAddress=B@example.com&sort=emailAddress')).toEqual([a, b])
    expect(ids('?name=lee')).toEqual([a])
    expect(ids(`?customerId=${b}`)).toEqual([b])
    expect(ids('', KEYS.marketplaceApiKey)).toEqual([c, b, a])
    expect(ids(`?merchantId=${SUB_MERCHANT}`, KEYS.marketplaceApiKey)).toEqual([c])
    const page = app.request('GET', '/customers?limit=1&page=2&sort=createdAt')
    expect(page.body.map((x: { customerId: string }) => x.customerId)).toEqual([b])
    expect(page.headers).toMatchObject({ 'Page-Count': '2', 'Total-Record-Count': '2' })
  })

  it('asks for more KYC details until they are all given', () => {
    const app = testApp()
    const { customerId } = upsertConsumer(app, { emailAddress: 'k@example.com' })
    const first = ok(app.request('POST', '/customers/kyc', { body: { customerId, dateOfBirth: '1990-01-01' } }))
    expect(first).toEqual({ customerId, kycStatus: 'MoreDetailsRequired', requiredDetails: ['address', 'identityDocument'] })
    const address = { line1: '1 George St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' }
    const done = ok(
      app.request('POST', '/customers/kyc', {
        headers: { 'Customer-Id': customerId },
        body: { address, identityDocument: { documentType: 'Passport', documentNumber: 'PA123' } },
      }),
    )
    expect(done).toEqual({ customerId, kycStatus: 'Verified', requiredDetails: [] })
    expect(ok(app.request('GET', `/customers/${customerId}`)).isVerified).toBe(true)
    expect(app.request('POST', '/customers/kyc', { body: {} }).body.errorCode).toBe('customer_required')
  })
})

describe('delegates', () => {
  it('are upserted for an organisation, linked to another one, listed and deleted', () => {
    const app = testApp()
    const org = organisation(app, 'ORG-1')
    const other = organisation(app, 'ORG-2')
    const id = delegate(app, org)
    expect(delegate(app, org)).toBe(id)
    const consumer = upsertConsumer(app, { emailAddress: 'c@example.com' }).customerId
    expect(app.request('POST', '/customers/delegates', { body: { customerId: consumer, emailAddress: 'x@example.com' } }).body.errorCode).toBe(
      'not_an_organisation',
    )
    expect(app.request('POST', '/customers/delegates', { body: { customerId: other, emailAddress: 'pat@acme.example' } }).body.errorCode).toBe(
      'delegate_linked_elsewhere',
    )
    const linked = ok(app.request('PATCH', `/customers/delegates/${id}`, { body: { LinkDelegateToCustomer: { customerId: other } } }))
    expect(linked.customerId).toBe(other)
    expect(ok(app.request('GET', `/customers/delegates?customerId=${other}`)).map((d: { customerDelegateId: string }) => d.customerDelegateId)).toEqual([id])
    expect(ok(app.request('GET', `/customers/delegates/${id}`)).customerDelegateId).toBe(id)
    expect(ok(app.request('DELETE', `/customers/delegates/${id}`)).customerDelegateId).toBe(id)
    expect(app.request('GET', `/customers/delegates/${id}`).status).toBe(404)
  })
})

describe('sign-in', () => {
  it('gives a consumer a customToken that works as a customer credential for an hour', () => {
    const app = testApp()
    const { customerId } = upsertConsumer(app, { emailAddress: 'j@example.com' })
    const other = upsertConsumer(app, { emailAddress: 'o@example.com' }).customerId
    const signIn = ok(app.request('POST', '/auth/signin', { body: { SignInConsumer: { customerId } } }))
    expect(signIn).toEqual({ customerId, customToken: expect.stringMatching(/^sandbox_ct_/) })
    const asCustomer = { credential: signIn.customToken }
    expect(ok(app.request('GET', `/customers/${customerId}`, asCustomer)).customerId).toBe(customerId)
    expect(app.request('GET', `/customers/${other}`, asCustomer).status).toBe(404)
    expect(app.request('GET', '/orders', asCustomer).status).toBe(403)
    expect(app.request('GET', '/orders', { ...asCustomer, headers: { 'Customer-Id': other } }).status).toBe(403)
    app.clock.advance(3600)
    expect(app.request('GET', `/customers/${customerId}`, asCustomer).body.errorCode).toBe('credential_expired')
  })

  it('signs in delegates, by id or by the organisation reference and e-mail address', () => {
    const app = testApp()
    const org = organisation(app, 'ORG-5')
    const id = delegate(app, org, 'dee@acme.example')
    const byId = ok(app.request('POST', '/auth/signin', { body: { SignInDelegate: { customerDelegateId: id } } }))
    expect(byId).toEqual({ customerId: org, customerDelegateId: id, customToken: expect.any(String) })
    const byRef = ok(
      app.request('POST', '/auth/signin', { body: { SignInDelegateByReferenceId: { referenceCustomerId: 'ORG-5', emailAddress: 'DEE@acme.example' } } }),
    )
    expect(byRef.customerDelegateId).toBe(id)
    expect(app.request('POST', '/auth/signin', { body: { SignInConsumer: { customerId: org } } }).body.errorCode).toBe('delegate_sign_in_required')
    expect(app.request('POST', '/auth/signin', { credential: KEYS.merchantPublicKey, body: { SignInConsumer: { customerId: org } } }).status).toBe(403)
  })

  it('lets a marketplace sign in a sub-merchant’s customer', () => {
    const app = testApp()
    const sub = { credential: KEYS.marketplaceApiKey, headers: { 'Merchant-Id': SUB_MERCHANT } }
    const { customerId } = upsertConsumer(app, { emailAddress: 's@example.com' }, sub)
    expect(ok(app.request('POST', '/auth/signin', { credential: KEYS.marketplaceApiKey, body: { SignInConsumer: { customerId } } })).customerId).toBe(
      customerId,
    )
    expect(app.request('POST', '/auth/signin', { body: { SignInConsumer: { customerId } } }).status).toBe(404)
  })
})

describe('service tokens', () => {
  it('are created, work as their owner’s credential, and stop working when revoked', () => {
    const app = testApp()
    const created = ok(app.request('POST', '/auth/servicetokens', { body: { CreateServiceToken: { description: 'CI' } } }))
    expect(created).toMatchObject({
      serviceTokenId: expect.stringMatching(/^stkn_/),
      ownerType: 'Merchant',
      merchantId: MERCHANT,
      status: 'Active',
      expired: false,
    })
    expect(created.token).toMatch(/^sandbox_sk_/)
    expect(ok(app.request('GET', '/orders', { credential: created.token }))).toEqual([])
    const shown = ok(app.request('GET', `/auth/servicetokens/${created.serviceTokenId}`))
    expect(shown).not.toHaveProperty('token')
    const revoked = ok(app.request('PATCH', `/auth/servicetokens/${created.serviceTokenId}`, { body: { UpdateServiceToken: { status: 'Revoked' } } }))
    expect(revoked.status).toBe('Revoked')
    expect(app.request('GET', '/orders', { credential: created.token }).body.errorCode).toBe('credential_revoked')
    const again = app.request('PATCH', `/auth/servicetokens/${created.serviceTokenId}`, { body: { UpdateServiceToken: { status: 'Active' } } })
    expect([again.status, again.body.errorCode]).toEqual([409, 'service_token_revoked'])
  })

  it('expire with the clock', () => {
    const app = testApp()
    const created = ok(app.request('POST', '/auth/servicetokens', { body: { CreateServiceToken: { expiresInSeconds: 60 } } }))
    app.clock.advance(60)
    expect(app.request('GET', '/orders', { credential: created.token }).body.errorCode).toBe('credential_expired')
    const list = (query: string) =>
      ok(app.request('GET', `/auth/servicetokens?merchantId=${MERCHANT}${query}`)).map((t: { serviceTokenId: string }) => t.serviceTokenId)
    expect(list('&expired=true')).toEqual([created.serviceTokenId])
    expect(list('&expired=false')).toEqual([])
  })

  it('list only with merchantId or marketplaceId, and only the caller’s own', () => {
    const app = testApp()
    const mine = ok(app.request('POST', '/auth/servicetokens', { body: { CreateServiceToken: {} } })).serviceTokenId
    const market = ok(app.request('POST', '/auth/servicetokens', { credential: KEYS.marketplaceApiKey, body: { CreateServiceToken: {} } }))
    expect(market.token).toMatch(/^sandbox_api_/)
    expect(market.ownerType).toBe('Marketplace')
    expect(app.request('GET', '/auth/servicetokens').body.errorCode).toBe('missing_filter')
    expect(app.request('GET', `/auth/servicetokens?merchantId=${SUB_MERCHANT}`).status).toBe(403)
    expect(app.request('GET', `/auth/servicetokens?marketplaceId=${MARKETPLACE}`).status).toBe(403)
    const all = ok(
      app.request('GET', `/auth/servicetokens?marketplaceId=${MARKETPLACE}&merchantId=${MERCHANT}&status=Active`, { credential: KEYS.marketplaceApiKey }),
    )
    expect(all.map((t: { serviceTokenId: string }) => t.serviceTokenId).sort()).toEqual([mine, market.serviceTokenId].sort())
    expect(ok(app.request('GET', '/orders', { credential: market.token, headers: { 'Merchant-Id': SUB_MERCHANT } }))).toEqual([])
    expect(app.request('POST', '/auth/servicetokens', { body: { CreateServiceToken: { merchantId: SUB_MERCHANT } } }).status).toBe(403)
  })
})

describe('saved payment sources', () => {
  function activeOpen(app: App): string {
    const { token } = ok(app.request('POST', '/payto/agreement', { body: openAgreementBody() }))
    app.clock.advance(2)
    return token
  }
  const save = (app: App, agreementToken: string, headers: Record<string, string> = {}) =>
    app.request('POST', '/sources', {
      headers,
      body: { CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken } }, usageScope: 'ScopeOrganisation' } },
    })

  it('save an Active open agreement for a customer, usageScope null', () => {
    const app = testApp()
    const { customerId } = upsertConsumer(app, { emailAddress: 'p@example.com' })
    const agreementToken = activeOpen(app)
    const source = ok(save(app, agreementToken, { 'Customer-Id': customerId }))
    expect(source).toEqual({
      paymentSourceId: expect.stringMatching(/^psrc_/),
      customerId,
      merchantId: MERCHANT,
      sourceMethod: { PayToMethodResp: { agreementUid: expect.any(String), accountIdentifierHint: '+61******678' } },
      usageScope: null,
      createdAt: '2025-03-01T10:00:02.000Z',
      updatedAt: '2025-03-01T10:00:02.000Z',
      legacyResp: null,
    })
    expect(save(app, agreementToken, { 'Customer-Id': customerId }).body.errorCode).toBe('agreement_already_saved')
    const token = ok(
      app.request('POST', '/tokens', { body: { CreateSavedPaymentSourceToken: { paymentSourceId: source.paymentSourceId, amount: aud(4200) } } }),
    )
    expect(token.SavedPaymentSourceToken).toMatchObject({ paymentSourceId: source.paymentSourceId, method: 'PayTo' })
    const orderId = ok(app.request('POST', '/orders', { headers: { 'Customer-Id': customerId }, body: { CreateOnlineOrder: { amount: aud(4200) } } }))
      .OnlineOrder.order.orderId
    const paid = ok(
      app.request('POST', `/orders/${orderId}/pay`, { body: { PayByPaymentToken: { paymentTokenId: token.SavedPaymentSourceToken.paymentTokenId } } }),
    )
    expect(paid.PayOrderComplete.transactionDetails.customerDetails.customerId).toBe(customerId)
  })

  it('refuse one-off, not yet Active and other merchants’ agreements', () => {
    const app = testApp()
    const { customerId } = upsertConsumer(app, { emailAddress: 'p@example.com' })
    const headers = { 'Customer-Id': customerId }
    const pending = ok(app.request('POST', '/payto/agreement', { body: openAgreementBody() })).token
    expect(save(app, pending, headers).body.errorCode).toBe('agreement_not_active')
    const oneOff = ok(app.request('POST', '/payto/agreement', { body: oneOffAgreementBody(100) })).token
    app.clock.advance(2)
    expect(save(app, oneOff, headers).body.errorCode).toBe('agreement_not_open')
    const sub = { credential: KEYS.marketplaceApiKey, headers: { 'Merchant-Id': SUB_MERCHANT } }
    const foreign = ok(app.request('POST', '/payto/agreement', { ...sub, body: openAgreementBody() })).token
    app.clock.advance(2)
    expect(save(app, foreign, headers).status).toBe(404)
  })

  it('are listed, read and deleted by their customer, and hidden from others', () => {
    const app = testApp()
    const { customerId } = upsertConsumer(app, { emailAddress: 'p@example.com' })
    const other = upsertConsumer(app, { emailAddress: 'q@example.com' }).customerId
    const id = ok(save(app, activeOpen(app), { 'Customer-Id': customerId })).paymentSourceId
    const token = ok(app.request('POST', '/auth/signin', { body: { SignInConsumer: { customerId } } })).customToken
    const otherToken = ok(app.request('POST', '/auth/signin', { body: { SignInConsumer: { customerId: other } } })).customToken
    expect(ok(app.request('GET', '/sources', { credential: token })).map((s: { paymentSourceId: string }) => s.paymentSourceId)).toEqual([id])
    expect(ok(app.request('GET', '/sources', { credential: otherToken }))).toEqual([])
    expect(app.request('GET', `/sources/${id}`, { credential: otherToken }).status).toBe(404)
    expect(ok(app.request('GET', `/sources?customerId=${customerId}`))).toHaveLength(1)
    expect(ok(app.request('DELETE', `/sources/${id}`, { credential: token })).paymentSourceId).toBe(id)
    expect(app.request('GET', `/sources/${id}`).status).toBe(404)
  })

  it('a signed-in customer saves for themselves and makes tokens only from their own sources', () => {
    const app = testApp()
    const { customerId } = upsertConsumer(app, { emailAddress: 'p@example.com' })
    const other = upsertConsumer(app, { emailAddress: 'q@example.com' }).customerId
    const mine = ok(save(app, activeOpen(app), { 'Customer-Id': customerId })).paymentSourceId
    const theirs = ok(save(app, activeOpen(app), { 'Customer-Id': other })).paymentSourceId
    const credential = ok(app.request('POST', '/auth/signin', { body: { SignInConsumer: { customerId } } })).customToken
    const make = (paymentSourceId: string) =>
      app.request('POST', '/tokens', { credential, body: { CreateSavedPaymentSourceToken: { paymentSourceId, amount: aud(10) } } })
    expect(ok(make(mine)).SavedPaymentSourceToken.paymentSourceId).toBe(mine)
    expect(make(theirs).status).toBe(403)
    const agreementToken = activeOpen(app)
    const own = ok(app.request('POST', '/sources', { credential, body: { CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken } } } } }))
    expect(own.customerId).toBe(customerId)
  })
})

describe('the Customer-Delegate-User-Id header', () => {
  it('names a delegate of the customer acted for, and is refused otherwise', () => {
    const app = testApp()
    const org = organisation(app, 'ORG-D')
    const other = organisation(app, 'ORG-E')
    const id = delegate(app, org, 'one@org.example')
    const foreign = delegate(app, other, 'two@org.example')
    const { token } = ok(app.request('POST', '/payto/agreement', { body: openAgreementBody() }))
    app.clock.advance(2)
    const body = { CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken: token } } } }
    expect(app.request('POST', '/sources', { body, headers: { 'Customer-Id': org, 'Customer-Delegate-User-Id': foreign } }).status).toBe(403)
    expect(app.request('POST', '/sources', { body, headers: { 'Customer-Delegate-User-Id': 'custd_nobody0000000000' } }).status).toBe(403)
    const saved = ok(app.request('POST', '/sources', { body, headers: { 'Customer-Delegate-User-Id': id } }))
    expect(saved.customerId).toBe(org)
    expect(app.store.sources.get(saved.paymentSourceId)?.customerDelegateId).toBe(id)
  })
})

describe('blocked cards', () => {
  it('are listed and unblocked', () => {
    const app = testApp()
    app.store.blockedCards.set('cblk_0000000000000001', {
      cardBlockId: 'cblk_0000000000000001',
      merchantId: MERCHANT,
      customerId: null,
      paymentSourceId: null,
      cardHint: 'Visa ending 4242',
      reason: 'Suspected fraud',
      status: 'Blocked',
      createdAt: '2025-03-01T09:00:00.000Z',
      updatedAt: '2025-03-01T09:00:00.000Z',
    })
    expect(ok(app.request('GET', '/sources/blockedcards?status=Blocked'))).toHaveLength(1)
    const patch = (body: unknown) => app.request('PATCH', '/sources/blockedcards/cblk_0000000000000001', { body })
    expect(patch({ BlockCard: {} }).body.errorCode).toBe('unknown_action')
    expect(ok(patch({ UnblockCard: { reason: 'Customer confirmed' } })).status).toBe('Unblocked')
    expect(patch({ UnblockCard: {} }).body.errorCode).toBe('card_not_blocked')
    expect(app.request('PATCH', '/sources/blockedcards/cblk_nothing000000000', { body: { UnblockCard: {} } }).status).toBe(404)
  })
})

describe('simulation', () => {
  it('advances the clock, records incoming bank transfers, refuses unknown actions', () => {
    const app = testApp()
    expect(ok(app.request('POST', '/simulation', { body: { AdvanceClock: { seconds: 90 } } }))).toEqual({
      now: '2025-03-01T10:01:30.000Z',
      advancedBySeconds: 90,
    })
    const entry = ok(app.request('POST', '/simulation', { body: { IncomingBankTransfer: { merchantId: MERCHANT, amount: aud(5000) } } }))
    expect(entry).toMatchObject({ type: 'BankTransfer', merchantId: MERCHANT, amount: aud(5000), availableOn: '2025-03-01' })
    expect(app.store.settlementEntries.all()).toHaveLength(1)
    expect(app.request('POST', '/simulation', { body: { IncomingBankTransfer: { merchantId: SUB_MERCHANT, amount: aud(5) } } }).status).toBe(404)
    expect(app.request('POST', '/simulation', { body: { Earthquake: {} } }).body.errorCode).toBe('unknown_action')
    expect(app.request('POST', '/simulation', { credential: KEYS.merchantPublicKey, body: { AdvanceClock: { seconds: 1 } } }).status).toBe(403)
  })
})
