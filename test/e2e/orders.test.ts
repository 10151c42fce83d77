// Spawns bin/run.js against a local recording server: the exact requests of the orders topic,
// their rendering, real exit codes, and stdout holding data only.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const KEY = 'sandbox_sk_e2eTestKey0000000000000001'
const ORDER_ID = 'ordr_ZqCNoNcm_22WeZ-j'

const order = {
  orderId: ORDER_ID,
  merchantId: 'mcht_Mx1Mx1Mx1Mx1Mx1M',
  referenceOrderId: 'inv-1001',
  amount: { minorCurrencyUnits: 1250, currency: 'AUD' },
  description: 'Coffee',
  customerEmailAddress: 'jo@example.com',
  items: [],
  metadata: { channel: 'web' },
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
}

const transaction = {
  transactionId: 'tran_Tx1Tx1Tx1Tx1Tx1T',
  transactionStatus: 'paid',
  amount: 1250,
  currency: 'AUD',
  surchargeAmount: 0,
  payType: 'payinfull',
  transactionDetails: {
    purchaseDetails: { orderId: ORDER_ID, status: 'paid', amount: { minorCurrencyUnits: 1250, currency: 'AUD' }, refundedAmount: 0, refundIds: [] },
    paymentMethod: { paymentMethodType: 'PayTo', accountHint: '***678', paymentStatus: 'Settled', paymentFailure: null },
    serviceFees: { variableAmount: 19, fixedAmount: 30, taxAmount: 5, totalAmount: 54 },
    customerDetails: null,
    timelines: [{ eventType: 'PaymentSucceed', eventTime: '2026-11-21T10:00:01.000Z', amount: 1250, identifier: null }],
  },
}

let server: RecordingServer
let configDir: string
const env = () => ({ PAYFAC_CONFIG_DIR: configDir, PAYFAC_BASE_URL: server.url, PAYFAC_API_KEY: KEY, PAYFAC_PROFILE: undefined })
const cli = (...args: string[]) => spawnCli(args, { env: env() })

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'payfac-e2e-'))
  server = await startRecordingServer(({ method, path, query }) => {
    // The look-ups before a create (same reference?) and a pay (already paid?) find nothing.
    if (isLookup({ method, path, query })) return { body: [] }
    if (method === 'POST' && path === '/orders') return { body: { OnlineOrder: { order } } }
    if (method === 'POST' && path.endsWith('/pay')) return { body: { PayOrderComplete: transaction } }
    if (method === 'GET' && path === '/orders') return { body: [order], headers: { 'Page-Count': '3', 'Total-Record-Count': '41' } }
    if (method === 'PATCH') return { body: { ...order, referenceOrderId: 'inv-1001-b' } }
    return { body: order }
  })
})

afterAll(async () => {
  await server.close()
  rmSync(configDir, { recursive: true, force: true })
})

beforeEach(() => {
  server.requests.length = 0
  // Each test starts with an empty journal: an identical order or payment already made is exit 6.
  rmSync(join(configDir, 'operations'), { recursive: true, force: true })
})

/** The reads `orders create` and `orders pay` make before sending: orders by reference, the order's transactions. */
function isLookup(r: { method: string; path: string; query: URLSearchParams }): boolean {
  // (and the one read that tells whom the key acts for, GET /merchants?limit=2: the journal's identity)
  if (r.method === 'GET' && r.path === '/merchants' && r.query.get('limit') === '2') return true
  return r.method === 'GET' && r.query.get('limit') === '100' && (r.path === '/transactions' || (r.path === '/orders' && r.query.has('referenceOrderId')))
}

/** The one request sent besides the look-ups. */
function only() {
  const sent = server.requests.filter((r) => !isLookup(r))
  expect(sent).toHaveLength(1)
  const request = sent[0]!
  expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
  expect(request.headers.accept).toBe('application/json')
  return request
}

describe('orders create', () => {
  it('sends CreateOnlineOrder with exact minor units and prints the order as JSON', async () => {
    const result = await cli(
      'orders',
      'create',
      '--amount',
      '12.50',
      '--currency',
      'aud',
      '--reference',
      'inv-1001',
      '--description',
      'Coffee',
      '--email',
      'jo@example.com',
      '--item',
      'Beans: 1kg:2:5.25',
      '--billing-address',
      '1 Market St|Sydney|NSW|2000|au',
      '--metadata',
      'channel=web',
      '--json',
    )
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const request = only()
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/orders')
    expect(request.headers['content-type']).toMatch(/^application\/json/)
    expect(request.json).toEqual({
      CreateOnlineOrder: {
        referenceOrderId: 'inv-1001',
        amount: { minorCurrencyUnits: 1250, currency: 'AUD' },
        description: 'Coffee',
        customerEmailAddress: 'jo@example.com',
        items: [{ description: 'Beans: 1kg', quantity: 2, amount: { minorCurrencyUnits: 525, currency: 'AUD' } }],
        billing: { address: { line1: '1 Market St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' } },
        metadata: { channel: 'web' },
      },
    })
    expect(JSON.parse(result.stdout)).toEqual(order)
  })

  it('sends CreatePayByLinkOrder with --pay-by-link', async () => {
    await cli('orders', 'create', '--amount', '5', '--currency', 'AUD', '--reference', 'pbl-1', '--pay-by-link', '--json')
    expect(Object.keys(only().json as object)).toEqual(['CreatePayByLinkOrder'])
  })

  it('prints a table with money as 12.50 AUD when not asked for JSON', async () => {
    const result = await cli('orders', 'create', '--amount', '12.50', '--currency', 'AUD', '--reference', 'inv-1001')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(ORDER_ID)
    expect(result.stdout).toContain('12.50 AUD')
    expect(result.stdout).not.toMatch(/\u001b\[/)
  })
})

describe('orders get, cancel, set-reference, pay', () => {
  it('get sends GET /orders/{id}', async () => {
    const result = await cli('orders', 'get', ORDER_ID, '--json')
    expect(result.code).toBe(0)
    const request = only()
    expect([request.method, request.path]).toEqual(['GET', `/orders/${ORDER_ID}`])
    expect(JSON.parse(result.stdout).orderId).toBe(ORDER_ID)
  })

  it('cancel sends DELETE /orders/{id}', async () => {
    const result = await cli('orders', 'cancel', ORDER_ID, '--json')
    expect(result.code).toBe(0)
    const request = only()
    expect([request.method, request.path]).toEqual(['DELETE', `/orders/${ORDER_ID}`])
  })

  it('set-reference sends UpdateReferenceOrderId', async () => {
    const result = await cli('orders', 'set-reference', ORDER_ID, 'inv-1001-b', '--json')
    expect(result.code).toBe(0)
    const request = only()
    expect([request.method, request.path]).toEqual(['PATCH', `/orders/${ORDER_ID}`])
    expect(request.json).toEqual({ UpdateReferenceOrderId: { referenceOrderId: 'inv-1001-b' } })
  })

  it('pay sends PayByPayTo and prints the transaction', async () => {
    const result = await cli('orders', 'pay', ORDER_ID, '--token', 'ptkn_Pq3x8sK1mZ0aB2cD', '--json')
    expect(result.code).toBe(0)
    const request = only()
    expect([request.method, request.path]).toEqual(['POST', `/orders/${ORDER_ID}/pay`])
    expect(request.json).toEqual({ PayByPayTo: { paymentTokenId: 'ptkn_Pq3x8sK1mZ0aB2cD' } })
    expect(JSON.parse(result.stdout).transactionId).toBe(transaction.transactionId)
  })

  it('pay is never retried when the service answers 503', async () => {
    server.respond((r) => (isLookup(r) ? { body: [] } : { status: 503, body: { statusCode: 503, errorCode: 'unavailable', message: 'Try later' } }))
    try {
      const result = await cli('orders', 'pay', ORDER_ID, '--token', 'ptkn_Pq3x8sK1mZ0aB2cD')
      expect(result.code).toBe(7)
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain('Try later [unavailable]')
      expect(result.stderr).toContain(`Outcome unknown: payment of order ${ORDER_ID}`)
    } finally {
      server.respond(() => ({ body: order }))
    }
  })
})

describe('orders list', () => {
  it('sends the filters and page flags as query parameters and says how to see more on stderr', async () => {
    server.respond(() => ({ body: [order], headers: { 'Page-Count': '3', 'Total-Record-Count': '41' } }))
    const result = await cli('orders', 'list', '--limit', '20', '--page', '1', '--sort', '-createdAt', '--reference', 'inv-1001')
    expect(result.code).toBe(0)
    const request = only()
    expect(request.path).toBe('/orders')
    expect(Object.fromEntries(request.query)).toEqual({ limit: '20', page: '1', sort: '-createdAt', referenceOrderId: 'inv-1001' })
    expect(result.stdout).toContain(ORDER_ID)
    expect(result.stdout).not.toContain('Page 1 of 3')
    expect(result.stderr).toContain('Page 1 of 3')
  })

  it('renders CSV with dot-path money columns in minor units', async () => {
    server.respond(() => ({ body: [order], headers: { 'Page-Count': '1', 'Total-Record-Count': '1' } }))
    const result = await cli('orders', 'list', '--csv')
    expect(result.code).toBe(0)
    const [header, row] = result.stdout.trim().split('\n')
    expect(header).toContain('amount.minorCurrencyUnits')
    expect(header).toContain('amount.currency')
    expect(row).toContain('1250')
  })

  it('walks every page with --all and prints one JSON array', async () => {
    server.respond(({ query }) => {
      const page = Number(query.get('page') ?? '1')
      const items = page <= 3 ? [{ ...order, orderId: `ordr_Page${page}xxxxxxxxxxx` }] : []
      return { body: items, headers: { 'Page-Count': '3', 'Total-Record-Count': '3' } }
    })
    const result = await cli('orders', 'list', '--all', '--json')
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout).map((o: { orderId: string }) => o.orderId)).toEqual([
      'ordr_Page1xxxxxxxxxxx',
      'ordr_Page2xxxxxxxxxxx',
      'ordr_Page3xxxxxxxxxxx',
    ])
  })
})

describe('bad input exits 2 with one clear line and sends nothing', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['a wrong id prefix', ['orders', 'get', 'tran_ZqCNoNcm_22WeZ-j'], /ordr_/],
    ['too many decimal places', ['orders', 'create', '--amount', '12.505', '--currency', 'AUD', '--reference', 'x'], /2 decimal places/],
    ['a non-number amount', ['orders', 'create', '--amount', 'twelve', '--currency', 'AUD', '--reference', 'x'], /not an amount/],
    ['an unknown currency', ['orders', 'create', '--amount', '1', '--currency', 'XYZ', '--reference', 'x'], /Unknown currency/],
    ['--limit 0', ['orders', 'list', '--limit', '0'], /limit/i],
    ['--limit 501', ['orders', 'list', '--limit', '501'], /limit/i],
    ['--data that is not JSON', ['orders', 'create', '--data', '{not json'], /not valid JSON/],
    ['a previous-generation field in --data', ['orders', 'create', '--data', '{"internalOrderId":"x"}'], /referenceOrderId/],
    ['a token without its prefix', ['orders', 'pay', ORDER_ID, '--token', 'abc'], /ptkn_/],
  ]

  it.each(cases)('%s', async (_name, args, message) => {
    const result = await cli(...args)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(message)
    expect(result.stderr).not.toMatch(/\n\s+at /)
    expect(server.requests).toHaveLength(0)
  })
})

describe('failures under --json', () => {
  it('print {"error": …} on stderr only, stdout empty, with the exit code of the status', async () => {
    server.respond(() => ({ status: 404, body: { statusCode: 404, errorCode: 'not_found', message: 'No such order', tracer: 'req_42' } }))
    const result = await cli('orders', 'get', ORDER_ID, '--json')
    expect(result.code).toBe(5)
    expect(result.stdout).toBe('')
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 5, status: 404, errorCode: 'not_found', tracer: 'req_42' } })
  })
})
