// Fault injection: the Emulator-Fault header (each kind), standing rules reproducible by seed,
// and the rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulatorApp, type EmulatorApp } from '../../src/emulator/app.js'
import { fakeClock } from '../../src/emulator/clock.js'
import { parseFault, patternToRegExp, seededRandom } from '../../src/emulator/faults.js'
import { seededIds } from '../../src/emulator/ids.js'
import type { RunningEmulator } from '../../src/emulator/index.js'
import type { IntegratorOptions } from '../../src/emulator/namespaces.js'
import { MERCHANT } from './helpers.js'
import { aud, call, oneOffAgreement, startTestEmulator } from './integrators-helpers.js'

let emulator: RunningEmulator
const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) => call(emulator.url, method, path, options)
const fault = (value: string) => ({ 'Emulator-Fault': value })

beforeAll(async () => {
  emulator = await startTestEmulator()
})
afterAll(async () => emulator.close())

async function orderCount(reference: string): Promise<number> {
  const listed = await api('GET', `/orders?referenceOrderId=${reference}`)
  return (listed.body as unknown[]).length
}

async function payable(amount: number): Promise<{ orderId: string; paymentTokenId: string }> {
  const agreement = (await api('POST', '/payto/agreement', { body: oneOffAgreement(amount) })).body
  await api('POST', '/simulation', { body: { AdvanceClock: { seconds: 2 } } })
  const token = (await api('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(amount), agreementToken: agreement.token } } })).body
  const order = (await api('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(amount), referenceOrderId: `pay-${amount}` } } })).body
  return { orderId: order.OnlineOrder.order.orderId, paymentTokenId: token.PayToToken.paymentTokenId }
}

describe('the Emulator-Fault header', () => {
  it('drop-after-commit: the payment is applied, the client sees the connection dropped', async () => {
    const { orderId, paymentTokenId } = await payable(4200)
    await expect(api('POST', `/orders/${orderId}/pay`, { headers: fault('drop-after-commit'), body: { PayByPayTo: { paymentTokenId } } })).rejects.toThrow()
    const order = await api('GET', `/orders/${orderId}`)
    expect(order.body).toMatchObject({ orderId, status: 'paid', transactionId: expect.stringMatching(/^tran_/) })
    const txn = await api('GET', `/transactions/${order.body.transactionId}`)
    expect(txn.body.purchaseDetails.status).toBe('paid')
    // Paying again (what a naive retry does) is refused: the money moved once.
    const again = await api('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } })
    expect(again.status).toBe(409)
    const logged = (await api('GET', '/__emulator/requests?limit=10', { credential: null })).body as any[]
    expect(logged.find((r) => r.url === `/orders/${orderId}/pay` && r.fault === 'drop-after-commit')).toMatchObject({ status: 200 })
  })

  it('429;retry-after=1: answers 429 with Retry-After and applies nothing', async () => {
    const answer = await api('POST', '/orders', {
      headers: fault('429;retry-after=1'),
      body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: 'throttled' } },
    })
    expect(answer.status).toBe(429)
    expect(answer.headers.get('retry-after')).toBe('1')
    expect(answer.body).toMatchObject({ statusCode: 429, errorCode: 'rate_limited', tracer: answer.headers.get('request-id') })
    expect(await orderCount('throttled')).toBe(0)
  })

  it('reset: the connection is destroyed before anything is applied', async () => {
    await expect(
      api('POST', '/orders', { headers: fault('reset'), body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: 'reset-me' } } }),
    ).rejects.toThrow()
    expect(await orderCount('reset-me')).toBe(0)
  })

  it('latency=<ms>: holds the answer back, then answers normally', async () => {
    const started = performance.now()
    const answer = await api('GET', '/orders?limit=1', { headers: fault('latency=300') })
    expect(answer.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
  })

  it('500 and 503: an ApiError with the request id, nothing applied', async () => {
    for (const status of [500, 503]) {
      const answer = await api('POST', '/orders', {
        headers: fault(String(status)),
        body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: `status-${status}` } },
      })
      expect(answer.status).toBe(status)
      expect(answer.body).toMatchObject({
        statusCode: status,
        errorCode: status === 503 ? 'service_unavailable' : 'internal_error',
        tracer: answer.headers.get('request-id'),
      })
      expect(await orderCount(`status-${status}`)).toBe(0)
    }
  })

  it('latency goes with another fault; a bad fault is a 400 invalid_fault', async () => {
    const started = performance.now()
    const both = await api('GET', '/orders', { headers: fault('latency=100, 503') })
    expect(both.status).toBe(503)
    expect(performance.now() - started).toBeGreaterThanOrEqual(90)
    for (const bad of ['418', 'latency=abc', '503, 500', 'latency=999999']) {
      const answer = await api('GET', '/orders', { headers: fault(bad) })
      expect(answer.status, bad).toBe(400)
      expect(answer.body.errorCode).toBe('invalid_fault')
    }
  })

  it('parses each fault kind', () => {
    expect(parseFault('503')).toEqual({ action: { kind: 'status', status: 503 }, latencyMs: 0, text: '503' })
    expect(parseFault('429;retry-after=7').action).toEqual({ kind: 'throttle', retryAfterSeconds: 7 })
    expect(parseFault('429').action).toEqual({ kind: 'throttle', retryAfterSeconds: 1 })
    expect(parseFault('reset').action).toEqual({ kind: 'reset' })
    expect(parseFault('DROP-AFTER-COMMIT').action).toEqual({ kind: 'drop-after-commit' })
    expect(parseFault('latency=250')).toEqual({ action: null, latencyMs: 250, text: 'latency=250' })
  })
})

describe('standing fault rules', () => {
  function app(integrators: IntegratorOptions = {}): EmulatorApp {
    return createEmulatorApp({ clock: fakeClock('2025-03-01T10:00:00.000Z'), ids: seededIds('faults'), integrators })
  }

  function statusesUnder(seed: string, count = 60): number[] {
    const a = app({ faultSeed: seed })
    const rule = a.request('POST', '/__emulator/faults', { credential: null, body: { method: 'GET', pathPattern: '/orders', probability: 0.5, fault: '503' } })
    expect(rule.status).toBe(200)
    const statuses = Array.from({ length: count }, () => a.request('GET', '/orders').status)
    a.close()
    return statuses
  }

  it('apply with their probability, and the same seed gives the same run', () => {
    const first = statusesUnder('42')
    expect(statusesUnder('42')).toEqual(first)
    expect(new Set(first)).toEqual(new Set([200, 503]))
    const failed = first.filter((s) => s === 503).length
    expect(failed).toBeGreaterThan(10)
    expect(failed).toBeLessThan(50)
    expect(statusesUnder('43')).not.toEqual(first)
  })

  it('match by method and path pattern, count what they matched, list and clear', () => {
    const a = app()
    a.request('POST', '/__emulator/faults', { credential: null, body: { method: 'POST', pathPattern: '/orders/*/pay', fault: '500' } })
    expect(a.request('GET', '/orders').status).toBe(200)
    expect(a.request('POST', '/orders/ordr_AAAAAAAAAAAAAAAA/pay', { body: { PayByPayTo: { paymentTokenId: 'ptkn_AAAAAAAAAAAAAAAA' } } }).status).toBe(500)
    const listed = a.request('GET', '/__emulator/faults', { credential: null }).body
    expect(listed.rules).toEqual([
      expect.objectContaining({ method: 'POST', pathPattern: '/orders/*/pay', probability: 1, fault: '500', matched: 1, applied: 1 }),
    ])
    expect(a.request('DELETE', '/__emulator/faults', { credential: null }).body).toMatchObject({ cleared: 1 })
    expect(a.request('GET', '/__emulator/faults', { credential: null }).body.rules).toEqual([])
    expect(a.request('POST', '/__emulator/faults', { credential: null, body: { pathPattern: '/orders', fault: 'nonsense' } }).status).toBe(400)
    a.close()
  })

  it('a header wins over a rule', () => {
    const a = app()
    a.request('POST', '/__emulator/faults', { credential: null, body: { pathPattern: '/**', fault: '503' } })
    expect(a.request('GET', '/orders').status).toBe(503)
    expect(a.request('GET', '/orders', { headers: fault('latency=0') }).status).toBe(200)
    a.close()
  })

  it('path patterns: * within a segment, ** across segments', () => {
    expect(patternToRegExp('/orders/*/pay').test('/orders/ordr_x/pay')).toBe(true)
    expect(patternToRegExp('/orders/*/pay').test('/orders/a/b/pay')).toBe(false)
    expect(patternToRegExp('/transactions/**').test('/transactions/payouts/x')).toBe(true)
    expect(patternToRegExp('/orders').test('/orders/')).toBe(true)
  })

  it('seeded randomness repeats', () => {
    const a = seededRandom('s')
    const b = seededRandom('s')
    const run = Array.from({ length: 5 }, () => a())
    expect(Array.from({ length: 5 }, () => b())).toEqual(run)
    for (const n of run) expect(n >= 0 && n < 1).toBe(true)
  })
})

describe('the rate limit', () => {
  it('answers 429 with Retry-After beyond the rate, per namespace, and logs it', () => {
    const a = createEmulatorApp({ integrators: { rateLimit: 5 } })
    const statuses = Array.from({ length: 8 }, () => a.request('GET', '/orders').status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429])
    const limited = a.request('GET', '/orders')
    expect(limited.headers['Retry-After']).toBe('1')
    expect(limited.body).toMatchObject({ errorCode: 'rate_limited', statusCode: 429 })
    // Another namespace has its own allowance; the control plane has none.
    expect(a.request('GET', '/orders', { headers: { 'Emulator-Namespace': 'other' } }).status).toBe(200)
    expect(a.request('GET', '/__emulator/clock', { credential: null }).status).toBe(200)
    const log = a.request('GET', '/__emulator/requests', { credential: null }).body as any[]
    expect(log.filter((r) => r.status === 429).every((r) => r.fault === 'rate-limit')).toBe(true)
    a.close()
  })

  it('lets requests through again as time passes', async () => {
    const a = createEmulatorApp({ integrators: { rateLimit: 20 } })
    while (a.request('GET', '/orders').status === 200);
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(a.request('GET', '/orders').status).toBe(200)
    a.close()
  })
})

describe('the request log', () => {
  it('masks credentials and secrets', () => {
    const a = createEmulatorApp({ clock: fakeClock(), ids: seededIds('log') })
    a.request('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { url: 'https://hooks.example.com/x', events: ['OrderCreated'] } } })
    a.request('POST', '/auth/servicetokens', { body: { CreateServiceToken: { merchantId: MERCHANT } } })
    const log = a.request('GET', '/__emulator/requests', { credential: null }).body as any[]
    const text = JSON.stringify(log)
    expect(text).not.toContain('sandbox_sk_emulatorMerchantSecret0001')
    expect(text).not.toMatch(/whsec_[A-Za-z0-9_-]{10,}/)
    expect(text).not.toMatch(/sandbox_sk_[A-Za-z0-9_-]{10,}/)
    expect(log[0].requestHeaders.authorization).toBe('Bearer sandbox_sk_…0001')
    a.close()
  })

  it('shows a card number by its last four digits and never its security code', () => {
    const a = createEmulatorApp({ clock: fakeClock(), ids: seededIds('log') })
    const card = { cardNumber: '4111 1111 1111 1111', cvc: '737', expiryMonth: 12, expiryYear: 2030, cardholderName: 'Sam' }
    a.request('POST', '/sources', { body: { CreateCardPaymentSource: card } })
    const log = a.request('GET', '/__emulator/requests', { credential: null }).body as any[]
    const body = String(log[0].requestBody)
    expect(body).toContain('****1111')
    expect(body).not.toMatch(/4111 ?1111 ?1111/)
    expect(body).toContain('"cvc":"[REDACTED]"')
    expect(body).not.toContain('737')
    a.close()
  })
})
