// The one place that decides a failure's exit code and how it is described to a person.
// Every error class any room can throw is listed here; test/unit/exit-codes.test.ts walks them all.
import {
  ApiError,
  ConnectionError,
  InvalidInputError,
  ListIntegrityError,
  OutcomeUnknownError,
  PageLimitError,
  PayfacError,
  ResponseFormatError,
  TimeoutError,
} from '../../client/errors.js'
import { ConfigError } from '../../config/errors.js'
import { InterruptedError, NotFoundError, RefusedError, UnavailableError, UnresolvedOutcomeError, UsageError, WaitTimeoutError } from './index.js'
import { exitCodeForSignal, receivedSignal } from '../runtime/signals.js'
import { rewordParseError } from './usage-wording.js'

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  config: 3,
  auth: 4,
  notFound: 5,
  refused: 6,
  unavailable: 7,
  pending: 8,
  interrupted: 130,
  terminated: 143,
  hungUp: 129,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** The exit code for a service status (a failure status; 2xx never reaches here). */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.auth
  if (status === 404) return EXIT.notFound
  if (status === 429 || status >= 500) return EXIT.unavailable
  return EXIT.refused
}

export function exitCodeFor(error: unknown): ExitCode {
  // The reader closed stdout (`payfac orders list --all | head`): its choice, not a failure.
  if (isNamed(error, 'OutputClosedError') || (error as { code?: unknown } | null)?.code === 'EPIPE') return EXIT.ok
  if (error instanceof OutcomeUnknownError) {
    if (error.signal === 'SIGTERM') return EXIT.terminated
    if (error.signal === 'SIGHUP') return EXIT.hungUp
    return error.signal === 'SIGINT' ? EXIT.interrupted : EXIT.unavailable
  }
  if (error instanceof UnresolvedOutcomeError) return EXIT.unavailable
  if (error instanceof ApiError) return exitCodeForStatus(error.status)
  if (error instanceof ConnectionError || error instanceof TimeoutError) return EXIT.unavailable
  if (error instanceof UsageError || error instanceof InvalidInputError) return EXIT.usage
  if (error instanceof ConfigError) return EXIT.config
  if (error instanceof WaitTimeoutError) return EXIT.pending
  if (error instanceof InterruptedError) return exitCodeForSignal(receivedSignal() ?? 'SIGINT')
  if (isNamed(error, 'ExitPromptError')) return EXIT.interrupted
  if (error instanceof RefusedError) return EXIT.refused
  if (error instanceof UnavailableError) return EXIT.unavailable
  if (error instanceof NotFoundError) return EXIT.notFound
  if (error instanceof PageLimitError) return EXIT.usage
  // A list the service gave short, changed mid-walk or malformed: the service's failure, not ours.
  if (error instanceof ListIntegrityError) return EXIT.unavailable
  // A success answer that is not JSON, too large or not the contract's shape: the service's fault.
  if (error instanceof ResponseFormatError) return EXIT.unavailable
  if (isNamed(error, 'UnknownColumnError')) return EXIT.usage
  // `emulator start`: a state or fixtures file refused is configuration; a port it cannot take is usage.
  if (isNamed(error, 'StateFileError') || isNamed(error, 'FixtureError')) return EXIT.config
  if (isNamed(error, 'ListenError')) return EXIT.usage
  if (isOclifParseError(error)) return EXIT.usage
  return EXIT.unexpected
}

export interface ErrorReport {
  code: ExitCode
  /** One line: what went wrong. */
  message: string
  /** One line: what to do next, when there is something useful to say. */
  hint: string | undefined
  /** Machine-readable fields for `--json` (`{"error": {...}}`). */
  json: Record<string, unknown>
}

/** Describes an error for a person (stderr) and for a script (`--json`). */
export function describeError(error: unknown): ErrorReport {
  const report = describeOnce(error)
  // A request tried more than once says how often and for how long.
  if (error instanceof PayfacError && error.tried) {
    const { attempts, elapsedMs } = error.tried
    report.message += ` (tried ${attempts} times over ${(elapsedMs / 1000).toFixed(1)} s)`
    report.json = { ...report.json, attempts, elapsedMs }
  }
  return report
}

function describeOnce(error: unknown): ErrorReport {
  const code = exitCodeFor(error)
  const base = { code, type: errorType(error) }
  if (error instanceof ApiError) {
    return {
      code,
      message: error.describe(),
      hint:
        error.errorCode === 'no_such_operation'
          ? 'The service has no operation there: payfac api --list shows the operations of the interface.'
          : hintForStatus(error.status),
      json: { ...base, ...error.toJSON() },
    }
  }
  if (error instanceof UsageError) {
    return { code, message: error.reason, hint: error.hint, json: { ...base, message: error.reason, hint: error.hint } }
  }
  if (error instanceof InvalidInputError || error instanceof ConfigError || error instanceof NotFoundError) {
    return { code, message: error.message, hint: error.hint, json: { ...base, message: error.message, hint: error.hint } }
  }
  if (error instanceof OutcomeUnknownError) return describeOutcomeUnknown(error, code)
  if (error instanceof UnresolvedOutcomeError) {
    const hint = error.hint ?? 'When you are sure it did not happen, run the command again with --again to send it.'
    return { code, message: error.message, hint, json: { ...base, message: error.message, outcomeUnknown: true, check: error.check } }
  }
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    // A changing request that may have reached the service is an OutcomeUnknownError (the
    // transport decides); what is left here never reached it, or only read.
    const hint = 'Check the base URL and that the service (or `payfac emulator start`) is running, then try again.'
    return { code, message: error.message, hint, json: { ...base, message: error.message, outcomeUnknown: false } }
  }
  if ((error instanceof RefusedError && error.hint !== undefined) || error instanceof UnavailableError) {
    return { code, message: error.message, hint: error.hint, json: { ...base, message: error.message, hint: error.hint } }
  }
  if (error instanceof WaitTimeoutError || error instanceof InterruptedError) {
    const hint = error.resume ? `Resume with: ${error.resume}` : undefined
    return { code, message: error.message, hint, json: { ...base, message: error.message, resume: error.resume } }
  }
  if (error instanceof ListIntegrityError) {
    const hint =
      error.reason === 'count-mismatch'
        ? 'Every page was printed, but the list changed while it was read; run the command again, or pass --allow-partial to accept it with a warning.'
        : `Nothing from page ${error.page} on was printed; run the command again, or pass --allow-partial to accept what the service gives with a warning.`
    return { code, message: error.message, hint, json: { ...base, message: error.message, page: error.page, reason: error.reason } }
  }
  if (isNamed(error, 'ExitPromptError')) {
    // Ctrl-C at a prompt (@inquirer/prompts): one short line, nothing sent or saved.
    return { code, message: 'Interrupted at the prompt; nothing was sent or saved', hint: undefined, json: { ...base, message: 'Interrupted at the prompt' } }
  }
  if (isNamed(error, 'ListenError')) {
    const message = (error as Error).message
    return { code, message, hint: 'Choose another --port, or --port 0 for a free one', json: { ...base, message } }
  }
  if (isOclifParseError(error)) {
    const message = rewordParseError(error as Error) ?? firstLine((error as Error).message)
    return { code, message, hint: 'See --help for the flags and examples', json: { ...base, message } }
  }
  if (isNamed(error, 'WriteError')) {
    // A disk or device that refused a write (full, over quota, I/O error): one plain line, not "a bug".
    const { message, code: errno } = error as Error & { code?: string }
    return { code, message, hint: undefined, json: { ...base, message, errno } }
  }
  if (error instanceof Error) {
    const hint = code === EXIT.unexpected ? 'This looks like a bug in payfac; run again with --debug and report what it prints.' : undefined
    return { code, message: firstLine(error.message) || error.name, hint, json: { ...base, message: error.message } }
  }
  return { code, message: String(error), hint: undefined, json: { ...base, message: String(error) } }
}

/**
 * One paragraph: what was being done, that it may or may not have happened, and the command
 * that shows whether it did.
 */
function describeOutcomeUnknown(error: OutcomeUnknownError, code: ExitCode): ErrorReport {
  const action = error.action ?? `${error.method} ${error.path}`
  const why = error.message.slice(`${error.method} ${error.path}: `.length)
  const check = error.check ?? 'a get or list command of what was being changed'
  const message =
    `Outcome unknown: ${action}. ${capitalise(why)}, so it may or may not have happened; payfac did not send it again. ` +
    `Check whether it happened with: ${check}${error.look ? ` (${error.look})` : ''}`
  const hint = error.check
    ? 'Running the same command again is safe: it looks on the service first and only sends when the operation did not happen.'
    : 'Check before running the command again: sending it again could do it twice.'
  const json = {
    code,
    type: 'OutcomeUnknownError',
    message,
    outcomeUnknown: true,
    action,
    check,
    method: error.method,
    path: error.path,
    lost: error.lost,
    status: error.status,
    signal: error.signal,
  }
  return { code, message, hint, json }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function hintForStatus(status: number): string | undefined {
  if (status === 401) return 'Check the credential of the profile in use (`payfac profiles show`), or set PAYFAC_API_KEY.'
  if (status === 403) return 'The credential may not act for that entity; check --merchant-id, --marketplace-id and --customer-id.'
  if (status === 404) return 'Check the identifier, and that the profile points at the right environment.'
  if (status === 429) return 'The service is limiting requests; wait a little and try again.'
  if (status >= 500) return 'The service had a problem; try again later, quoting the reference if it persists.'
  return undefined
}

function errorType(error: unknown): string {
  if (isOclifParseError(error)) return 'UsageError'
  return error instanceof Error ? error.name : 'Error'
}

function isNamed(error: unknown, name: string): boolean {
  return error instanceof Error && error.name === name
}

/** oclif's own parse errors (unknown flag, missing argument, bad option) carry exit 2. */
function isOclifParseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const oclif = (error as { oclif?: { exit?: number } }).oclif
  return oclif?.exit === 2 && !(error instanceof UsageError)
}

function firstLine(text: string): string {
  return text
    .replace(/^Parsing (--[\w-]+)\s*/, '$1: ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^See more help with --help$/.test(line))
    .join(' ')
}
