import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InvalidInputError, OutcomeUnknownError, ResponseFormatError } from '../../src/client/index.js'
import { CREDENTIAL, type MockService, mockService } from './mock-service.js'

const money = { minorCurrencyUnits: 1250, currency: 'AUD' }
const order = { orderId: 'ordr_ZqCNoNcm_22WeZ-j', merchantId: 'mcht_1', referenceOrderId: 'inv-1', amount: money, createdAt: '2026-11-20T01:02:03.004Z' }

let svc: MockService
beforeEach(() => {
  svc = mockService()
})
afterEach(async () => svc.close())

const client = () => svc.client({ context: { merchantId: 'mcht_default', marketplaceId: 'mktp_1' } })

function expectBaseHeaders(headers: Record<string, string>) {
  expect(headers.authorization).toBe(`Bearer ${CREDENTIAL}`)
  expect(headers.accept).toBe('application/json')
  expect(headers['user-agent']).toMatch(/^payfac-client\//)
}

describe('orders on the wire', () => {
  it('create sends CreateOnlineOrder as JSON and returns the bare order from OnlineOrder', async () => {
    svc.on('POST', '/orders', { body: { OnlineOrder: { order } } })
    const body = { CreateOnlineOrder: { referenceOrderId: 'inv-1', amount: money, description: 'Coffee', metadata: { cart: 7 } } }
    const result = await client().orders.create(body)
    expect(result).toEqual(order)
    const [req] = svc.requests
    expect(req?.method).toBe('POST')
    expect(req?.path).toBe('/orders')
    expectBaseHeaders(req!.headers)
    expect(req?.headers['content-type']).toBe('application/json')
    expect(req?.headers['merchant-id']).toBe('mcht_default')
    expect(req?.headers['marketplace-id']).toBe('mktp_1')
    expect(req?.json).toEqual(body)
  })

  it('create with CreatePayByLinkOrder accepts any single-key answer holding an order', async () => {
    svc.on('POST', '/orders', { body: { PayByLinkOrder: { order, payByLinkUrl: 'https://pay.example/abc' } } })
    const result = await client().orders.create({ CreatePayByLinkOrder: { amount: money } })
    expect(result).toEqual({ ...order, payByLinkUrl: 'https://pay.example/abc' })
    expect(svc.requests[0]?.json).toEqual({ CreatePayByLinkOrder: { amount: money } })
  })

  it('create also accepts an answer whose envelope holds the order itself, or a bare order', async () => {
    svc.on('POST', '/orders', { body: { PayByLinkOrder: order } })
    svc.on('POST', '/orders', { body: order })
    expect((await client().orders.create({ CreatePayByLinkOrder: { amount: money } })).orderId).toBe(order.orderId)
    expect((await client().orders.create({ CreateOnlineOrder: { amount: money } })).orderId).toBe(order.orderId)
  })

  it('create refuses an invalid body before sending anything, naming the field', async () => {
    const c = client()
    await expect(c.orders.create({ CreateOnlineOrder: { amount: { minorCurrencyUnits: 12.5, currency: 'AUD' } } })).rejects.toThrow(
      'Invalid request for POST /orders: CreateOnlineOrder.amount.minorCurrencyUnits: expected int, received number',
    )
    await expect(c.orders.create({ CreateOnlineOrder: { amount: money, internalOrderId: 'x' } } as never)).rejects.toThrow(/unknown field "internalOrderId"/)
    await expect(c.orders.create({ CreateOrder: { amount: money } } as never)).rejects.toThrow(InvalidInputError)
    expect(svc.requests).toHaveLength(0)
  })

  it('pay sends PayByPayTo to /orders/{id}/pay and returns the PayOrderComplete transaction', async () => {
    const transaction = { transactionId: 'tran_1', transactionStatus: 'paid', amount: 1250, currency: 'AUD', payType: 'payinfull' }
    svc.on('POST', '/orders/ordr_ZqCNoNcm_22WeZ-j/pay', { body: { PayOrderComplete: transaction } })
    const result = await client().orders.pay(
      order.orderId,
      { PayByPayTo: { paymentTokenId: 'ptkn_Pq3x8sK1mZ0aB2cD' } },
      { context: { merchantId: 'mcht_call' } },
    )
    expect(result).toEqual({ kind: 'PayOrderComplete', transaction })
    const [req] = svc.requests
    expect(req?.method).toBe('POST')
    expect(req?.json).toEqual({ PayByPayTo: { paymentTokenId: 'ptkn_Pq3x8sK1mZ0aB2cD' } })
    expect(req?.headers['merchant-id']).toBe('mcht_call')
    expect(req?.headers['marketplace-id']).toBe('mktp_1')
  })

  it('pay returns a 3DS challenge as a result, not an error', async () => {
    svc.on('POST', '/orders/ordr_1/pay', { body: { ThreeDSAuthorisationRequired: { threeDSAuthorisationId: '3ds_1', url: 'x' } } })
    const result = await client().orders.pay('ordr_1', { PayByCard: { paymentTokenId: 'ptkn_1', request3DS: true } })
    expect(result).toEqual({ kind: 'ThreeDSAuthorisationRequired', challenge: { threeDSAuthorisationId: '3ds_1', url: 'x' } })
    expect(svc.requests[0]?.json).toEqual({ PayByCard: { paymentTokenId: 'ptkn_1', request3DS: true } })
  })

  it('pay sends Confirm3DSComplete and PayByPaymentToken', async () => {
    const done = { PayOrderComplete: { transactionId: 'tran_1', transactionStatus: 'accepted' } }
    svc.on('POST', '/orders/ordr_1/pay', { body: done }, { times: 2 })
    await client().orders.pay('ordr_1', { Confirm3DSComplete: { paymentTokenId: 'ptkn_1', threeDSResponse: 'resp', authoriseOnly: true } })
    await client().orders.pay('ordr_1', { PayByPaymentToken: { paymentTokenId: 'ptkn_2' } })
    expect(svc.requests.map((r) => r.json)).toEqual([
      { Confirm3DSComplete: { paymentTokenId: 'ptkn_1', threeDSResponse: 'resp', authoriseOnly: true } },
      { PayByPaymentToken: { paymentTokenId: 'ptkn_2' } },
    ])
  })

  it('pay answered with an unknown envelope has an unknown outcome (the payment may have been made)', async () => {
    svc.on('POST', '/orders/ordr_1/pay', { body: { SomethingElse: {} } })
    const error = await client()
      .orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect((error as OutcomeUnknownError).lost).toBe('answer')
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(ResponseFormatError)
  })

  it('pay refuses a transaction missing its contract fields', async () => {
    svc.on('POST', '/orders/ordr_1/pay', { body: { PayOrderComplete: { transactionStatus: 'paid' } } })
    await expect(client().orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } })).rejects.toThrow(/PayOrderComplete\.transactionId/)
  })

  it('get sends GET /orders/{id} with the id URL-encoded', async () => {
    svc.on('GET', '/orders/ordr_a%2Fb%20c', { body: order })
    expect(await client().orders.get('ordr_a/b c')).toEqual(order)
    const [req] = svc.requests
    expect(req?.method).toBe('GET')
    expect(req?.body).toBeUndefined()
    expect(req?.headers['content-type']).toBeUndefined()
    expectBaseHeaders(req!.headers)
  })

  it('get refuses an empty id', async () => {
    await expect(client().orders.get('')).rejects.toThrow(InvalidInputError)
  })

  it('cancel sends DELETE and returns the order', async () => {
    svc.on('DELETE', '/orders/ordr_1', { body: { ...order, orderId: 'ordr_1' } })
    expect((await client().orders.cancel('ordr_1')).orderId).toBe('ordr_1')
    expect(svc.requests[0]?.method).toBe('DELETE')
  })

  it('cancel reads the order when the DELETE answer is empty', async () => {
    svc.on('DELETE', '/orders/ordr_1', { status: 204 })
    svc.on('GET', '/orders/ordr_1', { body: { ...order, orderId: 'ordr_1' } })
    expect((await client().orders.cancel('ordr_1')).orderId).toBe('ordr_1')
    expect(svc.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /orders/ordr_1', 'GET /orders/ordr_1'])
  })

  it('update sends PATCH with the UpdateReferenceOrderId envelope', async () => {
    svc.on('PATCH', '/orders/ordr_1', { body: { ...order, referenceOrderId: 'inv-2' } })
    const result = await client().orders.update('ordr_1', { UpdateReferenceOrderId: { referenceOrderId: 'inv-2' } })
    expect(result.referenceOrderId).toBe('inv-2')
    expect(svc.requests[0]?.method).toBe('PATCH')
    expect(svc.requests[0]?.json).toEqual({ UpdateReferenceOrderId: { referenceOrderId: 'inv-2' } })
  })

  it('setReference is update with UpdateReferenceOrderId', async () => {
    svc.on('PATCH', '/orders/ordr_1', { body: { ...order, referenceOrderId: 'inv-3' } })
    await client().orders.setReference('ordr_1', 'inv-3')
    expect(svc.requests[0]?.json).toEqual({ UpdateReferenceOrderId: { referenceOrderId: 'inv-3' } })
    await expect(client().orders.setReference('ordr_1', '')).rejects.toThrow(/referenceOrderId/)
  })

  it('list sends paging and filters as query parameters (arrays repeat) and reads the counts', async () => {
    svc.on('GET', (p) => p.startsWith('/orders?'), { body: [order], headers: { 'page-count': '4', 'total-record-count': '31' } })
    const page = await client().orders.list({ limit: 10, page: 2, sort: '-createdAt', orderId: ['ordr_1', 'ordr_2'], status: undefined })
    expect(page).toEqual({ items: [order], page: 2, limit: 10, pageCount: 4, totalRecordCount: 31 })
    const [req] = svc.requests
    expect(req?.pathname).toBe('/orders')
    expect([...req!.query.entries()]).toEqual([
      ['limit', '10'],
      ['page', '2'],
      ['sort', '-createdAt'],
      ['orderId', 'ordr_1'],
      ['orderId', 'ordr_2'],
    ])
  })

  it('list refuses a limit outside 1..500 before sending', async () => {
    await expect(client().orders.list({ limit: 501 })).rejects.toThrow(InvalidInputError)
    expect(svc.requests).toHaveLength(0)
  })

  it('list refuses an answer that is not an array, and a record of the wrong shape', async () => {
    svc.on('GET', '/orders', { body: { items: [] } })
    svc.on('GET', '/orders', { body: [order, { orderId: 5 }] })
    await expect(client().orders.list()).rejects.toThrow(/must be a JSON array/)
    await expect(client().orders.list()).rejects.toThrow(/\[1\]\.orderId/)
  })
})
