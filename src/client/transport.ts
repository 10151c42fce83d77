// One HTTP exchange with the service, and the retries around it: URL and headers, the JSON body,
// a deadline, typed errors, and redacted debug lines. Everything above this file speaks in
// RawRequest/RawResponse; everything below it is undici.
import type { Readable } from 'node:stream'
import { FormData, request, type Dispatcher } from 'undici'

import { armAttempt } from './attempt.js'
import { ApiError, ConnectionError, InvalidInputError, PayfacError, ResponseFormatError, TimeoutError } from './errors.js'
import { encodeForm } from './multipart.js'
import { REDACTED, redactBodyText, redactHeaders, redactJson, redactSecrets, redactUrl, redactUrlPasswords } from './redact.js'
import { DEFAULT_MAX_RETRIES, backoffMs, retryAfterOf, shouldRetry, withRetryAfter } from './retry.js'
import type { OutgoingRequest, RetryEvent, TransportOptions } from './options.js'
import { errorCode, errorReason, outcomeOf, tried } from './outcome.js'
import {
  type Context,
  type Query,
  type RawRequest,
  type RawResponse,
  BodyTooLargeError,
  MAX_JSON_BODY_BYTES,
  boundedChunks,
  describeForm,
  encodeQuery,
  flattenHeaders,
  mergeContext,
  parseMaybeJson,
  readJson,
  TOO_DEEP,
  utf8Text,
} from './wire.js'
import { jsonBytesDepthOver } from './json-depth.js'

export type { Context, Query, RawRequest, RawResponse, ResponseType } from './wire.js'
export type { ClientOptions, OutgoingRequest, RetryEvent, TransportOptions } from './options.js'
export { MAX_JSON_BODY_BYTES, encodeQuery, mergeContext } from './wire.js'
export { outcomeOf } from './outcome.js'

export const DEFAULT_TIMEOUT_MS = 30_000
export const DEFAULT_BUDGET_MS = 60_000
export const DEFAULT_USER_AGENT = 'payfac-client/0.1.0'

const CONTEXT_HEADERS: ReadonlyArray<[keyof Context, string]> = [
  ['marketplaceId', 'Marketplace-Id'],
  ['merchantId', 'Merchant-Id'],
  ['customerId', 'Customer-Id'],
  ['customerDelegateUserId', 'Customer-Delegate-User-Id'],
]

/** Network failures where nothing reached the service: the connection was never made. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT'])

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const realDeadline = (onExpiry: () => void, ms: number) => {
  const timer = setTimeout(onExpiry, ms)
  return () => clearTimeout(timer)
}

export class Transport {
  readonly baseUrl: string
  private readonly credential: string
  private readonly context: Context
  private readonly timeoutMs: number
  private readonly budgetMs: number
  private readonly onRetry: ((event: RetryEvent) => void) | undefined
  private readonly setDeadline: (onExpiry: () => void, ms: number) => () => void
  private readonly maxRetries: number
  private readonly dispatcher: Dispatcher | undefined
  private readonly userAgent: string
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
    this.credential = options.credential
    this.context = { ...(options.context ?? {}) }
    this.timeoutMs = positive(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs')
    this.budgetMs = Math.max(positive(options.budgetMs, DEFAULT_BUDGET_MS, 'budgetMs'), this.timeoutMs)
    this.onRetry = options.onRetry
    this.setDeadline = options.setDeadline ?? realDeadline
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES)
    this.dispatcher = options.dispatcher
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT
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
    if (this.intercept) await this.intercept(this.outgoing({ ...raw, method }))
    const path = this.describePath(raw.path)
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
          const message = redactSecrets((error as Error).message, [this.credential])
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
    const suffix = path.startsWith('/') ? path : `/${path}`
    let url = `${this.baseUrl}${suffix}`
    const search = encodeQuery(query)
    if (search) url += (url.includes('?') ? '&' : '?') + search
    return url
  }

  /** One attempt: `signals` (the caller's) abort it, as does its deadline. */
  private async once(raw: RawRequest, signals: AbortSignal[], timeoutMs: number): Promise<RawResponse> {
    const method = raw.method
    const url = this.buildUrl(raw.path, raw.query)
    const path = this.describePath(raw.path)
    const responseType = raw.responseType ?? 'json'
    const { headers, body: prepared, shownBody } = this.prepare(raw)
    let body = prepared
    if (prepared instanceof FormData) {
      const form = await encodeForm(prepared)
      body = form.bytes
      headers['Content-Type'] = form.contentType
    }
    const secrets = this.secrets(headers)
    const debugging = this.debugSink !== undefined

    if (debugging)
      this.log(`→ ${method} ${redactUrl(url)} ${JSON.stringify(redactHeaders(headers))}${shownBody === undefined ? '' : ` ${shownBody()}`}`, secrets)

    const attempt = armAttempt(signals, this.setDeadline, timeoutMs)
    const { signal, disarm, callerAborted } = attempt
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)

    let response: Dispatcher.ResponseData
    try {
      response = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body as Dispatcher.DispatchOptions['body'],
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
      })
    } catch (error) {
      disarm()
      throw this.networkError(error, { method, path, url, timedOut: attempt.timedOut(), timeoutMs, aborted: callerAborted(), elapsed: elapsed(), secrets })
    }

    const status = response.statusCode
    const responseHeaders = flattenHeaders(response.headers)
    const requestId = responseHeaders['request-id'] ?? responseHeaders['x-request-id']
    const ok = status >= 200 && status < 300

    if (ok && responseType === 'stream') {
      // The deadline covered the wait for headers; a download then only has the idle timeout,
      // and the caller's signals still stop it, until the body closes (then their listeners go,
      // so that a report in many parts does not pile them up on the client's signal).
      attempt.stopDeadline()
      response.body.once('close', disarm)
      if (debugging) this.log(`← ${status} ${method} ${redactUrl(url)} (${elapsed()} ms) ${JSON.stringify(redactHeaders(responseHeaders))} <stream>`, secrets)
      return { status, headers: responseHeaders, body: response.body as unknown as Readable, requestId }
    }

    const binary = ok && responseType === 'bytes'
    // A list page that waits its turn in a walk stays bytes (outside the JS heap) until it is
    // parsed: as text, a page of 500 records is a string large enough that V8 moves it to the
    // old generation the first time a collection finds it alive, where it stays until the next
    // full collection. Decoded just before parsing, it lives only while it is parsed.
    const later = ok && responseType === 'json-later' && !debugging
    // Other answers are read as text. JSON and error bodies are read up to maxBodyBytes (64 MiB)
    // and no further: a declared Content-Length above it is refused before reading, and the
    // bytes are counted as they come, the read stopped at the cap. Downloads (bytes, stream) and
    // text (reports) are exempt: their readers bound them their own way.
    let bytes: Uint8Array | undefined
    let chunks: Buffer[] | undefined
    let text = ''
    const bounded = !binary && (responseType !== 'text' || !ok)
    try {
      if (binary) bytes = new Uint8Array(await response.body.arrayBuffer())
      else if (!bounded) text = await response.body.text()
      else {
        const read = await boundedChunks(response.body, this.maxBodyBytes, responseHeaders['content-length'])
        if (later) chunks = read
        else text = utf8Text(read)
      }
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        throw new ResponseFormatError({ method, path, status, body: undefined, reason: error.message })
      }
      throw this.networkError(error, { method, path, url, timedOut: attempt.timedOut(), timeoutMs, aborted: callerAborted(), elapsed: elapsed(), secrets })
    } finally {
      disarm()
    }

    const contentType = responseHeaders['content-type'] ?? ''
    // What is shown (debug lines, errors) never carries a known secret; redacting a body costs a
    // parse, a deep copy and a stringify, so it is done only when a debug line will show it.
    if (debugging) {
      const shown = bytes ? `<${bytes.byteLength} bytes>` : text ? redactBodyText(text, secrets) : ''
      this.log(
        `← ${status} ${method} ${redactUrl(url)} (${elapsed()} ms) ${JSON.stringify(redactHeaders(responseHeaders))}${shown ? ` ${shown}` : ''}`,
        secrets,
      )
    }

    if (!ok) {
      const errorBody = parseMaybeJson(redactSecrets(text, secrets), contentType)
      throw withRetryAfter(new ApiError({ status, method, path, body: errorBody, requestId }), responseHeaders['retry-after'])
    }

    if (chunks) {
      let page: Buffer[] | undefined = chunks
      // Parsed when the walk reaches the page: its records die young instead of ageing in memory
      // while earlier pages are printed. The chunks are let go as soon as they are decoded.
      const parse = () => {
        const held = page ?? []
        page = undefined
        // The depth is checked on the bytes, before they are decoded (twice as fast as on the text).
        if (jsonBytesDepthOver(held)) throw new ResponseFormatError({ method, path, status, body: undefined, reason: TOO_DEEP })
        return readJson(utf8Text(held), { method, path, status, contentType, requestId, secrets, depthChecked: true })
      }
      return { status, headers: responseHeaders, body: parse, requestId }
    }
    if (bytes) return { status, headers: responseHeaders, body: bytes, requestId }
    if (responseType === 'text') return { status, headers: responseHeaders, body: text, requestId }

    const read = () => readJson(text, { method, path, status, contentType, requestId, secrets })
    if (responseType === 'json-later') return { status, headers: responseHeaders, body: read, requestId }
    return { status, headers: responseHeaders, body: read(), requestId }
  }

  /** The request as the intercept hook sees it: URL, headers with the credential redacted, body. */
  private outgoing(raw: RawRequest): OutgoingRequest {
    const { headers, shownBody } = this.prepare(raw)
    const shown: Record<string, string> = {}
    for (const [name, value] of Object.entries(headers)) shown[name] = name.toLowerCase() === 'authorization' ? `Bearer ${REDACTED}` : value
    let body: unknown = shownBody
    if (raw.body !== undefined && !(raw.body instanceof FormData) && !(raw.body instanceof Uint8Array)) body = redactJson(raw.body)
    return { method: raw.method, url: redactUrl(this.buildUrl(raw.path, raw.query)), path: this.describePath(raw.path), headers: shown, body }
  }

  /** Headers and the encoded body of a request, plus what the debug line shows of the body. */
  private prepare(raw: RawRequest): { headers: Record<string, string>; body: unknown; shownBody: (() => string) | undefined } {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.credential}`,
      Accept: raw.accept ?? 'application/json',
      'User-Agent': this.userAgent,
    }
    const context = mergeContext(this.context, raw.context)
    for (const [field, header] of CONTEXT_HEADERS) {
      const value = context[field]
      if (value !== undefined && value !== '') headers[header] = value
    }
    let body: unknown
    let shownBody: (() => string) | undefined
    const given = raw.body
    if (given === undefined) {
      body = undefined
    } else if (given instanceof FormData) {
      body = given
      shownBody = () => describeForm(given)
    } else if (given instanceof Uint8Array) {
      body = given
      shownBody = () => `<${given.byteLength} bytes>`
    } else {
      body = JSON.stringify(given)
      headers['Content-Type'] = 'application/json'
      shownBody = () => JSON.stringify(redactJson(given))
    }
    for (const [name, value] of Object.entries(raw.headers ?? {})) {
      const existing = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase())
      if (existing) delete headers[existing]
      headers[name] = value
    }
    for (const [name, value] of Object.entries(headers)) {
      if (/[\r\n\0]/.test(value) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
        throw new InvalidInputError(
          `The header ${JSON.stringify(name.replace(/[^\x20-\x7e]/g, '?'))} cannot be sent: its name or value holds a forbidden character`,
        )
      }
    }
    return { headers, body, shownBody }
  }

  /** The credential and any other bearer value being sent: never to be shown. */
  private secrets(headers: Record<string, string>): string[] {
    const list = [this.credential]
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() === 'authorization') {
        const bearer = /^\S+\s+(.+)$/.exec(value)?.[1]
        if (bearer && bearer !== this.credential) list.push(bearer)
      }
    }
    return list
  }

  private networkError(
    error: unknown,
    at: { method: string; path: string; url: string; timedOut: boolean; timeoutMs: number; aborted: boolean; elapsed: number; secrets: string[] },
  ): unknown {
    if (at.aborted && !at.timedOut) return error
    const code = errorCode(error)
    let result: PayfacError
    if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_ARG_VALUE') {
      // Nothing was sent: the request itself could not be built (e.g. a line break in a header).
      result = new InvalidInputError(`${at.method} ${at.path} could not be sent: ${redactSecrets(errorReason(error), at.secrets)}`)
    } else if (at.timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      result = new TimeoutError({ method: at.method, path: at.path, timeoutMs: at.timeoutMs })
    } else {
      const reason = redactSecrets(errorReason(error), at.secrets)
      result = new ConnectionError({
        method: at.method,
        path: at.path,
        code,
        mayHaveReachedService: !(code !== undefined && NEVER_CONNECTED.has(code)),
        reason,
      })
    }
    this.log(`✗ ${at.method} ${redactUrl(at.url)} (${at.elapsed} ms) ${result.message}`, at.secrets)
    return result
  }

  /** The path for messages: no query string (it may hold a token). */
  private describePath(path: string): string {
    const bare = path.split('?')[0] ?? path
    return bare.startsWith('/') ? bare : `/${bare}`
  }

  private log(line: string, secrets: readonly string[] = [this.credential]): void {
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
