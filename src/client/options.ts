// What `createClient()` takes, and what the transport takes beside it in tests.
import type { Dispatcher } from 'undici'
import type { Context } from './wire.js'

/** What `createClient()` takes. */
export interface ClientOptions {
  /** The environment's base address, e.g. the sandbox URL or http://127.0.0.1:4010. */
  baseUrl: string
  /** Sent as `Authorization: Bearer <credential>`; never shown in errors or debug lines. */
  credential: string
  /** Default context headers for every call. */
  context?: Context | undefined
  /** Deadline of one attempt, in ms (default 30 000). */
  timeoutMs?: number | undefined
  /**
   * Deadline of a request with all its retries, in ms (default 60 000, and never less than
   * `timeoutMs`): no retry starts that could not finish in time, and the last attempt gets only
   * what is left.
   */
  budgetMs?: number | undefined
  /** Told before each retry: what failed, and how long until the next attempt. */
  onRetry?: ((event: RetryEvent) => void) | undefined
  /** Retries after the first try for retryable failures (default 3). */
  maxRetries?: number | undefined
  /** An undici dispatcher (a MockAgent in tests, a proxy agent …). */
  dispatcher?: Dispatcher | undefined
  userAgent?: string | undefined
  /** Receives one redacted line per request and per response. */
  debug?: ((line: string) => void) | undefined
  /** Waits between retries (injected in tests). */
  sleep?: ((ms: number) => Promise<void>) | undefined
  /** Jitter source in [0, 1) (injected in tests). */
  random?: (() => number) | undefined
  /**
   * Called with each request before it is first sent (not again for a retry); it may throw to
   * stop it, so that nothing is sent (a dry run, a declined confirmation).
   */
  intercept?: ((request: OutgoingRequest) => void | Promise<void>) | undefined
  /** Aborts every call of the client (a per-call signal is honoured too). */
  signal?: AbortSignal | undefined
}

/** A request as the intercept hook sees it: the credential is never in it. */
export interface OutgoingRequest {
  method: string
  url: string
  /** The path without its query string. */
  path: string
  /** As they would be sent, with the Authorization value redacted. */
  headers: Record<string, string>
  /** The JSON body (sensitive fields redacted), or a description of a form or bytes. */
  body: unknown
}

/** What `onRetry` is told before a retry. */
export interface RetryEvent {
  method: string
  /** The path, without its query string. */
  path: string
  /** The retry about to be made: 1 for the first. */
  retry: number
  maxRetries: number
  /** Why the last attempt failed, in one line. */
  reason: string
  /** How long until the retry. */
  waitMs: number
  /** Time spent on the request so far. */
  elapsedMs: number
}

export interface TransportOptions extends ClientOptions {
  /** Clock for HTTP-date `Retry-After` values and for the budget, in ms (injected in tests). */
  now?: (() => number) | undefined
  /** Arms an attempt's deadline; returns its disarm (injected in tests so that none waits). */
  setDeadline?: ((onExpiry: () => void, ms: number) => () => void) | undefined
  /** The most bytes of one JSON or error answer read (default MAX_JSON_BODY_BYTES, 64 MiB; lowered in tests). */
  maxBodyBytes?: number | undefined
}
