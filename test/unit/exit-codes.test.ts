import { describe, expect, it } from 'vitest'

import {
  ApiError,
  ConnectionError,
  InvalidInputError,
  ListIntegrityError,
  OutcomeUnknownError,
  PageLimitError,
  ResponseFormatError,
  TimeoutError,
} from '../../src/client/errors.js'
import { InterruptedError, RefusedError, UnavailableError, UnresolvedOutcomeError, UsageError, WaitTimeoutError } from '../../src/cli/errors/index.js'
import { describeError, exitCodeFor } from '../../src/cli/errors/exit-codes.js'
import { ConfigError } from '../../src/config/errors.js'

const api = (status: number, body: unknown = { statusCode: status, errorCode: 'some_code', message: 'Went wrong', tracer: 'req_1' }) =>
  new ApiError({ status, method: 'GET', path: '/orders', body })

class UnknownColumnError extends Error {
  override name = 'UnknownColumnError'
}

const oclifParseError = Object.assign(new Error('Nonexistent flag: --nope\nSee more help with --help'), { oclif: { exit: 2 } })

describe('exitCodeFor walks every error class to its documented exit code', () => {
  const table: Array<[string, unknown, number]> = [
    ['a usage error', new UsageError('bad flag'), 2],
    ['input the client refused', new InvalidInputError('bad money'), 2],
    ["oclif's own parse error", oclifParseError, 2],
    ['an unknown --columns name', new UnknownColumnError('nope'), 2],
    ['the iteration cap', new PageLimitError('too many pages'), 2],
    ['a configuration problem', new ConfigError('no profile'), 3],
    ['an emulator state file refused', Object.assign(new Error('newer format'), { name: 'StateFileError' }), 3],
    ['an emulator fixtures file refused', Object.assign(new Error('bad fixture'), { name: 'FixtureError' }), 3],
    ['an emulator port already taken', Object.assign(new Error('could not listen'), { name: 'ListenError' }), 2],
    ['401', api(401), 4],
    ['403', api(403), 4],
    ['404', api(404), 5],
    ['400', api(400), 6],
    ['405', api(405), 6],
    ['406', api(406), 6],
    ['409', api(409), 6],
    ['422', api(422), 6],
    ['a refusal decided by the CLI', new RefusedError('agreement declined'), 6],
    ['a refusal with a hint', new RefusedError('already running', 'stop it first'), 6],
    ['a background emulator that does not answer', new UnavailableError('did not answer', 'see its log'), 7],
    ['429', api(429), 7],
    ['500', api(500), 7],
    ['502 with an HTML body', api(502, '<html>bad gateway</html>'), 7],
    ['503', api(503), 7],
    ['a connection error', new ConnectionError({ method: 'GET', path: '/x', code: 'ECONNREFUSED', mayHaveReachedService: false, reason: 'refused' }), 7],
    ['a timeout', new TimeoutError({ method: 'GET', path: '/x', timeoutMs: 10 }), 7],
    ['a list page shorter than promised', new ListIntegrityError({ page: 3, reason: 'short-page', message: 'Page 3 of 4 had 0 records' }), 7],
    ['a malformed list page', new ListIntegrityError({ page: 2, reason: 'malformed-page', message: 'Page 2 is malformed' }), 7],
    ['an unknown outcome', new OutcomeUnknownError({ method: 'POST', path: '/orders', lost: 'status', status: 503, cause: api(503) }), 7],
    [
      'an unknown outcome interrupted by SIGINT',
      new OutcomeUnknownError({ method: 'POST', path: '/orders', lost: 'interrupted', signal: 'SIGINT', cause: 'SIGINT' }),
      130,
    ],
    [
      'an unknown outcome interrupted by SIGTERM',
      new OutcomeUnknownError({ method: 'POST', path: '/orders', lost: 'interrupted', signal: 'SIGTERM', cause: 'SIGTERM' }),
      143,
    ],
    [
      'an unknown outcome interrupted by SIGHUP',
      new OutcomeUnknownError({ method: 'POST', path: '/orders', lost: 'interrupted', signal: 'SIGHUP', cause: 'SIGHUP' }),
      129,
    ],
    ['an earlier outcome the service cannot tell', new UnresolvedOutcomeError('cannot tell', 'payfac orders list'), 7],
    ['a wait that ran out', new WaitTimeoutError('still pending'), 8],
    ['an interruption', new InterruptedError(), 130],
    ['a malformed success answer', new ResponseFormatError({ method: 'GET', path: '/x', status: 200, body: 'x', reason: 'not JSON' }), 7],
    ['any other error (a bug)', new TypeError('undefined is not a function'), 1],
    ['a thrown string', 'boom', 1],
    ['stdout closed by the reader', Object.assign(new Error('closed'), { name: 'OutputClosedError' }), 0],
  ]

  it.each(table)('%s exits %i', (_name, error, code) => {
    expect(exitCodeFor(error)).toBe(code)
    expect(describeError(error).code).toBe(code)
  })

  it('an interruption by SIGTERM exits 143', async () => {
    const { noteSignal, resetSignalState } = await import('../../src/cli/runtime/signals.js')
    noteSignal('SIGTERM', Date.now())
    try {
      expect(exitCodeFor(new InterruptedError())).toBe(143)
    } finally {
      resetSignalState()
    }
  })

  it('an interruption by SIGHUP (the terminal closed) exits 129', async () => {
    const { noteSignal, resetSignalState } = await import('../../src/cli/runtime/signals.js')
    noteSignal('SIGHUP', Date.now())
    try {
      expect(exitCodeFor(new InterruptedError())).toBe(129)
    } finally {
      resetSignalState()
    }
  })
})

describe('describeError', () => {
  it('names the page of an incomplete list and how to accept it anyway', () => {
    const report = describeError(new ListIntegrityError({ page: 3, reason: 'short-page', message: 'Page 3 of 4 had 0 records where 500 were promised' }))
    expect(report.message).toBe('Page 3 of 4 had 0 records where 500 were promised')
    expect(report.hint).toMatch(/Nothing from page 3 on was printed.*--allow-partial/)
    expect(report.json).toMatchObject({ page: 3, reason: 'short-page', type: 'ListIntegrityError' })
  })

  it('says how often and how long a request was tried', () => {
    const error = new TimeoutError({ method: 'GET', path: '/x', timeoutMs: 30_000 })
    error.tried = { attempts: 2, elapsedMs: 60_000 }
    expect(describeError(error).message).toBe('GET /x got no answer within 30000 ms (tried 2 times over 60.0 s)')
    expect(describeError(error).json).toMatchObject({ attempts: 2, elapsedMs: 60_000 })
  })

  it('shows service errors as message [errorCode] detail (reference: tracer)', () => {
    const error = api(400, { statusCode: 400, errorCode: 'insufficient_funds', message: 'Declined', detail: 'Card declined by issuer', tracer: 'req_9' })
    expect(describeError(error).message).toBe('Declined [insufficient_funds] Card declined by issuer (reference: req_9)')
  })

  it('says in one paragraph what was being done, that it may or may not have happened, and how to check', () => {
    const cause = new ConnectionError({ method: 'POST', path: '/orders/ordr_x/pay', code: 'ECONNRESET', mayHaveReachedService: true, reason: 'socket hang up' })
    const error = new OutcomeUnknownError({ method: 'POST', path: '/orders/ordr_x/pay', lost: 'connection', cause })
    error.action = 'payment of order ordr_x'
    error.check = 'payfac transactions list --order-id ordr_x'
    const report = describeError(error)
    expect(report.code).toBe(7)
    expect(report.message).toBe(
      'Outcome unknown: payment of order ordr_x. The connection was lost before the answer (socket hang up), so it may or may not have happened; ' +
        'payfac did not send it again. Check whether it happened with: payfac transactions list --order-id ordr_x',
    )
    expect(report.json).toMatchObject({ outcomeUnknown: true, check: 'payfac transactions list --order-id ordr_x', lost: 'connection' })
  })

  it('exits 130 or 143 for an outcome lost to SIGINT or SIGTERM, 7 for a 503 after the request reached the service', () => {
    const lost = (signal?: string, status?: number) =>
      new OutcomeUnknownError({ method: 'PATCH', path: '/transactions/tran_x', lost: signal ? 'interrupted' : 'status', cause: signal ?? 'x', signal, status })
    expect(exitCodeFor(lost('SIGINT'))).toBe(130)
    expect(exitCodeFor(lost('SIGTERM'))).toBe(143)
    expect(exitCodeFor(lost(undefined, 503))).toBe(7)
    expect(describeError(lost(undefined, 503)).message).toContain('The service answered 503 after the request reached it, so it may or may not have happened')
  })

  it('does not call a refused connection an unknown outcome: nothing reached the service', () => {
    const error = new ConnectionError({ method: 'POST', path: '/orders', code: 'ECONNREFUSED', mayHaveReachedService: false, reason: 'refused' })
    expect(describeError(error).json.outcomeUnknown).toBe(false)
  })

  it('keeps the reason of a usage error even when oclif rewrote its message', () => {
    const error = new UsageError('--amount: AUD has 2 decimal places; "12.505" has 3', 'Write it with at most 2 decimal places')
    error.message = `Parsing --amount \n\t${error.message}\nSee more help with --help`
    expect(describeError(error).message).toBe('--amount: AUD has 2 decimal places; "12.505" has 3')
  })

  it('makes one line of an oclif parse error, in our words', () => {
    expect(describeError(oclifParseError).message).toBe('unknown flag --nope')
  })

  it.each([
    [
      'The following errors occurred:\n  --csv=true cannot also be provided when using --json\n  --json=true cannot also be provided when using --csv',
      'use either --json or --csv, not both',
    ],
    ['Missing required flag amount', '--amount is required'],
    ['All of the following must be provided when using --amount: --currency', '--amount needs --currency too'],
    ['Parsing --limit \n\tExpected an integer but received: x', '--limit must be a whole number (got "x")'],
    ['Expected --status=bogus to be one of: paid, failed\nSee more help with --help', '--status must be one of paid, failed (got "bogus")'],
  ])('rewords oclif\'s "%s"', (text, said) => {
    const error = Object.assign(new Error(text), { oclif: { exit: 2 } })
    expect(describeError(error).message).toBe(said)
  })
})
