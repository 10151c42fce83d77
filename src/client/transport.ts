// One HTTP exchange with the service, and the retries around it: URL and headers, the JSON body,
// a deadline, typed errors, and redacted debug lines. Everything above this file speaks in
// RawRequest/RawResponse; everything below it is undici.
import type { Readable } from 'node:stream'
import { FormData, request, type Dispatcher } from 'undici'

import { ApiError, ConnectionError, InvalidInputError, OutcomeUnknownError, PayfacError, ResponseFormatError, TimeoutError } from './errors.js'
import { encodeForm } from './multipart.js'
import { REDACTED, redactBodyText, redactHeaders, redactJson, redactSecrets, redactUrl, redactUrlPasswords } from './redact.js'
import { DEFAULT_MAX_RETRIES, backoffMs, shouldRetry } from './retry.js'

/** The entity a call acts for; each field becomes a context header when set. */
export interface Context {
  marketplaceId?: string | undefined
  merchantId?: string | undefined
  customerId?: string | undefined
  /** Real integrations send this beside the contract's three (creating a payment source). */
  customerDelegateUserId?: string | undefined
}

/** Query parameters: arrays repeat the parameter, undefined is left out, booleans are true/false. */
export type Query = Record<string, string | number | boolean | undefined | null | Array<string | number | boolean>>

export type ResponseType = 'json' | 'text' | 'bytes' | 'stream'

export interface RawRequest {
  method: string
  /** Path relative to the base URL, ids already encoded. */
  path: string
  query?: Query | Record<string, unknown> | undefined
  /**
   * JSON value (sent as application/json), or an undici FormData (multipart, its own
   * Content-Type), or bytes (sent as given with the caller's Content-Type).
   */
  body?: unknown
  headers?: Record<string, string> | undefined
  context?: Context | undefined
  accept?: string | undefined
  responseType?: ResponseType | undefined
  signal?: AbortSignal | undefined
}

export interface RawResponse<B = unknown> {
  status: number
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>
  body: B
  requestId?: string | undefined
}

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

export interface TransportOptions extends ClientOptions {
  /** Clock for HTTP-date `Retry-After` values. */
  now?: (() => number) | undefined
}

export const DEFAULT_TIMEOUT_MS = 30_000
export const DEFAULT_USER_AGENT = 'payfac-client/0.1.0'

const CONTEXT_HEADERS: ReadonlyArray<[keyof Context, string]> = [
  ['marketplaceId', 'Marketplace-Id'],
  ['merchantId', 'Merchant-Id'],
  ['customerId', 'Customer-Id'],
  ['customerDelegateUserId', 'Customer-Delegate-User-Id'],
]

/** Network failures where nothing reached the service: the connection was never made. */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
])

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export class Transport {
  readonly baseUrl: string
  private readonly credential: string
  private readonly context: Context
  private readonly timeoutMs: number
  private readonly maxRetries: number
  private readonly dispatcher: Dispatcher | undefined
  private readonly userAgent: string
  private readonly debugSink: ((line: string) => void) | undefined
  private readonly sleep: (ms: number) => Promise<void>
  private readonly random: () => number
  private readonly now: () => number
  private readonly intercept: TransportOptions['intercept']
  private readonly signal: AbortSignal | undefined

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
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES)
    this.dispatcher = options.dispatcher
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT
    this.debugSink = options.debug
    this.sleep = options.sleep ?? realSleep
    this.random = options.random ?? Math.random
    this.now = options.now ?? Date.now
    this.intercept = options.intercept
    this.signal = options.signal
  }

  /** Sends `raw`, retrying as retry.ts allows, and returns the successful answer or throws a PayfacError. */
  async send<B = unknown>(raw: RawRequest): Promise<RawResponse<B>> {
    const method = raw.method.toUpperCase()
    const signal = raw.signal && this.signal ? AbortSignal.any([raw.signal, this.signal]) : (raw.signal ?? this.signal)
    if (this.intercept) await this.intercept(this.outgoing({ ...raw, method }))
    const path = this.describePath(raw.path)
    for (let attempt = 1; ; attempt++) {
      let retryAfter: string | undefined
      if (signal?.aborted) throw signal.reason
      try {
        return (await this.once({ ...raw, method, signal })) as RawResponse<B>
      } catch (error) {
        if (signal?.aborted) throw outcomeOf(method, path, error, signal.reason)
        let decision: boolean
        if (error instanceof ApiError) {
          retryAfter = (error as ApiErrorWithRetry)[RETRY_AFTER]
          decision = shouldRetry({ method, attempt, maxRetries: this.maxRetries, status: error.status })
        } else if (error instanceof ConnectionError || error instanceof TimeoutError) {
          decision = shouldRetry({ method, attempt, maxRetries: this.maxRetries, error })
        } else {
          throw error
        }
        if (!decision) throw outcomeOf(method, path, error)
        const wait = backoffMs({ attempt, retryAfter, random: this.random, now: this.now() })
        this.log(`… retry ${attempt} of ${this.maxRetries} for ${method} ${path} in ${wait} ms`)
        await this.sleep(wait)
        if (signal?.aborted) throw outcomeOf(method, path, error, signal.reason)
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

  private async once(raw: RawRequest): Promise<RawResponse> {
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

    this.log(`→ ${method} ${redactUrl(url)} ${JSON.stringify(redactHeaders(headers))}${shownBody === undefined ? '' : ` ${shownBody}`}`, secrets)

    const timer = new AbortController()
    let timedOut = false
    const timeout = setTimeout(() => {
      timedOut = true
      timer.abort(new Error('timeout'))
    }, this.timeoutMs)
    const signal = raw.signal ? AbortSignal.any([raw.signal, timer.signal]) : timer.signal
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)

    let response: Dispatcher.ResponseData
    try {
      response = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body as Dispatcher.DispatchOptions['body'],
        signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
      })
    } catch (error) {
      clearTimeout(timeout)
      throw this.networkError(error, { method, path, url, timedOut, aborted: raw.signal?.aborted ?? false, elapsed: elapsed(), secrets })
    }

    const status = response.statusCode
    const responseHeaders = flattenHeaders(response.headers)
    const requestId = responseHeaders['request-id'] ?? responseHeaders['x-request-id']
    const ok = status >= 200 && status < 300

    if (ok && responseType === 'stream') {
      // The deadline covered the wait for headers; a download then only has the idle timeout.
      clearTimeout(timeout)
      this.log(`← ${status} ${method} ${redactUrl(url)} (${elapsed()} ms) ${JSON.stringify(redactHeaders(responseHeaders))} <stream>`, secrets)
      return { status, headers: responseHeaders, body: response.body as unknown as Readable, requestId }
    }

    let bytes: Uint8Array
    try {
      bytes = new Uint8Array(await response.body.arrayBuffer())
    } catch (error) {
      throw this.networkError(error, { method, path, url, timedOut, aborted: raw.signal?.aborted ?? false, elapsed: elapsed(), secrets })
    } finally {
      clearTimeout(timeout)
    }

    const contentType = responseHeaders['content-type'] ?? ''
    const binary = ok && responseType === 'bytes'
    // The answer as received; what is shown (debug lines, errors) never carries a known secret.
    const text = binary ? '' : new TextDecoder().decode(bytes)
    const shown = binary ? `<${bytes.byteLength} bytes>` : text ? redactBodyText(text, secrets) : ''
    this.log(
      `← ${status} ${method} ${redactUrl(url)} (${elapsed()} ms) ${JSON.stringify(redactHeaders(responseHeaders))}${shown ? ` ${shown}` : ''}`,
      secrets,
    )

    if (!ok) {
      const errorBody = parseMaybeJson(redactSecrets(text, secrets), contentType)
      const error = new ApiError({ status, method, path, body: errorBody, requestId }) as ApiErrorWithRetry
      Object.defineProperty(error, RETRY_AFTER, { value: responseHeaders['retry-after'], enumerable: false })
      throw error
    }

    if (binary) return { status, headers: responseHeaders, body: bytes, requestId }
    if (responseType === 'text') return { status, headers: responseHeaders, body: text, requestId }

    if (text.trim() === '') return { status, headers: responseHeaders, body: undefined, requestId }
    let parsed: unknown
    try {
      parsed = JSON.parse(text) as unknown
    } catch {
      const safe = redactSecrets(text, secrets)
      const snippet = safe.trim().replace(/\s+/g, ' ').slice(0, 120)
      throw new ResponseFormatError({
        method,
        path,
        status,
        body: safe,
        reason: `expected JSON${contentType ? ` but got ${contentType.split(';')[0]}` : ''}: ${snippet}`,
      })
    }
    // Real clients recognise an error body by its errorCode; one that arrives with a success
    // status but names a failure status of its own is treated as that failure.
    const embedded = embeddedErrorStatus(parsed)
    if (embedded !== undefined) {
      const body = parseMaybeJson(redactSecrets(text, secrets), contentType)
      throw new ApiError({ status: embedded, method, path, body, requestId })
    }
    return { status, headers: responseHeaders, body: parsed, requestId }
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
  private prepare(raw: RawRequest): { headers: Record<string, string>; body: unknown; shownBody: string | undefined } {
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
    let shownBody: string | undefined
    if (raw.body === undefined) {
      body = undefined
    } else if (raw.body instanceof FormData) {
      body = raw.body
      shownBody = describeForm(raw.body)
    } else if (raw.body instanceof Uint8Array) {
      body = raw.body
      shownBody = `<${raw.body.byteLength} bytes>`
    } else {
      body = JSON.stringify(raw.body)
      headers['Content-Type'] = 'application/json'
      shownBody = JSON.stringify(redactJson(raw.body))
    }
    for (const [name, value] of Object.entries(raw.headers ?? {})) {
      const existing = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase())
      if (existing) delete headers[existing]
      headers[name] = value
    }
    for (const [name, value] of Object.entries(headers)) {
      if (/[\r\n\0]/.test(value) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
        throw new InvalidInputError(`The header ${JSON.stringify(name.replace(/[^\x20-\x7e]/g, '?'))} cannot be sent: its name or value holds a forbidden character`)
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
    at: { method: string; path: string; url: string; timedOut: boolean; aborted: boolean; elapsed: number; secrets: string[] },
  ): unknown {
    if (at.aborted && !at.timedOut) return error
    const code = errorCode(error)
    let result: PayfacError
    if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_ARG_VALUE') {
      // Nothing was sent: the request itself could not be built (e.g. a line break in a header).
      result = new InvalidInputError(`${at.method} ${at.path} could not be sent: ${redactSecrets(errorReason(error), at.secrets)}`)
    } else if (at.timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      result = new TimeoutError({ method: at.method, path: at.path, timeoutMs: this.timeoutMs })
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

/** Methods that may change something on the service: their lost answers are unknown outcomes. */
const CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'DELETE'])
/** Answers after which a changing request may have been applied all the same. */
const UNKNOWN_OUTCOME_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504])

/**
 * The one decision of what a failure means for a request that may change something: a POST,
 * PATCH or DELETE that may have reached the service and lost its answer (a connection dropped
 * after it was written, the deadline, 500/502/503/504, an interruption in flight) is an
 * OutcomeUnknownError; anything else is thrown as it is. `interruption` is the abort reason of
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
  if (error instanceof ApiError && UNKNOWN_OUTCOME_STATUSES.has(error.status)) {
    return new OutcomeUnknownError({ method, path, lost: 'status', cause: error, status: error.status })
  }
  return error
}

const RETRY_AFTER = Symbol('retryAfter')
type ApiErrorWithRetry = ApiError & { [RETRY_AFTER]?: string }

/** Client context overlaid with per-call context; an undefined per-call field keeps the client's. */
export function mergeContext(base: Context, call: Context | undefined): Context {
  const merged: Context = { ...base }
  for (const [key, value] of Object.entries(call ?? {}) as Array<[keyof Context, string | undefined]>) {
    if (value !== undefined) merged[key] = value
  }
  return merged
}

/**
 * `limit=20&status=paid&status=refunded&expired=false`. Arrays repeat the parameter; undefined
 * and null are left out; booleans are true/false; Dates are ISO 8601. Anything else (an object)
 * is refused: it has no agreed form in a query string.
 */
export function encodeQuery(query: Query | Record<string, unknown> | undefined): string {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    const values: unknown[] = Array.isArray(value) ? value : [value]
    for (const item of values) {
      const text = queryValue(name, item)
      if (text !== undefined) params.append(name, text)
    }
  }
  return params.toString()
}

function queryValue(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new InvalidInputError(`Query parameter ${name} is not a finite number`)
    return String(value)
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new InvalidInputError(`Query parameter ${name} is an invalid date`)
    return value.toISOString()
  }
  throw new InvalidInputError(`Query parameter ${name} must be a string, number, boolean or date (got ${Array.isArray(value) ? 'a nested array' : typeof value})`)
}

function embeddedErrorStatus(body: unknown): number | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined
  const { errorCode, statusCode } = body as { errorCode?: unknown; statusCode?: unknown }
  if (typeof errorCode !== 'string' || !errorCode) return undefined
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 400 || statusCode > 599) return undefined
  return statusCode
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

function parseMaybeJson(text: string, contentType: string): unknown {
  const trimmed = text.trim()
  if (!trimmed) return undefined
  if (/json/i.test(contentType) || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown
    } catch {
      return text
    }
  }
  return text
}

function errorCode(error: unknown): string | undefined {
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

function errorReason(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : ''
    return `${error.message || error.name}${cause}`
  }
  return String(error)
}

function describeForm(form: FormData): string {
  const parts: string[] = []
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parts.push(`${name}=${/token|secret|password/i.test(name) ? REDACTED : value}`)
    else parts.push(`${name}=<file ${(value as { name?: string }).name ?? ''} ${(value as { size?: number }).size ?? 0} bytes>`)
  }
  return `<multipart ${parts.join(', ')}>`
}
