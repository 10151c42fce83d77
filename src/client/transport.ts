// The transport: a client's settings, checked when it is made, and the retry loop around each
// request (retry.ts decides, outcome.ts says what a lost answer means) within the time budget,
// each attempt sent through undici under its own deadline. Building the request is in
// build-request.ts, reading its answer in read-answer.ts. Everything above this file speaks in
// RawRequest/RawResponse; everything below it is undici.
import { FormData, request, type Dispatcher } from 'undici'

import { armAttempt } from './attempt.js'
import { type Sender, buildUrl, describePath, outgoing, prepare, secretsOf } from './build-request.js'
import { ApiError, ConnectionError, PayfacError, ResponseFormatError, TimeoutError } from './errors.js'
import { encodeForm } from './multipart.js'
import type { RetryEvent, TransportOptions } from './options.js'
import { outcomeOf, tried } from './outcome.js'
import { type Exchange, networkError, readAnswer } from './read-answer.js'
import { redactHeaders, redactSecrets, redactUrl, redactUrlPasswords } from './redact.js'
import { DEFAULT_MAX_RETRIES, backoffMs, retryAfterOf, shouldRetry } from './retry.js'
import { type Query, type RawRequest, type RawResponse, MAX_JSON_BODY_BYTES } from './wire.js'

export type { Context, Query, RawRequest, RawResponse, ResponseType } from './wire.js'
export type { ClientOptions, OutgoingRequest, RetryEvent, TransportOptions } from './options.js'
export { MAX_JSON_BODY_BYTES, encodeQuery, mergeContext } from './wire.js'
export { outcomeOf } from './outcome.js'

export const DEFAULT_TIMEOUT_MS = 30_000
export const DEFAULT_BUDGET_MS = 60_000
export const DEFAULT_USER_AGENT = 'payfac-client/0.1.0'

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const realDeadline = (onExpiry: () => void, ms: number) => {
  const timer = setTimeout(onExpiry, ms)
  return () => clearTimeout(timer)
}

export class Transport {
  readonly baseUrl: string
  /** What every request carries: base URL, credential, user agent, default context. */
  private readonly sender: Sender
  private readonly timeoutMs: number
  private readonly budgetMs: number
  private readonly onRetry: ((event: RetryEvent) => void) | undefined
  private readonly setDeadline: (onExpiry: () => void, ms: number) => () => void
  private readonly maxRetries: number
  private readonly dispatcher: Dispatcher | undefined
  private readonly debugSink: ((line: string) => void) | undefined
  private readonly sleep: (ms: number) => Promise<void>
  private readonly random: () => number
  private readonly now: () => number
  private readonly intercept: TransportOptions['intercept']
  private readonly signal: AbortSignal | undefined
  private readonly maxBodyBytes: number

  constructor(options: TransportOptions) {
    if (!options.baseUrl) throw new PayfacError('createClient needs a baseUrl')
    let base: URL
    try {
      base = new URL(options.baseUrl)
    } catch {
      throw new PayfacError(`The base URL "${redactUrlPasswords(options.baseUrl)}" is not a URL`)
    }
    if (base.username || base.password) {
      throw new PayfacError('The base URL must not hold a user name or password: give the credential as `credential`')
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new PayfacError(`The base URL must start with http:// or https:// (got ${base.protocol})`)
    }
    if (typeof options.credential !== 'string' || /[\r\n]/.test(options.credential)) {
      throw new PayfacError('The credential must be a single line of text')
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.sender = {
      baseUrl: this.baseUrl,
      credential: options.credential,
      context: { ...(options.context ?? {}) },
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    }
    this.timeoutMs = positive(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs')
    this.budgetMs = Math.max(positive(options.budgetMs, DEFAULT_BUDGET_MS, 'budgetMs'), this.timeoutMs)
    this.onRetry = options.onRetry
    this.setDeadline = options.setDeadline ?? realDeadline
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES)
    this.dispatcher = options.dispatcher
    this.debugSink = options.debug
    this.sleep = options.sleep ?? realSleep
    this.random = options.random ?? Math.random
    this.now = options.now ?? Date.now
    this.intercept = options.intercept
    this.signal = options.signal
    this.maxBodyBytes = positive(options.maxBodyBytes, MAX_JSON_BODY_BYTES, 'maxBodyBytes')
  }

  /** Sends `raw`, retrying as retry.ts allows, and returns the successful answer or throws a PayfacError. */
  async send<B = unknown>(raw: RawRequest): Promise<RawResponse<B>> {
    const method = raw.method.toUpperCase()
    // The caller's signals, not combined into one: AbortSignal.any costs a weak reference per
    // source and call, which a walk of hundreds of pages pays on every page.
    const signals = [this.signal, raw.signal].filter((given): given is AbortSignal => given !== undefined)
    const stopped = () => signals.find((given) => given.aborted)
    if (this.intercept) await this.intercept(outgoing({ ...raw, method }, this.sender))
    const path = describePath(raw.path)
    const started = this.now()
    for (let attempt = 1; ; attempt++) {
      let retryAfter: string | undefined
      const before = stopped()
      if (before) throw before.reason
      const left = this.budgetMs - (this.now() - started)
      try {
        return (await this.once({ ...raw, method }, signals, Math.max(1, Math.min(this.timeoutMs, left)))) as RawResponse<B>
      } catch (error) {
        const during = stopped()
        if (during) throw outcomeOf(method, path, error, during.reason)
        let decision: boolean
        if (error instanceof ApiError) {
          retryAfter = retryAfterOf(error)
          decision = shouldRetry({ method, attempt, maxRetries: this.maxRetries, status: error.status })
        } else if (error instanceof ConnectionError || error instanceof TimeoutError) {
          decision = shouldRetry({ method, attempt, maxRetries: this.maxRetries, error })
        } else {
          // An answer that cannot be read (not JSON, too large) leaves a change's outcome unknown.
          throw error instanceof ResponseFormatError ? outcomeOf(method, path, error) : error
        }
        if (!decision) throw outcomeOf(method, path, tried(error, attempt, this.now() - started))
        const wait = backoffMs({ attempt, retryAfter, random: this.random, now: this.now() })
        const elapsedMs = this.now() - started
        // A retry that could not even start within the budget is not made.
        if (elapsedMs + wait >= this.budgetMs) throw outcomeOf(method, path, tried(error, attempt, elapsedMs))
        this.log(`… retry ${attempt} of ${this.maxRetries} for ${method} ${path} in ${wait} ms`)
        if (this.onRetry) {
          const message = redactSecrets((error as Error).message, [this.sender.credential])
          const reason = message.startsWith(`${method} ${path} `) ? message.slice(method.length + path.length + 2) : message
          try {
            this.onRetry({ method, path, retry: attempt, maxRetries: this.maxRetries, reason, waitMs: wait, elapsedMs })
          } catch {
            // A failing observer must not fail the request.
          }
        }
        await this.sleep(wait)
        const asleep = stopped()
        if (asleep) throw outcomeOf(method, path, error, asleep.reason)
      }
    }
  }

  /** The full URL of a request: base URL, path and encoded query. */
  buildUrl(path: string, query?: Query | Record<string, unknown>): string {
    return buildUrl(this.baseUrl, path, query)
  }

  /** One attempt: `signals` (the caller's) abort it, as does its deadline. */
  private async once(raw: RawRequest, signals: AbortSignal[], timeoutMs: number): Promise<RawResponse> {
    const method = raw.method
    const url = this.buildUrl(raw.path, raw.query)
    const path = describePath(raw.path)
    const { headers, body: prepared, shownBody } = prepare(raw, this.sender)
    let body = prepared
    if (prepared instanceof FormData) {
      const form = await encodeForm(prepared)
      body = form.bytes
      headers['Content-Type'] = form.contentType
    }
    const secrets = secretsOf(headers, this.sender.credential)
    const debugging = this.debugSink !== undefined

    if (debugging)
      this.log(`→ ${method} ${redactUrl(url)} ${JSON.stringify(redactHeaders(headers))}${shownBody === undefined ? '' : ` ${shownBody()}`}`, secrets)

    const attempt = armAttempt(signals, this.setDeadline, timeoutMs)
    const started = performance.now()
    const exchange: Exchange = {
      method,
      path,
      url,
      responseType: raw.responseType ?? 'json',
      timeoutMs,
      maxBodyBytes: this.maxBodyBytes,
      secrets,
      attempt,
      elapsed: () => Math.round(performance.now() - started),
      debugging,
      log: (line, shownSecrets) => this.log(line, shownSecrets),
    }

    let response: Dispatcher.ResponseData
    try {
      response = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body as Dispatcher.DispatchOptions['body'],
        signal: attempt.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
      })
    } catch (error) {
      attempt.disarm()
      throw networkError(error, exchange)
    }
    return readAnswer(response, exchange)
  }

  private log(line: string, secrets: readonly string[] = [this.sender.credential]): void {
    if (!this.debugSink) return
    try {
      this.debugSink(redactSecrets(line, secrets))
    } catch {
      // A failing debug sink must not fail the request.
    }
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value <= 0) throw new PayfacError(`${name} must be a number of milliseconds above 0 (got ${String(value)})`)
  return value
}
