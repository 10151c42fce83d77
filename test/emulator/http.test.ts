// The emulator over HTTP on port 0: the pipeline's answers, lists, the contract's flows end to
// end, concurrency, and a check that every implemented operation answered 2xx at least once.
import { request as httpRequest, Agent } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { routeKey } from '../../src/emulator/route.js'
import { KEYS, MARKETPLACE, MERCHANT, SUB_MERCHANT, aud, oneOffAgreementBody, openAgreementBody } from './helpers.js'
import { routesUnder } from './contract-routes.js'

let emulator: RunningEmulator
const answered = new Set<string>()

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 })
})
afterAll(async () => {
  await emulator.close()
})

interface Answer {
  status: number
  headers: Headers
  body: any
}

async function call(
  method: string,
  path: string,
  options: { body?: unknown; credential?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  const credential = options.credential === undefined ? KEYS.merchantSecretKey : options.credential
  if (credential !== null) headers.authorization = `Bearer ${credential}`
  let body: string | undefined
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
  }
  const response = await fetch(`${emulator.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) })
  const text = await response.text()
  expect(response.headers.get('request-id'), `${method} ${path}`).toMatch(/^req_[A-Za-z0-9_-]{16}$/)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const parsed = text ? JSON.parse(text) : undefined
  if (response.status >= 200 && response.status < 300) {
    answered.add(routeKey(emulator.app.router.match(method, new URL(path, 'http://x').pathname).route))
  }
  return { status: response.status, headers: response.headers, body: parsed }
}

async function ok(promise: Promise<Answer>): Promise<any> {
  const answer = await promise
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body
}

const simulate = (body: unknown) => ok(call('POST', '/simulation', { body }))

async function pollUntilActive(token: string): Promise<string> {
  for (let i = 0; i < 10; i++) {
    const { status } = await ok(call('GET', `/payto/agreement?token=${encodeURIComponent(token)}`))
    if (status === 'Active') return status
    await simulate({ AdvanceClock: { seconds: 1 } })
  }
  throw new Error('the agreement never became Active')
}

async function newCustomer(email: string): Promise<string> {
  return (await ok(call('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: email } } }))).customerId
}

describe('the pipeline over HTTP', () => {
  it('answers 401 without a credential and with an unknown one', async () => {
    for (const credential of [null, 'sandbox_sk_unknown']) {
      const answer = await call('GET', '/orders', { credential })
      expect(answer.status).toBe(401)
      expect(answer.body).toMatchObject({
        statusCode: 401,
        errorCode: expect.any(String),
        message: expect.any(String),
        tracer: answer.headers.get('request-id'),
      })
    }
  })

  it('answers 404 for an unknown path', async () => {
    const answer = await call('GET', '/nothing/here')
    expect(answer.status).toBe(404)
    expect(answer.body).toMatchObject({ statusCode: 404, errorCode: 'no_such_operation' })
  })

  it('answers 405 with Allow and a JSON error for a method the path does not take', async () => {
    const answer = await call('PUT', '/orders')
    expect(answer.status).toBe(405)
    expect(answer.headers.get('allow')).toBe('GET, POST')
    expect(answer.body).toMatchObject({ statusCode: 405, errorCode: 'method_not_allowed' })
    expect((await call('DELETE', '/customers/delegates')).headers.get('allow')).toBe('GET, POST')
    expect((await call('POST', '/merchants/industries')).status).toBe(405)
  })

  it('answers 400 for malformed JSON', async () => {
    const answer = await call('POST', '/orders', { body: '{"CreateOnlineOrder": {' })
    expect(answer.status).toBe(400)
    expect(answer.body.errorCode).toBe('malformed_json')
  })

  it('answers 413 for a body over 12 MB', async () => {
    const answer = await call('POST', '/orders', { body: `{"x":"${'a'.repeat(13 * 1024 * 1024)}"}` })
    expect(answer.status).toBe(413)
    expect(answer.body.errorCode).toBe('payload_too_large')
  })

  it('answers a request that is not HTTP with a JSON error and a request id', async () => {
    const { port } = new URL(emulator.url)
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('NONSENSE\r\n\r\n'))
      let text = ''
      socket.on('data', (chunk) => (text += chunk.toString()))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(raw).toMatch(/^HTTP\/1\.1 400 /)
    expect(raw).toMatch(/Request-Id: req_/)
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ statusCode: 400, errorCode: 'malformed_http' })
  })
})

describe('the contract’s one-off PayTo flow', () => {
  it('sends an agreement, polls until Active, makes a token, creates and pays an order, refunds it in full', async () => {
    const sent = await ok(call('POST', '/payto/agreement', { body: oneOffAgreementBody(4990) }))
    expect(sent.status).toBe('Pending')
    expect(await pollUntilActive(sent.token)).toBe('Active')
    const token = (await ok(call('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(4990), agreementToken: sent.token } } }))).PayToToken
    const order = (
      await ok(call('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(4990), referenceOrderId: 'INV-1', metadata: { source: 'http-test' } } } }))
    ).OnlineOrder.order
    const paid = (await ok(call('POST', `/orders/${order.orderId}/pay`, { body: { PayByPayTo: { paymentTokenId: token.paymentTokenId } } }))).PayOrderComplete
    expect(paid).toMatchObject({ transactionStatus: 'paid', amount: 4990, currency: 'AUD' })
    expect(paid.transactionDetails.paymentMethod.paymentStatus).toBe('Settled')
    expect(paid.transactionDetails.purchaseDetails.orderMetadata).toEqual({ source: 'http-test' })
    const refunded = await ok(call('PATCH', `/transactions/${paid.transactionId}`, { body: { CreateRefund: { refundAmount: 4990 } } }))
    expect(refunded.purchaseDetails).toMatchObject({ status: 'refunded', refundedAmount: 4990 })
    expect(refunded.timelines.map((t: { eventType: string }) => t.eventType)).toEqual(['PaymentSucceed', 'PaymentRefunded'])
    expect(refunded.timelines[1].identifier).toBe(refunded.purchaseDetails.refundIds[0])
    expect((await ok(call('GET', `/transactions/${paid.transactionId}`))).purchaseDetails.status).toBe('refunded')
    expect((await ok(call('GET', `/transactions?orderId=${order.orderId}`))).length).toBe(1)
    expect((await ok(call('GET', `/orders/${order.orderId}`))).status).toBe('paid')
    expect((await ok(call('GET', `/tokens/${token.paymentTokenId}`))).status).toBe('Used')
  })
})

describe('the contract’s open PayTo flow', () => {
  it('sends an open agreement, waits until Active, saves it as a payment source', async () => {
    const customerId = await newCustomer('open-flow@example.com')
    const sent = await ok(call('POST', '/payto/agreement', { body: openAgreementBody() }))
    await pollUntilActive(sent.token)
    const source = await ok(
      call('POST', '/sources', {
        headers: { 'Customer-Id': customerId },
        body: { CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken: sent.token } }, usageScope: 'ScopeOrganisation' } },
      }),
    )
    expect(source).toMatchObject({
      customerId,
      merchantId: MERCHANT,
      usageScope: null,
      sourceMethod: { PayToMethodResp: { agreementUid: expect.any(String) } },
    })
    expect((await ok(call('GET', `/sources/${source.paymentSourceId}`))).paymentSourceId).toBe(source.paymentSourceId)
    expect((await ok(call('GET', `/sources?customerId=${customerId}`))).length).toBe(1)
    const token = await ok(call('POST', '/tokens', { body: { CreateSavedPaymentSourceToken: { paymentSourceId: source.paymentSourceId, amount: aud(1500) } } }))
    const order = (await ok(call('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(1500) } } }))).OnlineOrder.order
    const paid = await ok(
      call('POST', `/orders/${order.orderId}/pay`, { body: { PayByPaymentToken: { paymentTokenId: token.SavedPaymentSourceToken.paymentTokenId } } }),
    )
    expect(paid.PayOrderComplete.transactionStatus).toBe('paid')
    expect((await ok(call('DELETE', `/sources/${source.paymentSourceId}`))).paymentSourceId).toBe(source.paymentSourceId)
  })
})

async function payableOrder(amount: number): Promise<{ orderId: string; paymentTokenId: string }> {
  const sent = await ok(call('POST', '/payto/agreement', { body: oneOffAgreementBody(amount) }))
  await simulate({ AdvanceClock: { seconds: 2 } })
  const token = await ok(call('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(amount), agreementToken: sent.token } } }))
  const order = await ok(call('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(amount) } } }))
  return { orderId: order.OnlineOrder.order.orderId, paymentTokenId: token.PayToToken.paymentTokenId }
}

describe('money rules over HTTP', () => {
  it('refunds partly, then refuses a refund beyond what remains', async () => {
    const { orderId, paymentTokenId } = await payableOrder(10_000)
    const paid = await ok(call('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } }))
    const id = paid.PayOrderComplete.transactionId
    const partial = await ok(call('PATCH', `/transactions/${id}`, { body: { CreateRefund: { refundAmount: 3000 } } }))
    expect(partial.purchaseDetails).toMatchObject({ status: 'partially_refunded', refundedAmount: 3000 })
    const over = await call('PATCH', `/transactions/${id}`, { body: { CreateRefund: { refundAmount: 7001 } } })
    expect(over.status).toBe(422)
    expect(over.body.errorCode).toBe('refund_exceeds_remaining')
  })

  it('refuses to pay a cancelled order', async () => {
    const { orderId, paymentTokenId } = await payableOrder(800)
    const cancelled = await ok(call('DELETE', `/orders/${orderId}`))
    expect(cancelled.status).toBe('cancelled')
    const answer = await call('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } })
    expect(answer.status).toBe(409)
    expect(answer.body.errorCode).toBe('order_cancelled')
  })

  it('lets exactly one of 20 concurrent pays with one token succeed', async () => {
    const { paymentTokenId } = await payableOrder(1234)
    const orders = await Promise.all(
      Array.from(
        { length: 20 },
        async () => (await ok(call('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(1234) } } }))).OnlineOrder.order.orderId as string,
      ),
    )
    const answers = await Promise.all(orders.map((orderId) => call('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } })))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    const refused = answers.filter((a) => a.status !== 200)
    expect(refused.every((a) => a.status === 409 && ['payment_token_used', 'agreement_used'].includes(a.body.errorCode))).toBe(true)
  })
})

describe('lists over HTTP', () => {
  it('pages with limit and page, carries Page-Count and Total-Record-Count, and sorts', async () => {
    for (let i = 0; i < 5; i++) {
      await ok(call('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: `list-${i}@example.com`, givenName: `G${4 - i}` } } }))
    }
    const first = await call('GET', '/customers?name=g&limit=2&page=1&sort=givenName')
    expect(first.status).toBe(200)
    expect(first.headers.get('page-count')).toBe('3')
    expect(first.headers.get('total-record-count')).toBe('5')
    expect(first.body.map((c: { givenName: string }) => c.givenName)).toEqual(['G0', 'G1'])
    const last = await call('GET', '/customers?name=g&limit=2&page=3&sort=-givenName')
    expect(last.body.map((c: { givenName: string }) => c.givenName)).toEqual(['G0'])
    const past = await call('GET', '/customers?name=g&limit=2&page=4')
    expect(past.body).toEqual([])
    expect(past.headers.get('total-record-count')).toBe('5')
  })

  it('refuses bad limit, page and sort with 400', async () => {
    for (const query of ['limit=0', 'limit=501', 'page=0', 'page=x', 'sort=shoeSize']) {
      const answer = await call('GET', `/customers?${query}`)
      expect(answer.status, query).toBe(400)
      expect(answer.body.statusCode).toBe(400)
    }
  })
})

describe('the other implemented operations over HTTP', () => {
  it('customers, delegates, KYC, sign-in and the customer token', async () => {
    const consumer = await newCustomer('someone@example.com')
    expect((await ok(call('GET', `/customers/${consumer}`))).customerId).toBe(consumer)
    expect((await ok(call('POST', '/customers/kyc', { body: { customerId: consumer } }))).kycStatus).toBe('MoreDetailsRequired')
    const org = (await ok(call('POST', '/customers', { body: { UpsertOrganisationCustomer: { referenceCustomerId: 'HTTP-ORG' } } }))).customerId
    const org2 = (await ok(call('POST', '/customers', { body: { UpsertOrganisationCustomer: { referenceCustomerId: 'HTTP-ORG-2' } } }))).customerId
    const delegate = await ok(call('POST', '/customers/delegates', { body: { customerId: org, emailAddress: 'd@org.example' } }))
    const id = delegate.customerDelegateId
    expect((await ok(call('GET', '/customers/delegates'))).length).toBeGreaterThan(0)
    expect((await ok(call('GET', `/customers/delegates/${id}`))).customerId).toBe(org)
    expect((await ok(call('PATCH', `/customers/delegates/${id}`, { body: { LinkDelegateToCustomer: { customerId: org2 } } }))).customerId).toBe(org2)
    const signIn = await ok(call('POST', '/auth/signin', { body: { SignInDelegate: { customerDelegateId: id } } }))
    expect(signIn.customerDelegateId).toBe(id)
    expect((await ok(call('GET', `/customers/${org2}`, { credential: signIn.customToken }))).customerId).toBe(org2)
    expect((await ok(call('DELETE', `/customers/delegates/${id}`))).customerDelegateId).toBe(id)
    expect((await call('GET', `/customers/${org2}`, { credential: signIn.customToken })).status).toBe(401)
  })

  it('service tokens', async () => {
    const created = await ok(
      call('POST', '/auth/servicetokens', { credential: KEYS.marketplaceApiKey, body: { CreateServiceToken: { merchantId: SUB_MERCHANT } } }),
    )
    expect((await ok(call('GET', `/auth/servicetokens/${created.serviceTokenId}`, { credential: KEYS.marketplaceApiKey }))).merchantId).toBe(SUB_MERCHANT)
    expect((await ok(call('GET', `/auth/servicetokens?merchantId=${SUB_MERCHANT}`, { credential: KEYS.marketplaceApiKey }))).length).toBe(1)
    expect((await call('GET', '/auth/servicetokens', { credential: KEYS.marketplaceApiKey })).status).toBe(400)
    expect((await ok(call('GET', '/orders', { credential: created.token }))).length).toBe(0)
    await ok(call('PATCH', `/auth/servicetokens/${created.serviceTokenId}`, { credential: created.token, body: { UpdateServiceToken: { status: 'Revoked' } } }))
    expect((await call('GET', '/orders', { credential: created.token })).status).toBe(401)
    expect((await call('GET', '/orders', { credential: KEYS.marketplaceApiKey, headers: { 'Marketplace-Id': MARKETPLACE } })).status).toBe(200)
  })

  it('orders, tokens, surcharge quotes, aliases, card sources, transaction actions', async () => {
    const link = await ok(call('POST', '/orders', { body: { CreatePayByLinkOrder: { amount: aud(100) } } }))
    expect(link.PayByLinkOrder.payByLinkUrl).toContain(link.PayByLinkOrder.order.orderId)
    expect(
      (await ok(call('PATCH', `/orders/${link.PayByLinkOrder.order.orderId}`, { body: { UpdateReferenceOrderId: { referenceOrderId: 'R2' } } })))
        .referenceOrderId,
    ).toBe('R2')
    expect((await ok(call('GET', '/orders?orderType=paybylink'))).length).toBeGreaterThan(0)
    const quote = await ok(
      call('POST', `/tokens/${MERCHANT}/surchargequote`, { credential: KEYS.merchantPublicKey, body: { amount: aud(1000), paymentMethodType: 'Card' } }),
    )
    expect(quote.surchargeAmount).toBe(11)
    expect((await ok(call('GET', '/payto/alias?aliasType=Email&value=jane@example.com'))).displayName).toEqual(expect.any(String))

    const customerId = await newCustomer('card@example.com')
    const card = await ok(
      call('POST', '/sources', {
        headers: { 'Customer-Id': customerId },
        body: { CreateCardPaymentSource: { cardNumber: '4242 4242 4242 4242', expiryMonth: 12, expiryYear: 2040, cvc: '123' } },
      }),
    )
    const token = await ok(call('POST', '/tokens', { body: { CardPaymentSourceId: { paymentSourceId: card.paymentSourceId, amount: aud(2000) } } }))
    const order = (await ok(call('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(2000) } } }))).OnlineOrder.order
    const tokenId = token.SavedPaymentSourceToken.paymentTokenId
    const challenge = (await ok(call('POST', `/orders/${order.orderId}/pay`, { body: { PayByCard: { paymentTokenId: tokenId, request3DS: true } } })))
      .ThreeDSAuthorisationRequired
    await ok(call('POST', '/simulation', { body: { SetThreeDSOutcome: { threeDSAuthorisationId: challenge.threeDSAuthorisationId, outcome: 'passed' } } }))
    const paid = (
      await ok(
        call('POST', `/orders/${order.orderId}/pay`, { body: { Confirm3DSComplete: { paymentTokenId: tokenId, threeDSResponse: 'ok', authoriseOnly: true } } }),
      )
    ).PayOrderComplete
    const id = paid.transactionId
    expect((await ok(call('PATCH', `/transactions/${id}`, { body: { CaptureFunds: {} } }))).purchaseDetails.status).toBe('accepted')
    const asMarketplace = { credential: KEYS.marketplaceApiKey }
    await ok(call('PATCH', `/transactions/${id}`, { ...asMarketplace, body: { TransferFunds: { amount: 500, destinationMerchantId: SUB_MERCHANT } } }))
    const transferId = (await ok(call('GET', `/transactions/${id}`))).transfers[0].transferId
    await ok(call('PATCH', `/transactions/${id}`, { ...asMarketplace, body: { ReverseFundsTransfer: { transferId } } }))
    expect((await ok(call('PATCH', `/transactions/${id}`, { body: { CancelAuthorisation: {} } }))).purchaseDetails.status).toBe('cancelled')

    emulator.app.store.blockedCards.set('cblk_HttpTestBlock0001', {
      cardBlockId: 'cblk_HttpTestBlock0001',
      merchantId: MERCHANT,
      customerId,
      paymentSourceId: card.paymentSourceId,
      cardHint: 'Visa ending 4242',
      reason: 'Reported lost',
      status: 'Blocked',
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    })
    expect((await ok(call('GET', '/sources/blockedcards'))).length).toBe(1)
    expect((await ok(call('PATCH', '/sources/blockedcards/cblk_HttpTestBlock0001', { body: { UnblockCard: {} } }))).status).toBe('Unblocked')
    expect((await ok(call('POST', '/simulation', { body: { IncomingBankTransfer: { merchantId: MERCHANT, amount: aud(100) } } }))).type).toBe('BankTransfer')
  })

  it('closes cleanly with a keep-alive connection open', async () => {
    const other = await startEmulator({ port: 0 })
    const agent = new Agent({ keepAlive: true })
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${other.url}/orders`, { agent, headers: { authorization: `Bearer ${KEYS.merchantSecretKey}` } }, (res) => {
        res.resume()
        res.on('end', () => resolve())
      })
      req.on('error', reject)
      req.end()
    })
    const started = Date.now()
    await other.close()
    expect(Date.now() - started).toBeLessThan(1000)
    agent.destroy()
  })
})

describe('coverage', () => {
  // The other groups (merchants, money, pay plans, marketplaces, webhooks, loans, cards) are
  // covered over HTTP by their own test files.
  it('answered 2xx on every operation of the core groups over HTTP', () => {
    const core = [
      ...routesUnder('/auth', '/customers', '/sources', '/tokens', '/orders', '/payto', '/simulation', '/transactions/{transactionId}'),
      'GET /transactions',
    ]
    expect(core.filter((key) => !answered.has(key))).toEqual([])
  })
})
