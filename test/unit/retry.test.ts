import { describe, expect, it } from 'vitest'
import { ConnectionError, TimeoutError } from '../../src/client/errors.js'
import { backoffMs, retryAfterMs, shouldRetry } from '../../src/client/retry.js'

const refused = new ConnectionError({ method: 'POST', path: '/x', code: 'ECONNREFUSED', mayHaveReachedService: false, reason: 'refused' })
const reset = new ConnectionError({ method: 'POST', path: '/x', code: 'ECONNRESET', mayHaveReachedService: true, reason: 'reset' })
const timeout = new TimeoutError({ method: 'POST', path: '/x', timeoutMs: 10 })
const other = new Error('something else')

type Failure = { status: number } | { error: unknown; label: string }
const failures: Failure[] = [
  { status: 400 },
  { status: 401 },
  { status: 404 },
  { status: 409 },
  { status: 422 },
  { status: 429 },
  { status: 500 },
  { status: 501 },
  { status: 502 },
  { status: 503 },
  { status: 504 },
  { error: refused, label: 'connection refused (never reached the service)' },
  { error: reset, label: 'connection reset (may have reached the service)' },
  { error: timeout, label: 'timeout' },
  { error: other, label: 'an unknown error' },
]

const idempotentRetried = (f: Failure) =>
  'status' in f ? [429, 502, 503, 504].includes(f.status) : f.error === refused || f.error === reset || f.error === timeout
const unsafeRetried = (f: Failure) => 'error' in f && f.error === refused

const rows = ['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'PATCH'].flatMap((method) =>
  failures.map((failure) => {
    const idempotent = !['POST', 'PATCH'].includes(method)
    const expected = idempotent ? idempotentRetried(failure) : unsafeRetried(failure)
    const label = 'status' in failure ? `status ${failure.status}` : failure.label
    return { method, failure, label, expected }
  }),
)

describe('shouldRetry', () => {
  it.each(rows)('$method after $label → retry: $expected', ({ method, failure, expected }) => {
    const input = 'status' in failure ? { status: failure.status } : { error: failure.error }
    expect(shouldRetry({ method, attempt: 1, maxRetries: 3, ...input })).toBe(expected)
  })

  it('is case-insensitive about the method', () => {
    expect(shouldRetry({ method: 'get', attempt: 1, maxRetries: 3, status: 503 })).toBe(true)
    expect(shouldRetry({ method: 'post', attempt: 1, maxRetries: 3, status: 503 })).toBe(false)
  })

  it.each([
    { attempt: 1, maxRetries: 3, expected: true },
    { attempt: 3, maxRetries: 3, expected: true },
    { attempt: 4, maxRetries: 3, expected: false },
    { attempt: 1, maxRetries: 0, expected: false },
  ])('attempt $attempt of maxRetries $maxRetries → $expected', ({ attempt, maxRetries, expected }) => {
    expect(shouldRetry({ method: 'GET', attempt, maxRetries, status: 503 })).toBe(expected)
    expect(shouldRetry({ method: 'POST', attempt, maxRetries, error: refused })).toBe(expected)
  })

  it('does not retry a success or an attempt with neither status nor error', () => {
    expect(shouldRetry({ method: 'GET', attempt: 1, maxRetries: 3, status: 200 })).toBe(false)
    expect(shouldRetry({ method: 'GET', attempt: 1, maxRetries: 3 })).toBe(false)
  })
})

describe('backoffMs', () => {
  it('grows exponentially with full jitter from 250 ms', () => {
    const top = () => 0.999999
    expect(backoffMs({ attempt: 1, random: top })).toBe(249)
    expect(backoffMs({ attempt: 2, random: top })).toBe(499)
    expect(backoffMs({ attempt: 3, random: top })).toBe(999)
    expect(backoffMs({ attempt: 1, random: () => 0 })).toBe(0)
    expect(backoffMs({ attempt: 3, random: () => 0.5 })).toBe(500)
  })

  it('stays within [0, min(cap, base·2^(n-1))) for any draw', () => {
    for (let attempt = 1; attempt <= 40; attempt++) {
      for (const r of [0, 0.1, 0.5, 0.9, 0.9999999]) {
        const ms = backoffMs({ attempt, random: () => r })
        const ceiling = Math.min(20_000, 250 * 2 ** (attempt - 1))
        expect(ms).toBeGreaterThanOrEqual(0)
        expect(ms).toBeLessThan(ceiling)
      }
    }
  })

  it('is capped at capMs', () => {
    expect(backoffMs({ attempt: 30, random: () => 0.999999 })).toBe(19_999)
    expect(backoffMs({ attempt: 30, random: () => 0.5, capMs: 1000 })).toBe(500)
  })

  it('tolerates a broken random source', () => {
    expect(backoffMs({ attempt: 2, random: () => Number.NaN })).toBe(0)
    expect(backoffMs({ attempt: 2, random: () => 7 })).toBe(499)
  })

  it('honours Retry-After in seconds', () => {
    expect(backoffMs({ attempt: 1, retryAfter: '3', random: () => 0.5 })).toBe(3000)
    expect(backoffMs({ attempt: 1, retryAfter: '0', random: () => 0.5 })).toBe(0)
    expect(backoffMs({ attempt: 1, retryAfter: ' 1.5 ', random: () => 0.5 })).toBe(1500)
  })

  it('honours Retry-After as an HTTP-date relative to now', () => {
    const now = Date.parse('2026-11-20T10:00:00Z')
    expect(backoffMs({ attempt: 1, retryAfter: 'Fri, 20 Nov 2026 10:00:07 GMT', random: () => 0.5, now })).toBe(7000)
    expect(backoffMs({ attempt: 1, retryAfter: 'Fri, 20 Nov 2026 09:59:00 GMT', random: () => 0.5, now })).toBe(0)
  })

  it('caps Retry-After at 60 s (or the given cap)', () => {
    expect(backoffMs({ attempt: 1, retryAfter: '3600', random: () => 0.5 })).toBe(60_000)
    expect(backoffMs({ attempt: 1, retryAfter: '30', random: () => 0.5, retryAfterCapMs: 10_000 })).toBe(10_000)
  })

  it('falls back to the exponential delay when Retry-After is unreadable', () => {
    expect(backoffMs({ attempt: 2, retryAfter: 'soon', random: () => 0.5 })).toBe(250)
    expect(backoffMs({ attempt: 2, retryAfter: '-5', random: () => 0.5 })).toBe(250)
    expect(backoffMs({ attempt: 2, retryAfter: '', random: () => 0.5 })).toBe(250)
    expect(retryAfterMs(undefined, 0)).toBeUndefined()
  })
})
