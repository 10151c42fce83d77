// "Where the emulator chooses" (docs/emulator.md): one describe per row of the table, each over
// HTTP with the contract's headers (`Authorization: Bearer`, `Accept: application/json`, the
// context headers), against a default emulator and a `--strict` one, so that each row's default
// and its --strict behaviour are both pinned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeClock } from '../../src/emulator/clock.js'
import { seededIds } from '../../src/emulator/ids.js'
import { startEmulator, type IntegratorOptions, type RunningEmulator } from '../../src/emulator/index.js'
import { KEYS, MARKETPLACE, MERCHANT, SUB_MERCHANT, aud, oneOffAgreementBody, openAgreementBody } from './helpers.js'

interface Answer {
  status: number
  headers: Headers
  body: any
  bytes: Buffer
}

interface Call {
  body?: unknown
  credential?: string
  headers?: Record<string, string>
}

class Emulator {
  constructor(readonly running: RunningEmulator) {}

  async call(method: string, path: string, options: Call = {}): Promise<Answer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${options.credential ?? KEYS.merchantSecretKey}`,
      ...options.headers,
    }
    let body: string | undefined
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json'
      body = JSON.stringify(options.body)
    }
    const response = await fetch(`${this.running.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
    const bytes = Buffer.from(await response.arrayBuffer())
    const json = /json/.test(response.headers.get('content-type') ?? '') && bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined
    return { status: response.status, headers: response.headers, body: json, bytes }
  }

  async ok(method: string, path: string, options: Call = {}): Promise<any> {
    const answer = await this.call(method, path, options)
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200)
    return answer.body
  }

  advance(seconds: number): void {
    this.running.app.clock.advance(seconds)
  }

  /** An Active agreement (one-off of `amount`, or open), as the contract's flows make it. */
  async activeAgreement(body: Record<string, unknown>, options: Call = {}): Promise<string> {
    const { token } = await this.ok('POST', '/payto/agreement', { ...options, body })
    this.advance(2)
    expect((await this.ok('GET', `/payto/agreement?token=${token}`, options)).status).toBe('Active')
    return token
  }

  async payToToken(amount: number): Promise<string> {
    const agreementToken = await this.activeAgreement(oneOffAgreementBody(amount))
    return (await this.ok('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(amount), agreementToken } } })).PayToToken.paymentTokenId
  }

  async order(amount: number, headers: Record<string, string> = {}): Promise<string> {
    return (await this.ok('POST', '/orders', { headers, body: { CreateOnlineOrder: { amount: aud(amount) } } })).OnlineOrder.order.orderId
  }

  async customer(emailAddress: string): Promise<string> {
    return (await this.ok('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress, givenName: 'Pat' } } })).customerId
  }
}

async function start(integrators: IntegratorOptions): Promise<Emulator> {
  return new Emulator(await startEmulator({ port: 0, clock: fakeClock('2025-03-01T10:00:00.000Z'), ids: seededIds('choices'), integrators }))
}

const modes: Record<'default' | 'strict', Emulator> = {} as never
beforeAll(async () => {
  modes.default = await start({})
  modes.strict = await start({ strict: true })
})
afterAll(async () => {
  await Promise.all(Object.values(modes).map((e) => e.running.close()))
})

const asMarketplace = { credential: KEYS.marketplaceApiKey }
const BOTH = ['default', 'strict'] as const

describe('unknown request fields', () => {
  const body = { CreateOnlineOrder: { amount: aud(100), giftWrap: true } }
  it('default: accepted, kept on the order and reported in Emulator-Warning', async () => {
    const answer = await modes.default.call('POST', '/orders', { body })
    expect(answer.status).toBe(200)
    expect(answer.body.OnlineOrder.order.giftWrap).toBe(true)
    expect(answer.headers.get('emulator-warning')).toContain('CreateOnlineOrder.giftWrap')
  })
  it('--strict: 400 invalid_request naming the field', async () => {
    const answer = await modes.strict.call('POST', '/orders', { body })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ errorCode: 'invalid_request' })
    expect(answer.body.message).toContain('giftWrap')
  })
})

describe('a decimal item quantity', () => {
  const item = (quantity: unknown) => ({ amount: aud(300), description: 'Coffee beans, per kg', quantity })
  const body = { CreateOnlineOrder: { amount: aud(450), items: [item(2), item(1.5)] } }
  it('default: accepted as real integrations send it (field notes), kept as sent and reported in Emulator-Warning', async () => {
    for (const action of ['CreateOnlineOrder', 'CreatePayByLinkOrder', 'CreatePayByLink']) {
      const answer = await modes.default.call('POST', '/orders', { body: { [action]: body.CreateOnlineOrder } })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      const order = (answer.body.OnlineOrder ?? answer.body.PayByLinkOrder).order
      expect(order.items.map((i: { quantity: number }) => i.quantity)).toEqual([2, 1.5])
      expect(answer.headers.get('emulator-warning')).toBe(`decimal quantity accepted (the contract says integer): "${action}.items[1].quantity"`)
    }
    const small = await modes.default.call('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(1), items: [item(0.001), item(1e-7)] } } })
    expect(small.status).toBe(200)
  })
  it('--strict: 400 invalid_request naming the field, as the contract says integer', async () => {
    const answer = await modes.strict.call('POST', '/orders', { body })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ errorCode: 'invalid_request' })
    expect(answer.body.message).toContain('CreateOnlineOrder.items[1].quantity')
  })
  it.each(BOTH)('%s: zero, negative, not a number: 400 in both modes; whole numbers: no warning', async (mode) => {
    for (const quantity of [0, -1.5, '1.5', null]) {
      const answer = await modes[mode].call('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(300), items: [item(quantity)] } } })
      expect(answer.status, `${quantity}`).toBe(400)
    }
    const whole = await modes[mode].call('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(600), items: [item(2)] } } })
    expect([whole.status, whole.headers.get('emulator-warning')]).toEqual([200, null])
  })
})

describe.each(BOTH)('unknown actions (%s)', (mode) => {
  it('are a 400 unknown_action in both modes', async () => {
    const answer = await modes[mode].call('POST', '/orders', { body: { CreateShinyOrder: { amount: aud(100) } } })
    expect(answer.status).toBe(400)
    expect(answer.body.errorCode).toBe('unknown_action')
  })
})

describe.each(BOTH)('the declared content type of a JSON body (%s)', (mode) => {
  it('is not judged: JSON labelled application/x-www-form-urlencoded is read', async () => {
    const answer = await modes[mode].call('POST', '/orders', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: { CreateOnlineOrder: { amount: aud(100) } },
    })
    expect(answer.status).toBe(200)
  })
})

describe.each(BOTH)('an all-empty billing block of the shop plug-in (%s)', (mode) => {
  it('is taken and kept as sent', async () => {
    const billing = { address: { line1: '', line2: '', city: '', state: '', postalCode: '', country: '' }, name: ' ', phoneNumber: '' }
    const made = await modes[mode].ok('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), billing } } })
    expect(made.OnlineOrder.order.billing).toEqual(billing)
  })
})

describe.each(BOTH)('Accept on a download (%s)', (mode) => {
  it('serves the invoice PDF to Accept: application/json, 406 only for types it cannot give', async () => {
    const e = modes[mode]
    const paymentTokenId = await e.payToToken(10_000)
    await e.ok('POST', `/orders/${await e.order(10_000)}/pay`, { body: { PayByPayTo: { paymentTokenId } } })
    const [invoice] = await e.ok('GET', '/transactions/invoices')
    const pdf = await e.call('GET', `/transactions/invoices/${invoice.invoiceId}/pdf`)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const refused = await e.call('GET', `/transactions/invoices/${invoice.invoiceId}/pdf`, { headers: { accept: 'text/csv' } })
    expect(refused.status).toBe(406)
    expect(refused.body.errorCode).toBe('not_acceptable')
  })

  it('serves the statement zip to Accept: application/json', async () => {
    const zip = await modes[mode].call('GET', '/loans/enterprise/statements/lstmt_LocalStmt2024-11/download')
    expect(zip.status).toBe(200)
    expect(zip.headers.get('content-type')).toBe('application/zip')
    expect(zip.bytes.subarray(0, 2).toString('latin1')).toBe('PK')
    expect((await modes[mode].call('GET', '/loans/enterprise/statements/lstmt_LocalStmt2024-11/download', { headers: { accept: 'text/html' } })).status).toBe(
      406,
    )
  })
})

describe.each(BOTH)('webhook subscription level (%s)', (mode) => {
  const hook = { url: 'https://hooks.example.com/level', events: ['MerchantCreated'] }
  it('follows the credential and Merchant-Id, whichever create action the body names', async () => {
    const e = modes[mode]
    const marketplace = await e.ok('POST', '/webhooks', { ...asMarketplace, body: { CreateWebhookMerchantSubscription: hook } })
    expect(Object.keys(marketplace)).toEqual(['WebhookMarketplaceSubscription'])
    expect(marketplace.WebhookMarketplaceSubscription.marketplaceId).toBe(MARKETPLACE)
    const forSub = await e.ok('POST', '/webhooks', {
      ...asMarketplace,
      headers: { 'Merchant-Id': SUB_MERCHANT },
      body: { CreateWebhookMarketplaceSubscription: hook },
    })
    expect(Object.keys(forSub)).toEqual(['WebhookMerchantSubscription'])
    expect(forSub.WebhookMerchantSubscription.merchantId).toBe(SUB_MERCHANT)
    const merchant = await e.ok('POST', '/webhooks', { body: { CreateWebhookMarketplaceSubscription: hook } })
    expect(merchant.WebhookMerchantSubscription.merchantId).toBe(MERCHANT)
  })
})

describe.each(BOTH)('a webhook subscription without events (%s)', (mode) => {
  it('is accepted and receives every event, shown as ["*"]', async () => {
    const made = await modes[mode].ok('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { url: 'https://hooks.example.com/all' } } })
    expect(made.WebhookMerchantSubscription.events).toEqual(['*'])
  })
})

describe.each(BOTH)('webhook list entries (%s)', (mode) => {
  it('are subscriptions under their envelope key, equal to what GET /webhooks/{id} answers', async () => {
    const e = modes[mode]
    await e.ok('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { url: 'https://hooks.example.com/list', events: ['TransactionPaid'] } } })
    const list = await e.ok('GET', '/webhooks')
    expect(list.length).toBeGreaterThan(0)
    for (const entry of list) {
      const [key] = Object.keys(entry)
      expect(['WebhookMarketplaceSubscription', 'WebhookMerchantSubscription']).toContain(key)
      expect(await e.ok('GET', `/webhooks/${entry[key as string].id}`)).toEqual(entry)
    }
  })
})

describe.each(BOTH)('Marketplace-Id with a merchant credential (%s)', (mode) => {
  it('alone is a 403 marketplace_context_forbidden; with its own Merchant-Id it is applied; another marketplace is a 403', async () => {
    const e = modes[mode]
    const alone = await e.call('GET', '/orders', { headers: { 'Marketplace-Id': MARKETPLACE } })
    expect(alone.status).toBe(403)
    expect(alone.body.errorCode).toBe('marketplace_context_forbidden')
    const both = await e.ok('GET', '/orders', { headers: { 'Marketplace-Id': MARKETPLACE, 'Merchant-Id': MERCHANT } })
    expect(both.every((o: { merchantId: string }) => o.merchantId === MERCHANT)).toBe(true)
    const other = await e.call('GET', '/orders', { headers: { 'Marketplace-Id': 'mktp_SomeoneElse0001' } })
    expect(other.status).toBe(403)
    expect(other.body.errorCode).toBe('context_forbidden')
    const marketplace = await e.ok('GET', '/orders', { ...asMarketplace, headers: { 'Marketplace-Id': MARKETPLACE } })
    expect(Array.isArray(marketplace)).toBe(true)
  })
})

describe.each(BOTH)('Customer-Id on a list (%s)', (mode) => {
  it('narrows orders and customers to that customer', async () => {
    const e = modes[mode]
    const customerId = await e.customer(`narrow-${mode}@example.com`)
    const theirs = await e.order(700, { 'Customer-Id': customerId })
    await e.order(800)
    const orders = await e.ok('GET', '/orders', { headers: { 'Customer-Id': customerId } })
    expect(orders.map((o: { orderId: string }) => o.orderId)).toEqual([theirs])
    const customers = await e.ok('GET', '/customers', { headers: { 'Customer-Id': customerId } })
    expect(customers.map((c: { customerId: string }) => c.customerId)).toEqual([customerId])
  })
})

describe.each(BOTH)('payment token lifetime (%s)', (mode) => {
  it('none by default: a token made 30 days ago still pays', async () => {
    const e = modes[mode]
    const paymentTokenId = await e.payToToken(1_500)
    expect((await e.ok('GET', `/tokens/${paymentTokenId}`)).expiresAt).toBeNull()
    const orderId = await e.order(1_500)
    e.advance(30 * 86_400)
    expect((await e.ok('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } })).PayOrderComplete.transactionStatus).toBe('paid')
  })
})

describe('payment token lifetime, when the emulator is given one (fixture settings)', () => {
  it('refuses a token past it with 409 payment_token_expired', async () => {
    const e = await start({ fixtures: { settings: { paymentTokenLifetimeSeconds: 600 } } })
    try {
      const paymentTokenId = await e.payToToken(1_500)
      expect((await e.ok('GET', `/tokens/${paymentTokenId}`)).expiresAt).toBe('2025-03-01T10:10:02.000Z')
      const orderId = await e.order(1_500)
      e.advance(600)
      const late = await e.call('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } })
      expect(late.status).toBe(409)
      expect(late.body.errorCode).toBe('payment_token_expired')
    } finally {
      await e.running.close()
    }
  })
})

describe.each(BOTH)('a PayTo Phone alias in national form (%s)', (mode) => {
  it('is normalised to +61', async () => {
    const e = modes[mode]
    const alias = await e.ok('GET', '/payto/alias?aliasType=Phone&value=0400000000')
    expect(alias.value).toBe('+61400000000')
    const sent = await e.ok('POST', '/payto/agreement', {
      body: { ...openAgreementBody(), customerAccIdentifier: { Alias: { aliasType: 'Phone', value: '0400 000 000' } } },
    })
    expect((await e.ok('GET', `/payto/agreement?token=${sent.token}`)).status).toBe('Pending')
  })
})

describe.each(BOTH)('CreateSavedPaymentSource without Customer-Id (%s)', (mode) => {
  const save = (e: Emulator, agreementToken: string) =>
    e.ok('POST', '/sources', { body: { CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken } }, usageScope: 'ScopeOrganisation' } } })

  it('takes the customer the agreement was sent for', async () => {
    const e = modes[mode]
    const customerId = await e.customer(`agreement-${mode}@example.com`)
    const agreementToken = await e.activeAgreement(openAgreementBody('22334455'), { headers: { 'Customer-Id': customerId } })
    expect((await save(e, agreementToken)).customerId).toBe(customerId)
  })

  it('otherwise makes a customer for the agreement, named after its customerName', async () => {
    const e = modes[mode]
    const agreementToken = await e.activeAgreement(openAgreementBody('33445566'))
    const source = await save(e, agreementToken)
    expect(source.customerId).toMatch(/^cust_/)
    expect(await e.ok('GET', `/customers/${source.customerId}`)).toMatchObject({ merchantId: MERCHANT, givenName: 'Jane Citizen' })
  })
})

describe.each(BOTH)('the Pay By Link token (%s)', (mode) => {
  it("comes with each pay-by-link order, and sign-in accepts it as the credential for the order's customer", async () => {
    const e = modes[mode]
    const customerId = await e.customer(`link-${mode}@example.com`)
    const made = await e.ok('POST', '/orders', { headers: { 'Customer-Id': customerId }, body: { CreatePayByLinkOrder: { amount: aud(2_500) } } })
    const { payByLinkToken, order } = made.PayByLinkOrder
    expect(payByLinkToken).toMatch(/^sandbox_pbl_[A-Za-z0-9_-]{32}$/)
    expect(JSON.stringify(await e.ok('GET', `/orders/${order.orderId}`))).not.toContain(payByLinkToken)
    const session = await e.ok('POST', '/auth/signin', { credential: payByLinkToken, body: { SignInConsumer: { customerId } } })
    expect(session).toMatchObject({ customerId, customToken: expect.any(String) })
    const elsewhere = await e.call('GET', '/orders', { credential: payByLinkToken })
    expect(elsewhere.status).toBe(403)
    expect(elsewhere.body.errorCode).toBe('credential_not_allowed')
  })
})

describe.each(BOTH)('checkout session lifetime (%s)', (mode) => {
  it('a customToken works for 60 minutes of emulator time, then is a 401 credential_expired', async () => {
    const e = modes[mode]
    const customerId = await e.customer(`session-${mode}@example.com`)
    const { customToken } = await e.ok('POST', '/auth/signin', { body: { SignInConsumer: { customerId } } })
    expect((await e.call('GET', `/customers/${customerId}`, { credential: customToken })).status).toBe(200)
    e.advance(60 * 60)
    const late = await e.call('GET', `/customers/${customerId}`, { credential: customToken })
    expect(late.status).toBe(401)
    expect(late.body.errorCode).toBe('credential_expired')
  })
})
