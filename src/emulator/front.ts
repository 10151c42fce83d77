// The front door, before the pipeline: picks the namespace (Emulator-Namespace), answers the
// control plane (/__emulator/…), applies faults (Emulator-Fault, standing rules, rate limit),
// runs the request through the pipeline of that namespace, logs it, and settles what follows
// (agreement changes, webhook deliveries).
//
// `handle()` is synchronous, like the pipeline. What only a socket can do (hold an answer back,
// destroy the connection) is returned in `transport` for the server to carry out;
// `handleAsync()` also waits where the control plane asks it to (a long poll) and for latency.
import { EmulatorError, errorBody } from './api-error.js'
import { authenticate } from './auth.js'
import type { Clock } from './clock.js'
import { CONTROL_PREFIX, handleControl, longPollWait } from './control-plane.js'
import { FAULT_HEADER, parseFault, type Fault } from './faults.js'
import type { IdGenerator } from './ids.js'
import { WARNING_HEADER } from './lenient.js'
import { NAMESPACE_HEADER, Namespace, Namespaces, type IntegratorOptions, type NamespaceBase } from './namespaces.js'
import { handlePage, isPagePath } from './pages/index.js'
import { handleRequest, type RawRequest, type RawResponse } from './pipeline.js'
import { snippet } from './request-log.js'
import type { Router } from './router.js'
import type { Store } from './store.js'

/** The background tick (agreement changes, due retries) while the emulator listens. */
export const TICK_MS = 1000

export interface FrontResponse extends RawResponse {
  /** What the server must do with the connection: destroy it before answering, or instead of answering after applying. */
  transport?: { destroy?: 'before' | 'after'; delayMs?: number }
  /**
   * A live answer (the inspector's server-sent events): after `body`, the server keeps the
   * connection and writes what `write` is given until the client goes; the function answers how
   * to stop. In-process callers see `body` alone.
   */
  events?: (write: (text: string) => void) => () => void
}

export interface Front {
  readonly namespaces: Namespaces
  readonly options: IntegratorOptions
  handle(raw: RawRequest): FrontResponse
  handleAsync(raw: RawRequest): Promise<FrontResponse>
  /** Starts the background tick (the HTTP server does, while it listens). */
  startTicking(): void
  close(): void
}

export interface FrontRoot {
  store: Store
  clock: Clock
  ids: IdGenerator
  router: Router
  seed: boolean
  afterChange?: () => void
  log?: (line: string) => void
}

const JSON_TYPE = 'application/json; charset=utf-8'

export function createFront(root: FrontRoot, options: IntegratorOptions = {}): Front {
  const base: NamespaceBase = { ids: root.ids, router: root.router, seed: root.seed, options, ...(root.log ? { log: root.log } : {}) }
  const namespaces = new Namespaces(new Namespace('default', root.store, root.clock, base, root.afterChange), base)
  let timer: NodeJS.Timeout | undefined

  function handle(raw: RawRequest): FrontResponse {
    const url = new URL(raw.url, 'http://emulator.invalid')
    let ns: Namespace
    try {
      ns = namespaces.resolve(raw.headers[NAMESPACE_HEADER])
    } catch (error) {
      return errorAnswer(root.ids.next('req'), error)
    }
    if (isPagePath(url.pathname)) {
      const answer = handlePage(namespaces, raw, url)
      answer.headers['Request-Id'] = root.ids.next('req')
      return answer
    }
    if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      const answer = handleControl({ namespaces, ns, ids: root.ids, options }, raw, url)
      answer.headers['Emulator-Namespace'] = ns.name
      return answer
    }
    return contractRequest(ns, raw, url)
  }

  function contractRequest(ns: Namespace, raw: RawRequest, url: URL): FrontResponse {
    const started = performance.now()
    const method = raw.method.toUpperCase()
    let fault: Fault | undefined
    let answer: FrontResponse
    let requestId: string
    try {
      const wait = ns.rateLimiter?.take() ?? 0
      if (wait > 0) {
        throw new EmulatorError(429, 'rate_limited', `More than ${ns.rateLimiter?.perSecond} requests a second (--rate-limit)`, {
          headers: { 'Retry-After': String(wait) },
        })
      }
      const header = raw.headers[FAULT_HEADER]
      fault = header !== undefined && header.trim() !== '' ? parseFault(header) : ns.faults.pick(method, url.pathname)?.fault
      if (fault?.action?.kind === 'status') {
        throw new EmulatorError(fault.action.status, fault.action.status === 503 ? 'service_unavailable' : 'internal_error', `Injected fault: ${fault.text}`)
      }
      if (fault?.action?.kind === 'throttle') {
        throw new EmulatorError(429, 'rate_limited', `Injected fault: ${fault.text}`, { headers: { 'Retry-After': String(fault.action.retryAfterSeconds) } })
      }
      if (fault?.action?.kind === 'reset') {
        requestId = root.ids.next('req')
        answer = { status: 0, headers: { 'Request-Id': requestId }, body: '', transport: { destroy: 'before' } }
      } else {
        if (options.strictHttps) refuseLoopbackWebhook(ns, method, url.pathname, raw)
        answer = handleRequest(ns.deps, raw, url)
        requestId = answer.headers['Request-Id'] as string
        ns.settle(requestId)
        if (fault?.action?.kind === 'drop-after-commit') answer.transport = { destroy: 'after' }
        if (fault?.action && 'page' in fault.action) answer = spoilPage(answer, fault.action, url)
        if (fault?.action?.kind === 'commit-then-status' && answer.status < 400) {
          // Applied in full; the client is told it failed, as a proxy or a crash after the commit would.
          const status = fault.action.status
          answer = errorAnswer(
            requestId,
            new EmulatorError(
              status,
              status === 503 ? 'service_unavailable' : status === 500 ? 'internal_error' : 'bad_gateway',
              `Injected fault: ${fault.text} (the request was applied)`,
            ),
          )
        }
      }
    } catch (error) {
      requestId = root.ids.next('req')
      answer = errorAnswer(requestId, error)
    }
    if (fault && fault.latencyMs > 0) answer.transport = { ...answer.transport, delayMs: fault.latencyMs }
    // The service's clock, as a real server's Date header gives it: emulator time, advanced or not.
    const now = ns.clock.now()
    answer.headers.Date = httpDate(now)
    // Logged as received; the log masks secrets when it is read (request-log.ts).
    ns.requests.add({
      requestId,
      at: now.getTime(),
      method,
      url: raw.url,
      status: answer.status,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      fault: fault?.text ?? (answer.status === 429 && !fault ? 'rate-limit' : null),
      requestHeaders: raw.headers,
      requestBody: snippet(raw.body),
      responseBody: answer.transport?.destroy === 'before' ? null : snippet(answer.body),
      warning: answer.headers[WARNING_HEADER] ?? null,
    })
    return answer
  }

  async function handleAsync(raw: RawRequest): Promise<FrontResponse> {
    const wait = longPollWait(namespaces, raw)
    if (wait) await wait
    const answer = handle(raw)
    const delay = answer.transport?.delayMs
    if (delay) {
      await new Promise((resolve) => setTimeout(resolve, delay).unref())
      delete answer.transport?.delayMs
    }
    return answer
  }

  return {
    namespaces,
    options,
    handle,
    handleAsync,
    startTicking() {
      if (timer) return
      timer = setInterval(() => namespaces.tick(), TICK_MS)
      timer.unref()
    },
    close() {
      if (timer) clearInterval(timer)
      timer = undefined
      namespaces.close()
    },
  }
}

/**
 * `empty-page=<n>` and `malformed-page=<n>`: a successful list answer for page n (default 1)
 * loses its records (an empty array) or is cut short mid-JSON; headers, counts included, stay.
 */
function spoilPage(answer: FrontResponse, action: { kind: 'empty-page' | 'malformed-page'; page: number }, url: URL): FrontResponse {
  const page = Number(url.searchParams.get('page') ?? '1')
  if (page !== action.page || answer.status !== 200) return answer
  const text = typeof answer.body === 'string' ? answer.body : answer.body.toString('utf8')
  if (!text.trimStart().startsWith('[')) return answer
  return { ...answer, body: action.kind === 'empty-page' ? '[]' : text.slice(0, Math.max(1, Math.floor(text.length / 2))) }
}

/** The Date header's text, made once a second (it names whole seconds). */
let dateSecond = Number.NaN
let dateText = ''
function httpDate(now: Date): string {
  const second = Math.floor(now.getTime() / 1000)
  if (second !== dateSecond) {
    dateSecond = second
    dateText = now.toUTCString()
  }
  return dateText
}

/** An ApiError answer with its request id (for errors outside the pipeline). */
export function errorAnswer(requestId: string, error: unknown): FrontResponse {
  const built = errorBody(error, requestId)
  return { status: built.status, headers: { 'Content-Type': JSON_TYPE, ...built.headers, 'Request-Id': requestId }, body: JSON.stringify(built.body) }
}

/**
 * `--strict-https`: a webhook subscription to plain http is refused even on loopback (the shared
 * schema allows loopback http for local receivers). Checked only for callers the pipeline would
 * let in, so a missing credential is still a 401.
 */
function refuseLoopbackWebhook(ns: Namespace, method: string, pathname: string, raw: RawRequest): void {
  if (method !== 'POST' || pathname.replace(/\/$/, '') !== '/webhooks') return
  try {
    authenticate(ns.store, ns.clock, raw.headers.authorization)
  } catch {
    return
  }
  let body: unknown
  try {
    body = JSON.parse(typeof raw.body === 'string' ? raw.body : (raw.body?.toString('utf8') ?? ''))
  } catch {
    return
  }
  const value = body !== null && typeof body === 'object' ? Object.values(body as Record<string, unknown>)[0] : undefined
  const target = value !== null && typeof value === 'object' ? (value as { url?: unknown }).url : undefined
  if (typeof target === 'string' && /^http:/i.test(target.trim())) {
    throw new EmulatorError(
      400,
      'invalid_request',
      'Invalid request: url: expected an https:// URL (this emulator runs with --strict-https, so loopback http is refused too)',
    )
  }
}
