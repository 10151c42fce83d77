// When to send a request again and how long to wait first. Pure: no clock, no randomness and no
// sleeping of its own; the transport passes those in.
//
// The rule that matters: the contract has no idempotency key, so a POST or PATCH that may have
// reached the service (a pay, a refund) is never sent again. Only a connection that was refused
// before anything was written is safe to retry for every method.
import { ApiError, ConnectionError, TimeoutError } from './errors.js'

/** Methods whose repetition has the same effect as one call. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'])

/** Statuses worth another try for an idempotent request. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504])

export const DEFAULT_MAX_RETRIES = 3
export const DEFAULT_BASE_MS = 250
export const DEFAULT_CAP_MS = 20_000
/** The longest wait a `Retry-After` header can impose. */
export const DEFAULT_RETRY_AFTER_CAP_MS = 60_000

export interface RetryDecisionInput {
  method: string
  /** Attempts made so far, counting the one that just failed (1 after the first try). */
  attempt: number
  /** Retries allowed after the first try. */
  maxRetries: number
  /** The status of the answer, when there was one. */
  status?: number | undefined
  /** The error of the attempt, when there was no answer. */
  error?: unknown
}

/** Whether the failed attempt described by `input` should be repeated. */
export function shouldRetry(input: RetryDecisionInput): boolean {
  if (!Number.isFinite(input.attempt) || input.attempt > input.maxRetries) return false
  const idempotent = IDEMPOTENT_METHODS.has(input.method.toUpperCase())
  if (input.error !== undefined) {
    if (input.error instanceof ConnectionError) {
      // Refused before a byte was written: the service never saw it, whatever the method.
      if (!input.error.mayHaveReachedService) return true
      return idempotent
    }
    if (input.error instanceof TimeoutError) return idempotent
    return false
  }
  if (input.status !== undefined) return idempotent && RETRYABLE_STATUSES.has(input.status)
  return false
}

export interface BackoffInput {
  /** The retry about to be made: 1 for the first retry. */
  attempt: number
  /** The `Retry-After` header of the answer, if any: seconds or an HTTP-date. */
  retryAfter?: string | undefined
  /** A source of numbers in [0, 1). */
  random: () => number
  baseMs?: number
  capMs?: number
  retryAfterCapMs?: number
  /** Current time in ms since the epoch, for an HTTP-date `Retry-After`. */
  now?: number
}

/**
 * Milliseconds to wait before retry number `attempt`. A valid `Retry-After` is used as given
 * (capped); otherwise exponential backoff with full jitter: a uniform draw in
 * [0, min(cap, base × 2^(attempt−1))).
 */
export function backoffMs(input: BackoffInput): number {
  const fromHeader = retryAfterMs(input.retryAfter, input.now ?? Date.now())
  if (fromHeader !== undefined) return Math.min(fromHeader, input.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS)
  const base = input.baseMs ?? DEFAULT_BASE_MS
  const cap = input.capMs ?? DEFAULT_CAP_MS
  const exponent = Math.max(0, Math.min(input.attempt - 1, 30))
  const ceiling = Math.min(cap, base * 2 ** exponent)
  const draw = input.random()
  const fraction = Number.isFinite(draw) ? Math.min(Math.max(draw, 0), 1) : 0
  return Math.min(Math.floor(fraction * ceiling), Math.max(ceiling - 1, 0))
}

/**
 * A `Retry-After` value in milliseconds: a number of seconds (`"5"`, `"1.5"`) or an HTTP-date,
 * relative to `now`. Undefined when absent or unreadable; a date in the past gives 0.
 */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined
  const text = header.trim()
  if (!text) return undefined
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  // An HTTP-date always names a weekday and a GMT zone: "Wed, 21 Oct 2015 07:28:00 GMT".
  if (!/[A-Za-z]/.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

const RETRY_AFTER = Symbol('retryAfter')
type ApiErrorWithRetry = ApiError & { [RETRY_AFTER]?: string }

/** Keeps the answer's `Retry-After` header on the error it made (not enumerable: not printed with it). */
export function withRetryAfter(error: ApiError, header: string | undefined): ApiError {
  Object.defineProperty(error, RETRY_AFTER, { value: header, enumerable: false })
  return error
}

/** The `Retry-After` header of the answer that made `error`, when it had one (a 429 a caller paces itself by). */
export function retryAfterOf(error: unknown): string | undefined {
  return error instanceof ApiError ? (error as ApiErrorWithRetry)[RETRY_AFTER] : undefined
}
