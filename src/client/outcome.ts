// What a failed request means: for one that may have changed something on the service, the one
// place that turns a lost answer to a POST, PATCH or DELETE into an unknown outcome; and what an
// error from the network layer says (its code, its reason, how often it was tried).
import { ApiError, ConnectionError, OutcomeUnknownError, PayfacError, ResponseFormatError, TimeoutError } from './errors.js'

/** Methods that may change something on the service: their lost answers are unknown outcomes. */
const CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'DELETE'])
/** Answers after which a changing request may have been applied all the same. */
const UNKNOWN_OUTCOME_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504])

/**
 * The one decision of what a failure means for a request that may change something: a POST,
 * PATCH or DELETE that may have reached the service and lost its answer (a connection dropped
 * after it was written, the deadline, 500/502/503/504, an interruption in flight, a success
 * status whose body cannot be read or does not match the contract) is an OutcomeUnknownError; anything else is thrown as it is. `interruption` is the abort reason of
 * the caller's signal, when it fired.
 */
export function outcomeOf(method: string, path: string, error: unknown, interruption?: unknown): unknown {
  const interrupted = interruption !== undefined && !(error instanceof TimeoutError)
  if (!CHANGING_METHODS.has(method)) return interrupted ? interruption : error
  // An answer that says what happened (a 4xx) is known, even when an interruption came with it.
  if (error instanceof ApiError && !UNKNOWN_OUTCOME_STATUSES.has(error.status)) return error
  if (interrupted) {
    const signal = typeof interruption === 'string' ? interruption : undefined
    return new OutcomeUnknownError({ method, path, lost: 'interrupted', cause: interruption, signal })
  }
  if (error instanceof ConnectionError && error.mayHaveReachedService) return new OutcomeUnknownError({ method, path, lost: 'connection', cause: error })
  if (error instanceof TimeoutError) return new OutcomeUnknownError({ method, path, lost: 'timeout', cause: error })
  if (error instanceof ResponseFormatError) return new OutcomeUnknownError({ method, path, lost: 'answer', cause: error, status: error.status })
  if (error instanceof ApiError && UNKNOWN_OUTCOME_STATUSES.has(error.status)) {
    return new OutcomeUnknownError({ method, path, lost: 'status', cause: error, status: error.status })
  }
  return error
}

/** Notes on the final error of a request tried more than once how often and for how long. */
export function tried(error: unknown, attempts: number, elapsedMs: number): unknown {
  if (attempts > 1 && error instanceof PayfacError) error.tried = { attempts, elapsedMs: Math.max(0, Math.round(elapsedMs)) }
  return error
}

export function errorCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') {
      // A socket error from undici wraps the system error; prefer the system code when present.
      const inner = (current as { cause?: { code?: unknown } }).cause?.code
      return typeof inner === 'string' ? inner : code
    }
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

export function errorReason(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : ''
    return `${error.message || error.name}${cause}`
  }
  return String(error)
}

/** True for a method whose lost or unreadable answer leaves an unknown outcome (POST, PATCH, DELETE). */
export function mayChange(method: string): boolean {
  return CHANGING_METHODS.has(method.toUpperCase())
}
