// A hostile service (a test double on 127.0.0.1, not the emulator) whose error answers carry
// terminal escapes: stderr shows them as text, never as controls; with --json the error is one
// JSON line on stderr and stdout carries no error, even when an --all walk fails part way.
import { describe, expect, it } from 'vitest'

import { useRecordingServer } from '../helpers/command-harness.js'

const recording = useRecordingServer()
const { cli, server } = recording

// Anything a terminal would obey in a line: C0 but the line feed, DEL, C1, bidi controls.
const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

const ORDER_ID = 'ordr_ZqCNoNcm_22WeZ-j'
const HOSTILE_ERROR = {
  statusCode: 404,
  message: 'No such order\u001b]52;c;cm0gLXJmIH4K\u0007\u001b[2J\u001b[H\rSuccess, exit 0',
  errorCode: 'not_found\u009b31m',
  detail: '\u001b]8;;https://evil.example/login\u001b\\log in again\u001b]8;;\u001b\\ \u202egnp.exe',
  tracer: 'req_\u001b]0;pwned\u0007',
}

const order = (n: number) => ({
  orderId: `ordr_Walk${String(n).padStart(12, '0')}`,
  merchantId: 'mcht_Mx1Mx1Mx1Mx1Mx1M',
  amount: { minorCurrencyUnits: 100 + n, currency: 'AUD' },
  description: `order ${n}`,
  createdAt: '2026-11-21T10:00:00.000Z',
})

describe('a hostile service', () => {
  it('its error fields reach stderr as visible escapes: no clipboard, clear, title, link or fake line', async () => {
    server.respond(() => ({ status: 404, body: HOSTILE_ERROR }))
    const result = await cli('orders', 'get', ORDER_ID)
    expect(result.code).toBe(5)
    expect(result.stdout).toBe('')
    expect(result.stderr).not.toMatch(OBEYED)
    expect(result.stderr).toContain('No such order\\u001b]52;c;cm0gLXJmIH4K\\u0007\\u001b[2J\\u001b[H\\rSuccess, exit 0 [not_found\\u009b31m]')
    expect(result.stderr).toContain('\\u202egnp.exe')
    // One error line and one hint line: the service's text did not make a line of its own.
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(2)
  })

  it('a non-JSON error body is shown inert too', async () => {
    server.respond(() => ({ status: 409, headers: { 'content-type': 'text/html' }, body: '<h1>\u001b]0;title\u0007Conflict\u009b2J</h1>\u001b[1A' }))
    const result = await cli('orders', 'get', ORDER_ID)
    expect(result.code).toBe(6)
    expect(result.stderr).not.toMatch(OBEYED)
  })

  it('with --json the error is one JSON line on stderr with the same values, escaped, and stdout is empty', async () => {
    server.respond(() => ({ status: 404, body: HOSTILE_ERROR }))
    const result = await cli('orders', 'get', ORDER_ID, '--json')
    expect(result.code).toBe(5)
    expect(result.stdout).toBe('')
    expect(result.stderr.endsWith('\n')).toBe(true)
    expect(result.stderr.slice(0, -1)).not.toMatch(OBEYED)
    expect(result.stderr.slice(0, -1)).not.toContain('\n')
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 5, errorCode: HOSTILE_ERROR.errorCode, tracer: HOSTILE_ERROR.tracer } })
  })

  it('--debug lines show the hostile body inert', async () => {
    server.respond(() => ({ status: 404, body: HOSTILE_ERROR }))
    const result = await cli('orders', 'get', ORDER_ID, '--debug')
    expect(result.code).toBe(5)
    expect(result.stderr).toMatch(/← 404 GET/)
    expect(result.stderr).not.toMatch(OBEYED)
  })
})

describe('an --all walk that fails after the first page', () => {
  const walk = () =>
    server.respond(({ query }) => {
      const page = Number(query.get('page') ?? '1')
      if (page === 1) return { body: [order(1), order(2)], headers: { 'Page-Count': '3', 'Total-Record-Count': '6' } }
      return { status: 500, body: { statusCode: 500, message: 'exploded\u001b[2J', errorCode: 'boom' } }
    })

  it.each([
    ['--json', ['--json'], [order(1), order(2)]],
    ["--query '[].orderId'", ['--query', '[].orderId'], [order(1).orderId, order(2).orderId]],
  ] as const)('under %s, stdout is the one closed JSON array of what came, and the error only on stderr', async (_name, flags, printed) => {
    walk()
    const result = await cli('orders', 'list', '--all', '--limit', '2', ...flags)
    expect(result.code).toBe(7)
    expect(JSON.parse(result.stdout)).toEqual(printed)
    expect(result.stdout).not.toContain('"error"')
    const lines = result.stderr.trimEnd().split('\n')
    expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ error: { code: 7, status: 500, errorCode: 'boom' } })
    expect(result.stderr).not.toMatch(OBEYED)
  })

  it('under a --query over the whole list, stdout stays empty', async () => {
    walk()
    const result = await cli('orders', 'list', '--all', '--limit', '2', '--query', 'length(@)')
    expect(result.code).toBe(7)
    expect(result.stdout).toBe('')
    expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1) as string)).toMatchObject({ error: { code: 7 } })
  })
})
