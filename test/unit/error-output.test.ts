// The one error writer: whatever the service put in its error, stderr shows it inert, and with
// --json the error is one JSON line on stderr, never anything on stdout.
import { describe, expect, it } from 'vitest'

import { ApiError } from '../../src/client/errors.js'
import { errorText, jsonLine, reportError } from '../../src/cli/errors/output.js'
import { UsageError } from '../../src/cli/errors/index.js'
import { describeError } from '../../src/cli/errors/exit-codes.js'

const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

const hostile = new ApiError({
  status: 502,
  method: 'GET',
  path: '/orders/ordr_1',
  body: {
    statusCode: 502,
    message: 'Bad\u001b]52;c;cm0gLXJmIH4=\u0007 gateway\r\nSuccess, exit 0\u001b[2J',
    errorCode: 'x\u009b31m\u202e',
    detail: '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\',
    tracer: 'req_\u001b]0;title\u0007',
  },
})

function captured(): { write(text: string): boolean; text: () => string } {
  const chunks: string[] = []
  return {
    write: (text: string) => {
      chunks.push(text)
      return true
    },
    text: () => chunks.join(''),
  }
}

describe('the error writer', () => {
  it('shows every control of the service error as an escape, on one line plus the hint', () => {
    const text = errorText(describeError(hostile), false)
    const lines = text.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^Error: Bad\\u001b\]52;c;cm0gLXJmIH4=\\u0007 gateway\\r\\nSuccess, exit 0\\u001b\[2J \[x\\u009b31m\\u202e\]/)
    expect(lines[1]).toMatch(/^Hint: /)
    expect(text.slice(0, -1)).not.toMatch(OBEYED)
  })

  it('with --json writes one line of {"error": …} with the same values and no raw C1 or bidi control', () => {
    const text = errorText(describeError(hostile), true)
    expect(text.endsWith('\n')).toBe(true)
    expect(text.slice(0, -1)).not.toMatch(OBEYED)
    expect(JSON.parse(text)).toMatchObject({ error: { code: 7, status: 502, errorCode: 'x\u009b31m\u202e', tracer: 'req_\u001b]0;title\u0007' } })
  })

  it('keeps a usage error on one line with its hint, and user input in it inert', () => {
    const text = errorText(describeError(new UsageError('--reference "a\u001b[2Kb" is too long', 'Use at most 50 characters.')), false)
    expect(text).toBe('Error: --reference "a\\u001b[2Kb" is too long (use at most 50 characters)\n')
  })

  it('adds the stack of an unexpected error under --debug, inert', () => {
    const error = new Error('boom\u001b[31m')
    const err = captured()
    expect(reportError(error, { json: false, debug: true, stderr: err })).toBe(1)
    expect(err.text()).toContain('Error: boom\\u001b[31m\n')
    expect(err.text()).toMatch(/\n\s+at /)
    expect(err.text()).not.toContain('\u001b')
  })

  it('reports on the stream it is given and returns the exit code; a closed pipe reports nothing', () => {
    const err = captured()
    expect(reportError(hostile, { json: true, stderr: err })).toBe(7)
    expect(err.text().split('\n')).toHaveLength(2)
    const quiet = captured()
    expect(reportError(Object.assign(new Error('gone'), { name: 'OutputClosedError' }), { json: true, stderr: quiet })).toBe(0)
    expect(quiet.text()).toBe('')
  })

  it('masks a card number the service echoed', () => {
    const echoed = new ApiError({ status: 400, method: 'POST', path: '/tokens', body: { message: 'bad card 4111 1111 1111 1111' } })
    const err = captured()
    reportError(echoed, { json: false, stderr: err })
    expect(err.text()).toContain('****1111')
    expect(err.text()).not.toContain('4111 1111')
    expect(jsonLine({ a: '\u0085' })).toBe('{"a":"\\u0085"}')
  })
})
