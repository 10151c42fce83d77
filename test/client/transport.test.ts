import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  ApiError,
  ConnectionError,
  InvalidInputError,
  OutcomeUnknownError,
  PayfacError,
  ResponseFormatError,
  TimeoutError,
  createClient,
} from '../../src/client/index.js'
import { CREDENTIAL, type MockService, ORIGIN, mockService, networkError } from './mock-service.js'

let svc: MockService
beforeEach(() => {
  svc = mockService()
})
afterEach(async () => svc.close())

describe('request building', () => {
  it('sends auth, accept, user agent and all four context headers; per-call context wins field by field', async () => {
    svc.on('GET', '/customers/cust_1', { body: { customerId: 'cust_1' } })
    const client = svc.client({
      userAgent: 'payfac/9.9.9',
      context: { marketplaceId: 'mktp_1', merchantId: 'mcht_1', customerId: 'cust_1', customerDelegateUserId: 'custd_1' },
    })
    await client.customers.get('cust_1', { context: { merchantId: 'mcht_2', customerId: undefined }, headers: { 'X-Trace': 't-1' } })
    expect(svc.requests[0]?.headers).toEqual({
      authorization: `Bearer ${CREDENTIAL}`,
      accept: 'application/json',
      'user-agent': 'payfac/9.9.9',
      'marketplace-id': 'mktp_1',
      'merchant-id': 'mcht_2',
      'customer-id': 'cust_1',
      'customer-delegate-user-id': 'custd_1',
      'x-trace': 't-1',
    })
  })

  it('encodes the query: arrays repeat, undefined is skipped, booleans are true/false', async () => {
    svc.on('GET', (p) => p.startsWith('/auth/servicetokens?'), { body: [], headers: { 'page-count': '0', 'total-record-count': '0' } })
    await svc.client().auth.serviceTokens.list({
      merchantId: ['mcht_1', 'mcht_2'],
      status: undefined,
      expired: false,
      createdFromInclusive: '2026-01-01T00:00:00+10:00',
      limit: 50,
    })
    expect(svc.requests[0]?.path).toBe(
      '/auth/servicetokens?merchantId=mcht_1&merchantId=mcht_2&expired=false&createdFromInclusive=2026-01-01T00%3A00%3A00%2B10%3A00&limit=50',
    )
  })

  it('writes Dates as ISO 8601 and refuses objects in the query before sending', async () => {
    svc.on('GET', (p) => p.startsWith('/transactions?'), { body: [] })
    const client = svc.client()
    await client.transactions.list({ createdAfter: new Date('2026-01-02T03:04:05.006Z') })
    expect(svc.requests[0]?.query.get('createdAfter')).toBe('2026-01-02T03:04:05.006Z')
    await expect(client.transactions.list({ filter: { a: 1 } })).rejects.toThrow(
      'Query parameter filter must be a string, number, boolean or date (got object)',
    )
    expect(svc.requests).toHaveLength(1)
  })

  it('keeps a base URL path prefix and accepts a trailing slash', async () => {
    const agentPool = svc.agent.get(ORIGIN)
    let seen = ''
    agentPool.intercept({ path: (p) => p.startsWith('/v3/'), method: 'GET' }).reply((opts) => {
      seen = opts.path
      return { statusCode: 200, data: '{"marketplaceId":"mktp_1"}', responseOptions: { headers: { 'content-type': 'application/json' } } }
    })
    const client = createClient({ baseUrl: `${ORIGIN}/v3/`, credential: CREDENTIAL, dispatcher: svc.agent })
    await client.marketplaces.get('mktp_1')
    expect(seen).toBe('/v3/marketplaces/mktp_1')
  })

  it('refuses a base URL that is not http(s)', () => {
    expect(() => createClient({ baseUrl: 'ftp://x', credential: 'c' })).toThrow(PayfacError)
    expect(() => createClient({ baseUrl: 'nope', credential: 'c' })).toThrow(/not a URL/)
  })

  it('request() sends any operation as given and returns status, headers, body and request id', async () => {
    svc.on('POST', '/simulation', { body: { ok: true }, headers: { 'x-request-id': 'req_9' } })
    const answer = await svc.client().request({ method: 'post', path: '/simulation', body: { AdvanceClock: { seconds: 5 } } })
    expect(answer).toMatchObject({ status: 200, body: { ok: true }, requestId: 'req_9' })
    expect(answer.headers['content-type']).toBe('application/json')
    expect(svc.requests[0]?.json).toEqual({ AdvanceClock: { seconds: 5 } })
  })

  it('uploads a merchant file as multipart/form-data with the file in the part named "file"', async () => {
    svc.on('POST', '/merchants/mcht_1/files', { body: { fileId: 'file_1' } })
    const content = new TextEncoder().encode('%PDF-1.4 fake')
    const result = await svc.client().merchants.uploadFile('mcht_1', {
      content,
      fileName: 'licence.pdf',
      contentType: 'application/pdf',
      fields: { documentType: 'DriversLicence' },
    })
    expect(result).toEqual({ fileId: 'file_1' })
    const req = svc.requests[0]!
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=payfac-[0-9a-f]{32}$/)
    // The client encodes the form itself (see src/client/multipart.ts); a standard reader decodes it.
    const form = await new Response(req.body as string, { headers: { 'content-type': req.headers['content-type'] as string } }).formData()
    expect(form.get('documentType')).toBe('DriversLicence')
    const file = form.get('file') as File
    expect(file.name).toBe('licence.pdf')
    expect(file.type).toBe('application/pdf')
    expect(new TextDecoder().decode(await file.arrayBuffer())).toBe('%PDF-1.4 fake')
  })

  it('refuses an upload of the wrong type or over 10 MB before sending', async () => {
    const client = svc.client()
    await expect(client.merchants.uploadFile('mcht_1', { content: new Uint8Array(1), fileName: 'a.gif', contentType: 'image/gif' })).rejects.toThrow(
      /JPEG, PNG or PDF/,
    )
    await expect(
      client.merchants.uploadFile('mcht_1', { content: new Uint8Array(10 * 1024 * 1024 + 1), fileName: 'a.png', contentType: 'image/png' }),
    ).rejects.toThrow(/at most 10 MB/)
    expect(svc.requests).toHaveLength(0)
  })

  it('returns a download as a Node Readable stream', async () => {
    svc.on('GET', '/transactions/invoices/inv_1/pdf', { body: Buffer.from('%PDF-1.7 bytes'), headers: { 'content-type': 'application/pdf' } })
    const stream = await svc.client().transactions.invoices.pdf('inv_1')
    expect(stream).toBeInstanceOf(Readable)
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(Buffer.from(chunk))
    expect(Buffer.concat(chunks).toString()).toBe('%PDF-1.7 bytes')
    expect(svc.requests[0]?.headers.accept).toBe('application/pdf')
  })

  it('reads text and bytes when asked', async () => {
    svc.on('GET', '/a', { body: 'plain' })
    svc.on('GET', '/b', { body: Buffer.from([1, 2, 3]) })
    const client = svc.client()
    expect((await client.request({ method: 'GET', path: '/a', responseType: 'text' })).body).toBe('plain')
    expect((await client.request({ method: 'GET', path: '/b', responseType: 'bytes' })).body).toEqual(new Uint8Array([1, 2, 3]))
  })

  it('gives undefined for an empty success body', async () => {
    svc.on('DELETE', '/sources/psrc_1', { status: 204 })
    expect(await svc.client().sources.delete('psrc_1')).toBeUndefined()
  })
})

describe('error mapping', () => {
  it('maps a JSON ApiError body onto ApiError fields', async () => {
    svc.on('POST', '/orders/ordr_1/pay', {
      status: 400,
      body: {
        statusCode: 400,
        errorCode: 'insufficient_funds',
        message: 'The card was declined',
        detail: 'Issuer said no',
        tracer: 'trc_1',
        errorTypeDescription: 'Bad request',
        metadata: { attempt: 1 },
      },
      headers: { 'request-id': 'req_1' },
    })
    const error = await svc
      .client()
      .orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    const api = error as ApiError
    expect(api).toMatchObject({
      status: 400,
      errorCode: 'insufficient_funds',
      message: 'The card was declined',
      detail: 'Issuer said no',
      tracer: 'trc_1',
      errorTypeDescription: 'Bad request',
      metadata: { attempt: 1 },
      requestId: 'req_1',
      method: 'POST',
      path: '/orders/ordr_1/pay',
    })
    expect(api.describe()).toBe('The card was declined [insufficient_funds] Issuer said no (reference: trc_1)')
  })

  it('turns an HTML 502 into a clear ApiError (after retries for a GET)', async () => {
    svc.on(
      'GET',
      '/orders/ordr_1',
      { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', headers: { 'content-type': 'text/html' } },
      { times: 4 },
    )
    const error = (await svc
      .client()
      .orders.get('ordr_1')
      .catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(502)
    expect(error.message).toBe('The service answered 502 Bad Gateway (not JSON: <html><body><h1>502 Bad Gateway</h1></body></html>)')
    expect(error.body).toBe('<html><body><h1>502 Bad Gateway</h1></body></html>')
    expect(svc.requests).toHaveLength(4)
  })

  it('uses the request id header as the tracer when the body has none', async () => {
    svc.on('GET', '/orders/ordr_1', {
      status: 404,
      body: { statusCode: 404, errorCode: 'not_found', message: 'No such order' },
      headers: { 'x-request-id': 'req_7' },
    })
    const error = (await svc
      .client()
      .orders.get('ordr_1')
      .catch((e: unknown) => e)) as ApiError
    expect(error.tracer).toBe('req_7')
    expect(error.describe()).toBe('No such order [not_found] (reference: req_7)')
  })

  it('maps connection refused to ConnectionError that never reached the service', async () => {
    svc.fail('GET', '/orders/ordr_1', networkError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:4010'))
    const error = (await svc
      .client({ maxRetries: 0 })
      .orders.get('ordr_1')
      .catch((e: unknown) => e)) as ConnectionError
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error).toMatchObject({ code: 'ECONNREFUSED', mayHaveReachedService: false, method: 'GET', path: '/orders/ordr_1' })
    expect(error.message).toBe('GET /orders/ordr_1 failed: connect ECONNREFUSED 127.0.0.1:4010')
  })

  it('maps a reset of a POST to an unknown outcome, caused by a ConnectionError that may have reached the service', async () => {
    svc.fail('POST', '/orders', networkError('ECONNRESET', 'read ECONNRESET'))
    const error = (await svc
      .client()
      .orders.create({ CreateOnlineOrder: { amount: { minorCurrencyUnits: 1, currency: 'AUD' } } })
      .catch((e: unknown) => e)) as OutcomeUnknownError
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error).toMatchObject({ method: 'POST', path: '/orders', lost: 'connection' })
    expect(error.cause).toBeInstanceOf(ConnectionError)
    expect((error.cause as ConnectionError).mayHaveReachedService).toBe(true)
  })

  it('maps a reset of a GET to ConnectionError that may have reached the service (a read has no outcome to lose)', async () => {
    svc.fail('GET', '/orders/ordr_1', networkError('ECONNRESET', 'read ECONNRESET'))
    const error = (await svc
      .client({ maxRetries: 0 })
      .orders.get('ordr_1')
      .catch((e: unknown) => e)) as ConnectionError
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error.mayHaveReachedService).toBe(true)
  })

  it('maps undici socket errors to ConnectionError that may have reached the service', async () => {
    svc.fail('POST', '/orders', networkError('UND_ERR_SOCKET', 'other side closed'))
    const error = (await svc
      .client()
      .orders.create({ CreateOnlineOrder: { amount: { minorCurrencyUnits: 1, currency: 'AUD' } } })
      .catch((e: unknown) => e)) as OutcomeUnknownError
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.cause).toMatchObject({ code: 'UND_ERR_SOCKET', mayHaveReachedService: true })
  })

  it('maps a slow answer to TimeoutError', async () => {
    svc.on('POST', '/orders/ordr_1/pay', { body: { PayOrderComplete: { transactionId: 'tran_1', transactionStatus: 'paid' } } }, { delayMs: 500 })
    const error = await svc
      .client({ timeoutMs: 50 })
      .orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error).toMatchObject({ lost: 'timeout', message: 'POST /orders/ordr_1/pay: no answer within the time allowed' })
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(TimeoutError)
    expect(((error as OutcomeUnknownError).cause as TimeoutError).message).toBe('POST /orders/ordr_1/pay got no answer within 50 ms')
    expect(svc.requests).toHaveLength(1)
  })

  it('a 2xx that is not JSON is a ResponseFormatError', async () => {
    svc.on('GET', '/orders/ordr_1', { body: '<html>maintenance</html>', headers: { 'content-type': 'text/html' } })
    const error = await svc
      .client()
      .orders.get('ordr_1')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseFormatError)
    expect((error as Error).message).toBe(
      "The service's answer to GET /orders/ordr_1 (200) did not match the contract: expected JSON but got text/html: <html>maintenance</html>",
    )
  })

  it('a success status carrying an ApiError body (errorCode + failure statusCode) is an ApiError', async () => {
    svc.on('POST', '/orders/ordr_1/pay', { body: { statusCode: 400, errorCode: 'do_not_honor', message: 'Declined' } })
    const error = (await svc
      .client()
      .orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } })
      .catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 400, errorCode: 'do_not_honor', message: 'Declined' })
  })

  it('a header value that cannot be sent is refused as input, without the value in the message', async () => {
    const error = await svc
      .client()
      .orders.get('ordr_1', { headers: { 'X-Bad': 'line\nbreak' } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(svc.requests).toHaveLength(0)
    expect(() => createClient({ baseUrl: ORIGIN, credential: 'abc\ndef' })).toThrow('The credential must be a single line of text')
  })

  it('a caller abort is passed through as the abort reason, not retried', async () => {
    svc.on('GET', '/orders/ordr_1', { body: {} }, { delayMs: 500 })
    const controller = new AbortController()
    const pending = svc.client().orders.get('ordr_1', { signal: controller.signal })
    setTimeout(() => controller.abort(new Error('user pressed ctrl-c')), 20)
    await expect(pending).rejects.toThrow('user pressed ctrl-c')
    expect(svc.requests).toHaveLength(1)
  })
})

describe('unknown outcomes and the intercept hook', () => {
  it('an abort of a POST in flight is an unknown outcome naming the signal', async () => {
    svc.on('POST', '/orders/ordr_1/pay', { body: { PayOrderComplete: { transactionId: 'tran_1', transactionStatus: 'paid' } } }, { delayMs: 500 })
    const controller = new AbortController()
    const pending = svc.client({ signal: controller.signal }).orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } })
    setTimeout(() => controller.abort('SIGINT'), 20)
    const error = (await pending.catch((e: unknown) => e)) as OutcomeUnknownError
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error).toMatchObject({ lost: 'interrupted', signal: 'SIGINT', method: 'POST', path: '/orders/ordr_1/pay' })
  })

  it('a DELETE answered 503 is retried, then an unknown outcome', async () => {
    svc.on('DELETE', '/orders/ordr_1', { status: 503, body: { statusCode: 503, errorCode: 'unavailable', message: 'busy' } }, { times: 4 })
    const error = (await svc
      .client()
      .orders.cancel('ordr_1')
      .catch((e: unknown) => e)) as OutcomeUnknownError
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error).toMatchObject({ lost: 'status', status: 503 })
    expect(svc.requests).toHaveLength(4)
  })

  it('a POST answered 429 or 409 is a plain ApiError: the answer says nothing was done', async () => {
    svc.on('POST', '/orders/ordr_1/pay', { status: 429, body: { statusCode: 429, errorCode: 'rate_limited', message: 'slow down' } })
    svc.on('POST', '/orders/ordr_2/pay', { status: 409, body: { statusCode: 409, errorCode: 'order_already_paid', message: 'paid' } })
    const client = svc.client()
    expect(await client.orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } }).catch((e: unknown) => e)).toBeInstanceOf(ApiError)
    const conflict = await client.orders.pay('ordr_2', { PayByPayTo: { paymentTokenId: 'ptkn_1' } }).catch((e: unknown) => e)
    expect(conflict).toBeInstanceOf(ApiError)
    expect(conflict).not.toBeInstanceOf(OutcomeUnknownError)
  })

  it('the intercept hook sees the request with the credential redacted, and can stop it before it is sent', async () => {
    const seen: unknown[] = []
    const client = svc.client({
      context: { merchantId: 'mcht_1' },
      intercept: (request) => {
        seen.push(request)
        if (request.method !== 'GET') throw new Error('stopped')
      },
    })
    await expect(client.transactions.refund('tran_1', 500)).rejects.toThrow('stopped')
    expect(svc.requests).toHaveLength(0)
    expect(seen).toEqual([
      {
        method: 'PATCH',
        url: `${ORIGIN}/transactions/tran_1`,
        path: '/transactions/tran_1',
        headers: expect.objectContaining({ Authorization: 'Bearer [REDACTED]', 'Merchant-Id': 'mcht_1' }),
        body: { CreateRefund: { refundAmount: 500 } },
      },
    ])
    expect(JSON.stringify(seen)).not.toContain(CREDENTIAL)
  })
})

describe('retries', () => {
  it('retries a GET on 503 and then succeeds, waiting with the injected sleep', async () => {
    svc.on('GET', '/transactions/tran_1', { status: 503, body: { statusCode: 503, errorCode: 'unavailable', message: 'busy' } }, { times: 2 })
    svc.on('GET', '/transactions/tran_1', { body: { purchaseDetails: { transactionId: 'tran_1' } } })
    const tx = await svc.client().transactions.get('tran_1')
    expect(tx.purchaseDetails?.transactionId).toBe('tran_1')
    expect(svc.requests).toHaveLength(3)
    // random() = 0.5 → half of 250 ms, then half of 500 ms
    expect(svc.sleeps).toEqual([125, 250])
  })

  it('gives up after maxRetries and throws the last ApiError', async () => {
    svc.on('GET', '/orders/ordr_1', { status: 429, body: { statusCode: 429, errorCode: 'rate_limited', message: 'slow down' } }, { times: 3 })
    const error = (await svc
      .client({ maxRetries: 2 })
      .orders.get('ordr_1')
      .catch((e: unknown) => e)) as ApiError
    expect(error.status).toBe(429)
    expect(svc.requests).toHaveLength(3)
    expect(svc.sleeps).toHaveLength(2)
  })

  it('honours Retry-After', async () => {
    svc.on('GET', '/orders/ordr_1', { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '7' } })
    svc.on('GET', '/orders/ordr_1', { body: { orderId: 'ordr_1', amount: { minorCurrencyUnits: 1, currency: 'AUD' } } })
    await svc.client().orders.get('ordr_1')
    expect(svc.sleeps).toEqual([7000])
  })

  it('does not retry a POST on 503', async () => {
    svc.on('POST', '/orders/ordr_1/pay', { status: 503, body: { statusCode: 503, message: 'busy' } })
    const error = (await svc
      .client()
      .orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } })
      .catch((e: unknown) => e)) as ApiError
    expect(error.status).toBe(503)
    expect(svc.requests).toHaveLength(1)
    expect(svc.sleeps).toEqual([])
  })

  it('does not retry a PATCH (refund) after a reset', async () => {
    svc.fail('PATCH', '/transactions/tran_1', networkError('ECONNRESET'))
    const error = await svc
      .client()
      .transactions.refund('tran_1', 500)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(ConnectionError)
    expect(svc.sleeps).toEqual([])
  })

  it('does retry a POST whose connection was refused before anything was sent', async () => {
    svc.fail('POST', '/orders/ordr_1/pay', networkError('ECONNREFUSED'))
    svc.on('POST', '/orders/ordr_1/pay', { body: { PayOrderComplete: { transactionId: 'tran_1', transactionStatus: 'paid' } } })
    const result = await svc.client().orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } })
    expect(result.kind).toBe('PayOrderComplete')
    expect(svc.sleeps).toHaveLength(1)
  })

  it('retries a GET after a timeout', async () => {
    svc.on('GET', '/orders/ordr_1', { body: {} }, { delayMs: 300 })
    svc.on('GET', '/orders/ordr_1', { body: { orderId: 'ordr_1', amount: { minorCurrencyUnits: 1, currency: 'AUD' } } })
    const order = await svc.client({ timeoutMs: 50 }).orders.get('ordr_1')
    expect(order.orderId).toBe('ordr_1')
    expect(svc.sleeps).toHaveLength(1)
  })

  it('PUT and DELETE are retried like GET', async () => {
    svc.on('PUT', '/merchants/mcht_1/owners/own_1', { status: 502, body: 'bad gateway' })
    svc.on('PUT', '/merchants/mcht_1/owners/own_1', { body: { ownerId: 'own_1' } })
    svc.on('DELETE', '/merchants/mcht_1/owners/own_1', { status: 504, body: '' })
    svc.on('DELETE', '/merchants/mcht_1/owners/own_1', { status: 200 })
    const client = svc.client()
    await client.merchants.owners.replace('mcht_1', 'own_1', { name: 'Ada' })
    await client.merchants.owners.delete('mcht_1', 'own_1')
    expect(svc.requests.map((r) => r.method)).toEqual(['PUT', 'PUT', 'DELETE', 'DELETE'])
  })
})
