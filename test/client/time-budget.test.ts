// Time budgets: one request's deadline, a GET with its retries bounded in all, each retry told
// to an observer, and a final error that says how long it tried. The clock, the sleeps and the
// deadlines are injected: a deadline "expires" at once and moves the clock on, so no test waits.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError, type ClientOptions, type RetryEvent, TimeoutError } from '../../src/client/index.js'
import type { TransportOptions } from '../../src/client/transport.js'
import { describeError } from '../../src/cli/errors/exit-codes.js'
import { type MockService, mockService } from './mock-service.js'

let svc: MockService
beforeEach(() => {
  svc = mockService()
})
afterEach(async () => svc.close())

/** A fake clock: sleeping and an expiring deadline move it on. */
function fakeTime() {
  let now = 0
  const deadlines: number[] = []
  const retries: RetryEvent[] = []
  const options: Partial<TransportOptions> = {
    now: () => now,
    sleep: async (ms) => {
      now += ms
    },
    setDeadline: (expire, ms) => {
      deadlines.push(ms)
      const timer = setImmediate(() => {
        now += ms
        expire()
      })
      return () => clearImmediate(timer)
    },
    onRetry: (event) => retries.push(event),
  }
  return { options: options as Partial<ClientOptions>, deadlines, retries, elapsed: () => now }
}

/** A service that accepts the request and never answers (within any deadline a test uses). */
const silent = (times: number) => svc.on('GET', '/orders/ordr_1', { body: {} }, { times, delayMs: 600_000 })

describe('time budgets', () => {
  it('by default gives a GET 30 s a try and 60 s in all, then says how long it tried', async () => {
    silent(5)
    const time = fakeTime()
    const error = await svc
      .client(time.options)
      .orders.get('ordr_1')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TimeoutError)
    // 30 s, a backoff of 125 ms, then what is left of the 60 s.
    expect(time.deadlines).toEqual([30_000, 29_875])
    expect((error as TimeoutError).tried).toEqual({ attempts: 2, elapsedMs: 60_000 })
    expect(describeError(error).message).toBe('GET /orders/ordr_1 got no answer within 29875 ms (tried 2 times over 60.0 s)')
    expect(describeError(error).code).toBe(7)
  })

  it('timeoutMs bounds each attempt; the retries stop at the retry limit well inside the budget', async () => {
    silent(5)
    const time = fakeTime()
    const error = (await svc
      .client({ ...time.options, timeoutMs: 5000 })
      .orders.get('ordr_1')
      .catch((e: unknown) => e)) as TimeoutError
    expect(time.deadlines).toEqual([5000, 5000, 5000, 5000])
    expect(time.retries.map((r) => r.reason)).toEqual(['got no answer within 5000 ms', 'got no answer within 5000 ms', 'got no answer within 5000 ms'])
    expect(error.tried).toEqual({ attempts: 4, elapsedMs: 20_000 + 125 + 250 + 500 })
  })

  it('a timeout longer than the budget makes the budget that long: one attempt', async () => {
    silent(2)
    const time = fakeTime()
    const error = (await svc
      .client({ ...time.options, timeoutMs: 90_000 })
      .orders.get('ordr_1')
      .catch((e: unknown) => e)) as TimeoutError
    expect(time.deadlines).toEqual([90_000])
    expect(error.tried).toBeUndefined()
    expect(error.message).toBe('GET /orders/ordr_1 got no answer within 90000 ms')
  })

  it('does not start a retry whose wait would outlast the budget (Retry-After 40 s, twice)', async () => {
    svc.on('GET', '/orders/ordr_1', { status: 503, body: { message: 'Busy' }, headers: { 'retry-after': '40' } }, { times: 3 })
    const time = fakeTime()
    const error = (await svc
      .client(time.options)
      .orders.get('ordr_1')
      .catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(svc.requests).toHaveLength(2)
    expect(error.tried).toEqual({ attempts: 2, elapsedMs: 40_000 })
    expect(describeError(error).json).toMatchObject({ attempts: 2, elapsedMs: 40_000 })
  })

  it('tells the observer before each retry what failed and when the next try comes', async () => {
    svc.on('GET', '/orders/ordr_1', { status: 503, body: { message: 'Busy' } }, { times: 2 })
    svc.on('GET', '/orders/ordr_1', { body: { orderId: 'ordr_1', amount: { minorCurrencyUnits: 1, currency: 'AUD' } } })
    const time = fakeTime()
    const order = await svc.client(time.options).orders.get('ordr_1')
    expect(order.orderId).toBe('ordr_1')
    expect(time.retries).toEqual([
      { method: 'GET', path: '/orders/ordr_1', retry: 1, maxRetries: 3, reason: 'Busy', waitMs: 125, elapsedMs: 0 },
      { method: 'GET', path: '/orders/ordr_1', retry: 2, maxRetries: 3, reason: 'Busy', waitMs: 250, elapsedMs: 125 },
    ])
  })

  it('refuses a timeout or budget that is not above zero', () => {
    expect(() => svc.client({ timeoutMs: 0 })).toThrow(/timeoutMs must be/)
    expect(() => svc.client({ budgetMs: Number.NaN })).toThrow(/budgetMs must be/)
  })
})
