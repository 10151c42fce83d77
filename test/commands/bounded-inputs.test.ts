// Inputs are bounded before anything is sent: waits from 1 ms to 24 h, dates from 1970-01-01 to
// 2100-12-31 (every date flag, one check), values at most 2,048 characters, no control
// characters (the value shown escaped), and --columns checked before the first request. Each
// refusal is exit 2 with nothing on stdout and no request at the recording server.
import { describe, expect, it } from 'vitest'

import { itRefusesBeforeSending, type RefusalCase, useRecordingServer } from '../helpers/command-harness.js'
import { runCommand } from '../helpers/run-command.js'

const ORDER = 'ordr_AAAAAAAAAAAAAAAA'
const AGREEMENT = 'ptagr_AAAAAAAAAAAAAAAA'
const MEGABYTE = 'r'.repeat(1024 * 1024)

const listAnswer = () => ({ status: 200, headers: { 'page-count': '1', 'total-record-count': '0' }, body: [] })
const recording = useRecordingServer(listAnswer)

const cases: RefusalCase[] = [
  // Waits
  ['--timeout past Node timers', ['orders', 'list', '--timeout', '99999999999999s'], /--timeout must be from 1ms to 24h \(got "99999999999999s"\)/],
  ['--timeout of 25 hours', ['orders', 'list', '--timeout', '25h'], /--timeout must be from 1ms to 24h/],
  ['--timeout of 0 ms', ['orders', 'get', ORDER, '--timeout', '0ms'], /--timeout takes a duration above 0/],
  ['a waiting --timeout of 25 hours', ['payto', 'status', AGREEMENT, '--poll', '--timeout', '25h'], /--timeout must be from 1ms to 24h/],
  ['a waiting --timeout past Node timers', ['payto', 'status', AGREEMENT, '--poll', '--timeout', '99999999999999s'], /--timeout must be from 1ms to 24h/],
  ['--interval past Node timers', ['payto', 'status', AGREEMENT, '--poll', '--interval', '99999999999999s'], /--interval must be from 100ms to 24h/],
  // Lengths
  ['a 1 MB --reference', ['orders', 'list', '--reference', MEGABYTE], /--reference is 1048576 characters long; payfac takes at most 2048/],
  [
    'a 2,049-character --description',
    ['orders', 'create', '--amount', '1', '--currency', 'AUD', '--description', 'd'.repeat(2049)],
    /--description is 2049 characters long/,
  ],
  ['a --reference given as --reference=… too long', ['orders', 'list', `--reference=${'x'.repeat(5000)}`], /--reference is 5000 characters long/],
  // Dates
  [
    '--created-after in year 0',
    ['orders', 'list', '--created-after', '0000-01-01'],
    /--created-after: 0000-01-01 is out of range: dates run from 1970-01-01 to 2100-12-31/,
  ],
  ['--created-before in 2101', ['orders', 'list', '--created-before', '2101-01-01'], /--created-before: 2101-01-01 is out of range/],
  ['a timestamp in 1969', ['transactions', 'list', '--created-after', '1969-12-31T23:00:00Z'], /--created-after: 1969-12-31 is out of range/],
  [
    '--from in year 0 (the same check)',
    ['settlement', 'reconcile', '--currency', 'AUD', '--from', '0000-01-01', '--to', '2026-01-01'],
    /--from: 0000-01-01 is out of range/,
  ],
  // Control characters
  [
    'CR and LF in a flag value',
    ['orders', 'list', '--reference', 'inv\r\nFAKE: Success, exit 0'],
    /--reference holds a control character \(U\+000D\): "inv\\r\\nFAKE: Success, exit 0"/,
  ],
  [
    'ESC in an argument',
    ['orders', 'get', 'ordr_\u001b]52;c;AAAA\u0007'],
    /An argument holds a control character \(U\+001B\): "ordr_\\u001b\]52;c;AAAA\\u0007"/,
  ],
  ['a C1 control in --flag=value', ['orders', 'list', '--reference=a\u009bb'], /--reference holds a control character \(U\+009B\): "a\\u009bb"/],
  ['DEL in a flag value', ['orders', 'list', '--reference', 'a\u007fb'], /U\+007F/],
  ['a tab in a flag value', ['orders', 'list', '--reference', 'a\tb'], /--reference holds a control character \(U\+0009\): "a\\tb"/],
  // Every flag before the first request
  ['--columns naming no field', ['orders', 'list', '--columns', 'nope'], /--columns: no record payfac shows has a column or field "nope"/],
  ['--columns naming no field on a single record', ['orders', 'get', ORDER, '--columns', 'orderId,nope.deeper'], /field "nope"/],
  ['--columns with something that is not a path', ['orders', 'list', '--columns', 'orderId,$(x)'], /"\$\(x\)" is not a column name or dot path/],
]

describe('bounded inputs are refused before anything is sent (exit 2)', () => {
  itRefusesBeforeSending(cases, recording)

  it('never writes a raw CR, LF or ESC to stderr', async () => {
    const result = await recording.cli('orders', 'list', '--reference', 'a\r\nb\u001b[2J')
    expect(result.code).toBe(2)
    expect(result.stderr).not.toMatch(/[\r\u001b]/)
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('PAYFAC_TIMEOUT past 24 h is refused too', async () => {
    const result = await runCommand(['orders', 'list'], { env: { ...recording.env(), PAYFAC_TIMEOUT: '99999999999999s' } })
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(/PAYFAC_TIMEOUT must be from 1ms to 24h/)
    expect(recording.server.requests).toHaveLength(0)
  })
})

describe('values at the bounds are sent', () => {
  it('--timeout 24h, dates 1970-01-01 and 2100-12-31, a 2,048-character reference and known --columns', async () => {
    const reference = 'r'.repeat(2048)
    const result = await recording.cli(
      'orders',
      'list',
      '--timeout',
      '24h',
      '--created-after',
      '1970-01-01',
      '--created-before',
      '2100-12-31T23:59:59Z',
      '--reference',
      reference,
      '--columns',
      'orderId,amount.currency,purchaseDetails.status',
    )
    expect(result.code, result.stderr).toBe(0)
    expect(recording.server.requests).toHaveLength(1)
    const query = recording.server.requests[0]?.query
    expect(query?.get('createdAfter')).toBe('1970-01-01T00:00:00.000Z')
    expect(query?.get('createdBefore')).toBe('2100-12-31T23:59:59Z')
    expect(query?.get('referenceOrderId') ?? query?.get('reference')).toBe(reference)
  })

  it('--data may hold line breaks (JSON whitespace)', async () => {
    recording.server.respond(() => ({
      status: 200,
      body: { OnlineOrder: { order: { orderId: ORDER, amount: { minorCurrencyUnits: 100, currency: 'AUD' } } } },
    }))
    const result = await recording.cli(
      'orders',
      'create',
      '--data',
      '{\n  "CreateOnlineOrder": {\n\t"amount": {"minorCurrencyUnits": 100, "currency": "AUD"}\n  }\n}',
      '--if-exists',
      'create',
      '--json',
    )
    expect(result.code, result.stderr).toBe(0)
    expect(recording.server.requests.map((r) => r.method)).toContain('POST')
  })
})
