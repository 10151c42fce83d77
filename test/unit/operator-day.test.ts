// Issue 27's pure pieces: calendar months, the --query field check, the interface's operations,
// -o/--output, the variables each command reads, and the width of a terminal that reports 0.
import { describe, expect, it } from 'vitest'

import { applyOutputFormat } from '../../src/cli/flags/output-format.js'
import { resolveRange } from '../../src/cli/range/range.js'
import { operationsAt, unknownOperationNote } from '../../src/cli/requests/operations.js'
import { balancesWithDecimals } from '../../src/cli/requests/merchant-defaults.js'
import { commandEnvironment, environmentHelp } from '../../src/cli/terminal/environment-help.js'
import { lastMonthBounds, monthBounds, withMonth } from '../../src/cli/validate/dates.js'
import { checkPrefix } from '../../src/cli/validate/ids.js'
import { missingQueryFields } from '../../src/output/query-fields.js'
import { terminalWidth } from '../../src/output/terminal.js'
import { metadataCell } from '../../src/output/views/bookkeeping.js'

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

describe('--query fields', () => {
  const record = { orderId: 'ordr_1', amount: { minorCurrencyUnits: 1, currency: 'AUD' } }

  it('names a field the record lacks, with the fields it has', () => {
    expect(missingQueryFields('orderid', record)).toEqual({ missing: ['orderid'], has: ['orderId', 'amount'] })
    expect(missingQueryFields('{id: orderId, c: amount.currency}', record)).toBeUndefined()
    expect(missingQueryFields('amount.nope', record)).toBeUndefined()
  })

  it('over a list, reads the fields a projection or filter takes from each record', () => {
    expect(missingQueryFields('[].orderid', [record])?.missing).toEqual(['orderid'])
    expect(missingQueryFields("[?status=='paid'].orderId", [record])?.missing).toEqual(['status'])
    expect(missingQueryFields('[0].orderId', [record])).toBeUndefined()
    expect(missingQueryFields('length(@)', [record])).toBeUndefined()
  })
})

describe('the interface and its operations', () => {
  it('knows the paths of the contract, with ids in their templates', () => {
    expect(operationsAt('GET', '/orders/ordr_1').known).toBe(true)
    expect(operationsAt('PUT', '/orders/ordr_1').known).toBe(false)
    expect(unknownOperationNote('GET', '/disputes/x', 'payfac')).toMatch(/no operation GET \/disputes\/x .*payfac api --list/)
    expect(unknownOperationNote('PUT', '/orders/ordr_1', 'payfac')).toMatch(/at this path it has GET, DELETE, PATCH/)
    expect(unknownOperationNote('GET', '/transactions/disputes', 'payfac')).toBeUndefined()
  })
})

describe('-o/--output', () => {
  it('spells --json or --csv; table spells neither; two formats are refused', () => {
    const json: Record<string, unknown> = { output: 'json' }
    applyOutputFormat(json)
    expect(json.json).toBe(true)
    const table: Record<string, unknown> = { output: 'table' }
    applyOutputFormat(table)
    expect(table.json ?? table.csv).toBeUndefined()
    expect(() => applyOutputFormat({ output: 'csv', json: true })).toThrow(/two formats/)
  })
})

describe('environment', () => {
  it('a command that calls the service reads the settings variables; a webhook command its secret', () => {
    const api = commandEnvironment('orders:list', ['profile', 'base-url', 'json'])
    expect(api).toEqual(expect.arrayContaining(['PAYFAC_API_KEY', 'PAYFAC_PROFILE', 'PAYFAC_BASE_URL', 'PAYFAC_TIMEOUT']))
    expect(api).not.toContain('PAYFAC_WEBHOOK_SECRET')
    expect(commandEnvironment('webhooks:verify', ['secret'])).toContain('PAYFAC_WEBHOOK_SECRET')
    expect(commandEnvironment('emulator:faults', ['add'])).toContain('PAYFAC_EMULATOR_TOKEN')
    expect(environmentHelp('payfac', 80)).toContain('PAYFAC_CREDENTIAL_KIND')
  })
})

describe('small things an operator meets', () => {
  it('a terminal that reports 0 columns is laid out at 80', () => {
    expect(terminalWidth(0)).toBe(80)
    expect(terminalWidth(undefined)).toBe(80)
    expect(terminalWidth(132)).toBe(132)
  })

  it('text given for an order id that looks like a reference suggests orders list --reference', () => {
    expect(() => checkPrefix('month-239', 'ordr', 'Order id')).toThrow(
      expect.objectContaining({ hint: expect.stringContaining('orders list --reference month-239') }),
    )
    expect(() => checkPrefix('cust_1', 'ordr', 'Order id')).toThrow(expect.objectContaining({ hint: expect.not.stringContaining('--reference') }))
  })

  it('balances carry an exact decimal beside each minor amount', () => {
    const answer = balancesWithDecimals({
      merchantId: 'm',
      balances: [
        { currency: 'JPY', available: { minorCurrencyUnits: 1234, currency: 'JPY' } },
        { currency: 'AUD', pending: { minorCurrencyUnits: -5, currency: 'AUD' } },
      ],
    })
    expect(answer.balances[0]?.available).toEqual({ minorCurrencyUnits: 1234, currency: 'JPY', decimal: '1234' })
    expect(answer.balances[1]?.pending).toEqual({ minorCurrencyUnits: -5, currency: 'AUD', decimal: '-0.05' })
  })

  it('a table cell of order metadata leaves out the run marker', () => {
    expect(metadataCell({ payfacRun: 'run_1' })).toBe('-')
    expect(metadataCell({ payfacRun: 'run_1', plan: 'gold' })).toBe('{"plan":"gold"}')
  })
})
