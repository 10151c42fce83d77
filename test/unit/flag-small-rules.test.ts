// Small rules an operator meets: the interface's operations, -o/--output as the format flags, the
// environment variables each command reads, and a terminal that reports 0 columns.
import { describe, expect, it } from 'vitest'

import { applyOutputFormat } from '../../src/cli/flags/output-format.js'
import { operationsAt, unknownOperationNote } from '../../src/cli/requests/operations.js'
import { balancesWithDecimals } from '../../src/cli/requests/merchant-defaults.js'
import { commandEnvironment, environmentHelp } from '../../src/cli/terminal/environment-help.js'
import { checkPrefix } from '../../src/cli/validate/ids.js'
import { terminalWidth } from '../../src/output/terminal.js'
import { metadataCell } from '../../src/output/views/bookkeeping.js'

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
