import { describe, expect, it } from 'vitest'
import { UsageError } from '../../src/cli/errors/index.js'
import { describeRetry } from '../../src/cli/flags/lists.js'
import { requestTimeoutMs } from '../../src/cli/validate/durations.js'

describe('requestTimeoutMs', () => {
  it.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['45', 45_000],
    [' 3s ', 3000],
  ])('reads %j as %i ms', (input, ms) => {
    expect(requestTimeoutMs(input, '--timeout')).toBe(ms)
  })

  it.each(['0', '0s', '', 'soon', '1.5s', '-1s', '10 s', '3d'])('refuses %j with a usage error naming where it came from', (input) => {
    expect(() => requestTimeoutMs(input, 'PAYFAC_TIMEOUT')).toThrow(UsageError)
    expect(() => requestTimeoutMs(input, 'PAYFAC_TIMEOUT')).toThrow(/^PAYFAC_TIMEOUT takes a duration above 0/)
  })
})

describe('describeRetry', () => {
  it('says what is retried, when, how far along, and why, in one line', () => {
    const line = describeRetry({ method: 'GET', path: '/orders', retry: 2, maxRetries: 3, reason: 'Service unavailable', waitMs: 1250, elapsedMs: 30_400 })
    expect(line).toBe('Retrying GET /orders in 1.3 s (retry 2 of 3, 30.4 s so far): Service unavailable')
  })
})
