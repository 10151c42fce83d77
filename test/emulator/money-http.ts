// HTTP on port 0 for the merchant, money, pay plan, webhook, loan and card tests: an emulator with
// a fake clock and seeded ids, a `call()` that sends JSON, forms or raw bytes and records which
// operations answered 2xx, and checks for ApiError bodies.
import { afterAll, beforeAll, expect } from 'vitest'
import { fakeClock } from '../../src/emulator/clock.js'
import { seededIds } from '../../src/emulator/ids.js'
import { startEmulator, type IntegratorOptions, type RunningEmulator } from '../../src/emulator/index.js'
import { routeKey } from '../../src/emulator/route.js'
import { KEYS } from './helpers.js'

export interface Answer {
  status: number
  headers: Headers
  /** Parsed JSON, or the text of any other answer. */
  body: any
  bytes: Buffer
}

export interface CallOptions {
  body?: unknown
  form?: FormData
  raw?: { bytes: Buffer | string; contentType: string }
  credential?: string | null
  headers?: Record<string, string>
  accept?: string
}

export interface HttpEmulator {
  emulator: RunningEmulator
  /** Operations (`METHOD /template`) that answered 2xx. */
  answered: Set<string>
  call(method: string, path: string, options?: CallOptions): Promise<Answer>
  /** A call that must answer 200; returns the body. */
  ok(method: string, path: string, options?: CallOptions): Promise<any>
  simulate(envelope: Record<string, unknown>, options?: CallOptions): Promise<any>
  close(): Promise<void>
}

/** Call options with the marketplace API key. */
export const asMarketplace = { credential: KEYS.marketplaceApiKey }

/**
 * An HTTP emulator for the file or describe it is called in, from beforeAll to afterAll. What it
 * returns reaches the running one, inside tests and hooks.
 */
export function useHttpEmulator(start?: string, integrators?: IntegratorOptions): HttpEmulator {
  let running: HttpEmulator | undefined
  const current = () => {
    if (!running) throw new Error('The emulator of useHttpEmulator() runs from beforeAll to afterAll: use it inside a test or a hook')
    return running
  }
  beforeAll(async () => {
    running = await startHttp(start, integrators)
  })
  afterAll(async () => {
    await current().close()
    running = undefined
  })
  return {
    get emulator() {
      return current().emulator
    },
    get answered() {
      return current().answered
    },
    call: (method, path, options) => current().call(method, path, options),
    ok: (method, path, options) => current().ok(method, path, options),
    simulate: (envelope, options) => current().simulate(envelope, options),
    close: () => current().close(),
  }
}

export async function startHttp(start = '2025-03-10T10:00:00.000Z', integrators?: IntegratorOptions): Promise<HttpEmulator> {
  const emulator = await startEmulator({ port: 0, clock: fakeClock(start), ids: seededIds('money-tests'), ...(integrators ? { integrators } : {}) })
  const answered = new Set<string>()
  async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json', ...options.headers }
    const credential = options.credential === undefined ? KEYS.merchantSecretKey : options.credential
    if (credential !== null) headers.authorization = `Bearer ${credential}`
    let body: string | Buffer | FormData | undefined
    if (options.form) body = options.form
    else if (options.raw) {
      body = options.raw.bytes
      headers['content-type'] = options.raw.contentType
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] = 'application/json'
    }
    const response = await fetch(`${emulator.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) })
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(response.headers.get('request-id'), `${method} ${path}`).toMatch(/^req_[A-Za-z0-9_-]{16}$/)
    const type = response.headers.get('content-type') ?? ''
    const text = bytes.toString('utf8')
    const parsed = type.startsWith('application/json') ? JSON.parse(text) : text
    if (response.status >= 200 && response.status < 300) {
      answered.add(routeKey(emulator.app.router.match(method, new URL(path, 'http://x').pathname).route))
    }
    return { status: response.status, headers: response.headers, body: parsed, bytes }
  }
  async function ok(method: string, path: string, options?: CallOptions) {
    const answer = await call(method, path, options)
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200)
    return answer.body
  }
  return {
    emulator,
    answered,
    call,
    ok,
    simulate: (envelope, options = {}) => ok('POST', '/simulation', { ...options, body: envelope }),
    close: () => emulator.close(),
  }
}

/** The answer is an ApiError with this status and errorCode, its tracer the request id. */
export function expectError(answer: Answer, status: number, errorCode?: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
  expect(answer.body).toMatchObject({
    statusCode: status,
    errorCode: errorCode ?? expect.any(String),
    message: expect.any(String),
    tracer: answer.headers.get('request-id'),
  })
}

/** The operations of `prefixes` that never answered 2xx. */
export function unanswered(http: HttpEmulator, keys: readonly string[]): string[] {
  return keys.filter((key) => !http.answered.has(key))
}

/** Sends a one-off agreement, lets it activate, makes a token and an order of `amount`, pays it: the transaction id. */
export async function payOverHttp(
  http: HttpEmulator,
  amount: number,
  options: { credential?: string; headers?: Record<string, string>; reference?: string } = {},
): Promise<string> {
  const as = { ...(options.credential ? { credential: options.credential } : {}), ...(options.headers ? { headers: options.headers } : {}) }
  const agreement = await http.ok('POST', '/payto/agreement', {
    ...as,
    body: {
      customerName: 'Jane Citizen',
      customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
      terms: { AgreementRequestTermsOneOff: { amount: { amount, currency: 'AUD' } } },
      purpose: 'Goods',
    },
  })
  await http.simulate({ AdvanceClock: { seconds: 2 } })
  const token = await http.ok('POST', '/tokens', {
    ...as,
    body: { CreatePayToToken: { amount: { minorCurrencyUnits: amount, currency: 'AUD' }, agreementToken: agreement.token } },
  })
  const order = await http.ok('POST', '/orders', {
    ...as,
    body: { CreateOnlineOrder: { amount: { minorCurrencyUnits: amount, currency: 'AUD' }, referenceOrderId: options.reference ?? `ref-${amount}` } },
  })
  const paid = await http.ok('POST', `/orders/${order.OnlineOrder.order.orderId}/pay`, {
    ...as,
    body: { PayByPayTo: { paymentTokenId: token.PayToToken.paymentTokenId } },
  })
  return paid.PayOrderComplete.transactionId
}
