// Calendar months: --month YYYY-MM and --last-month as UTC bounds, checked as flags.
import { describe, expect, it } from 'vitest'

import { resolveRange } from '../../src/cli/range/range.js'
import { lastMonthBounds, monthBounds, withMonth } from '../../src/cli/validate/dates.js'

describe('calendar months', () => {
  it('a month runs from its first day to the first day of the next, across the year end', () => {
    expect(monthBounds('2026-02')).toEqual({ from: '2026-02-01', to: '2026-03-01' })
    expect(monthBounds('2026-12')).toEqual({ from: '2026-12-01', to: '2027-01-01' })
    expect(() => monthBounds('2026-00')).toThrow(/YYYY-MM/)
    expect(() => monthBounds('2026-1')).toThrow(/YYYY-MM/)
    expect(() => monthBounds('2101-01')).toThrow(/out of range/)
  })

  it('the last month is the one before now in UTC, whatever the hour', () => {
    expect(lastMonthBounds(new Date('2027-01-01T00:00:00Z'))).toEqual({ from: '2026-12-01', to: '2027-01-01' })
    expect(lastMonthBounds(new Date('2026-03-31T23:59:59Z'))).toEqual({ from: '2026-02-01', to: '2026-03-01' })
  })

  it('month-end ranges take a month, and refuse it with --from, --to or --last', () => {
    const now = new Date('2026-11-15T10:00:00Z')
    // Sent as date-times, as the contract's filters (and payfac's OpenAPI document) take them.
    expect(resolveRange({ month: '2026-10' }, now)).toMatchObject({ fromText: '2026-10-01T00:00:00.000Z', toText: '2026-11-01T00:00:00.000Z' })
    expect(resolveRange({ from: '2026-10-01', to: '2026-10-02T12:00:00+10:00' }, now)).toMatchObject({
      fromText: '2026-10-01T00:00:00.000Z',
      toText: '2026-10-02T12:00:00+10:00',
    })
    expect(resolveRange({ 'last-month': true }, now)?.from.toISOString()).toBe('2026-10-01T00:00:00.000Z')
    expect(() => resolveRange({ month: '2026-10', last: '7d' }, now)).toThrow(/cannot be combined/)
    expect(() => resolveRange({ month: '2026-10', 'last-month': true }, now)).toThrow(/cannot be combined/)
  })

  it('a list query gets the month in its own range fields', () => {
    const now = new Date('2026-11-15T10:00:00Z')
    expect(withMonth({ createdAfter: undefined, createdBefore: undefined }, { month: '2026-01' }, now)).toEqual({
      createdAfter: '2026-01-01T00:00:00.000Z',
      createdBefore: '2026-02-01T00:00:00.000Z',
    })
    expect(withMonth({ createdFromInclusive: undefined }, { 'last-month': true }, now)).toEqual({
      createdFromInclusive: '2026-10-01T00:00:00.000Z',
      createdToExclusive: '2026-11-01T00:00:00.000Z',
    })
    expect(withMonth({ createdAfter: '2026-01-05' }, {}, now)).toEqual({ createdAfter: '2026-01-05' })
    expect(() => withMonth({ createdAfter: '2026-01-05' }, { month: '2026-01' }, now)).toThrow(/whole range/)
  })
})
