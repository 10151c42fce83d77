// Every answer is checked before it decides anything: against a hostile test double (not the
// emulator) that answers with the wrong shape, HTML, a body cut short, nothing, or a length it
// never sends. Each row runs payfac in this process and looks at what reached the double.
import { describe, expect, it } from 'vitest'

import { type HostileAnswer, useHostileAnswers } from '../helpers/hostile-answers.js'

const TRAN = 'tran_AAAAAAAAAAAAAAAA'
const ORDER = 'ordr_AAAAAAAAAAAAAAAA'
const ORDER_RECORD = { orderId: ORDER, amount: { minorCurrencyUnits: 1250, currency: 'AUD' }, referenceOrderId: 'inv-1' }

const hostile = useHostileAnswers('payfac-hostile-')
const { payfac, changes } = hostile

describe('a guard read that does not match the contract stops the money command (exit 7, nothing sent)', () => {
  it.each<[string, unknown, RegExp]>([
    ['{"foo":1} for the transaction', { foo: 1 }, /purchaseDetails: is required/],
    [
      'a transaction without its amount',
      { purchaseDetails: { transactionId: TRAN, refundedAmount: 0 } },
      /purchaseDetails\.amount\.minorCurrencyUnits: is required/,
    ],
    [
      'an amount that is not an integer',
      { purchaseDetails: { amount: { minorCurrencyUnits: '1250', currency: 'AUD' } } },
      /purchaseDetails\.amount\.minorCurrencyUnits/,
    ],
    // The service's fault, not the user's: never exit 2 blaming --amount or --currency.
    [
      'a negative amount',
      { purchaseDetails: { amount: { minorCurrencyUnits: -1000, currency: 'AUD' } } },
      /purchaseDetails\.amount\.minorCurrencyUnits: expected a whole number of minor units, 0 or more/,
    ],
    [
      'a currency that is not a code',
      { purchaseDetails: { amount: { minorCurrencyUnits: 1000, currency: 'AUD\u001b' } } },
      /purchaseDetails\.amount\.currency: expected a three-letter currency code/,
    ],
  ])('refund with --currency: %s', async (_name, body, problem) => {
    hostile.service.answer(() => ({ body }))
    const result = await payfac('transactions', 'refund', TRAN, '--amount', '1.00', '--currency', 'AUD', '--yes')
    expect(result.code, result.stderr).toBe(7)
    expect(result.stderr).toMatch(new RegExp(`the service's answer to GET /transactions/${TRAN} \\(200\\) did not match the contract: `, 'i'))
    expect(result.stderr).toMatch(problem)
    expect(result.stdout).toBe('')
    expect(hostile.service.arrived.map((r) => r.method)).toContain('GET')
    expect(changes()).toEqual([])
  })
})

describe("a transfer or reversal in another currency than the transaction's is refused before sending", () => {
  it.each([
    ['transfer', ['transactions', 'transfer', TRAN, '--amount', '2.50', '--currency', 'AUD', '--to', 'mcht_AAAAAAAAAAAAAAAA', '--repeat-window', '0', '--yes']],
    [
      'reverse-transfer',
      [
        'transactions',
        'reverse-transfer',
        TRAN,
        '--transfer',
        'trnf_AAAAAAAAAAAAAAAA',
        '--amount',
        '2.50',
        '--currency',
        'AUD',
        '--repeat-window',
        '0',
        '--yes',
      ],
    ],
  ])('%s --currency AUD on a JPY transaction: exit 2, nothing sent (it sent 250, i.e. 250 JPY)', async (_name, argv) => {
    hostile.service.answer(() => ({
      body: { transactionId: TRAN, purchaseDetails: { transactionId: TRAN, amount: { minorCurrencyUnits: 1000, currency: 'JPY' } } },
    }))
    const result = await payfac(...argv)
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toContain("--currency AUD is not the transaction's currency (JPY)")
    expect(changes()).toEqual([])
  })
})

describe('a read answered with something that is not the JSON record is exit 7, not "a bug"', () => {
  it.each<[string, HostileAnswer, RegExp]>([
    ['an HTML page', { headers: { 'content-type': 'text/html' }, body: '<html><body>Maintenance</body></html>' }, /expected JSON but got text\/html/],
    ['truncated JSON', { body: '{"orderId":"ordr_AAAA' }, /expected JSON/],
    ['an empty body', { body: '' }, /did not match the contract/],
    ['a JSON array', { body: [] }, /did not match the contract/],
    ['a body cut short by a dropped connection', { body: JSON.stringify(ORDER_RECORD), cut: 20 }, /GET \/orders\/ordr_\w+ failed/],
  ])('orders get: %s', async (_name, answer, message) => {
    hostile.service.answer(() => answer)
    const result = await payfac('orders', 'get', ORDER)
    expect(result.code, result.stderr).toBe(7)
    expect(result.stderr).toMatch(message)
    expect(result.stderr).not.toMatch(/looks like a bug/)
    expect(result.stdout).toBe('')
  })

  it('a declared Content-Length over 64 MiB is refused before the body is read', async () => {
    hostile.service.answer(() => ({ headers: { 'content-length': String(64 * 1024 * 1024 + 1) }, cut: 'hold' }))
    const result = await payfac('orders', 'get', ORDER)
    expect(result.code, result.stderr).toBe(7)
    expect(result.stderr).toMatch(/declares 67108865 bytes \(Content-Length\), more than the 64 MiB payfac reads/)
  })
})

describe('a write answered 2xx with a body that does not match is an unknown outcome (exit 7), never an empty record', () => {
  it.each<[string, HostileAnswer]>([
    ['{}', { status: 200, body: {} }],
    ['an HTML page', { status: 201, headers: { 'content-type': 'text/html' }, body: '<html>ok</html>' }],
    ['an empty body', { status: 200, body: '' }],
  ])('orders create answered with %s', async (_name, answer) => {
    hostile.service.answer((request) => (request.method === 'GET' ? { body: [], headers: { 'page-count': '0', 'total-record-count': '0' } } : answer))
    const result = await payfac(
      'orders',
      'create',
      '--amount',
      '12.50',
      '--currency',
      'AUD',
      '--reference',
      `inv-${Math.random().toString(36).slice(2)}`,
      '--yes',
    )
    expect(result.code, result.stderr).toBe(7)
    expect(result.stderr).toMatch(/Outcome unknown/)
    expect(result.stderr).toMatch(/did not match the contract/)
    expect(result.stdout).toBe('')
    expect(changes().map((r) => `${r.method} ${r.path}`)).toEqual(['POST /orders'])
  })
})
