// A scripted service on undici's MockAgent: every request is recorded as it went on the wire
// (method, path, query, lower-case headers, body text) and answered from the script.
import { MockAgent } from 'undici'
import { createClient, type ClientOptions, type PayfacClient } from '../../src/client/index.js'

export const ORIGIN = 'https://api.payfac.test'
export const CREDENTIAL = 'sandbox_sk_TopSecretCredential_9f8e7d6c'

export interface WireRequest {
  method: string
  path: string
  /** The path without its query. */
  pathname: string
  query: URLSearchParams
  headers: Record<string, string>
  body: unknown
  /** JSON body parsed, when the body was JSON text. */
  json: unknown
}

export interface Reply {
  status?: number
  body?: unknown
  headers?: Record<string, string>
}

export interface MockService {
  agent: MockAgent
  requests: WireRequest[]
  /** Answer the next request matching method and path (with query, or a predicate). */
  on(
    method: string,
    path: string | ((path: string) => boolean),
    reply: Reply | ((req: WireRequest) => Reply),
    options?: { times?: number; delayMs?: number },
  ): void
  /** Fail the next matching request with a network error. */
  fail(method: string, path: string, error: Error): void
  client(options?: Partial<ClientOptions>): PayfacClient
  sleeps: number[]
  close(): Promise<void>
}

export function mockService(): MockService {
  const agent = new MockAgent()
  agent.disableNetConnect()
  const pool = agent.get(ORIGIN)
  const requests: WireRequest[] = []
  const sleeps: number[] = []

  const record = (opts: { path: string; method: string; headers?: unknown; body?: unknown }): WireRequest => {
    const url = new URL(opts.path, ORIGIN)
    const headers = normaliseHeaders(opts.headers)
    let body: unknown = opts.body
    if (body instanceof Uint8Array) body = Buffer.from(body).toString('utf8')
    let json: unknown
    if (typeof body === 'string') {
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
    }
    const req = { method: opts.method, path: opts.path, pathname: url.pathname, query: url.searchParams, headers, body, json }
    requests.push(req)
    return req
  }

  const matcher = (path: string | ((p: string) => boolean)) => (typeof path === 'string' ? (p: string) => p === path : path)

  return {
    agent,
    requests,
    sleeps,
    on(method, path, reply, options = {}) {
      const scope = pool.intercept({ method, path: matcher(path) }).reply((opts) => {
        const req = record(opts as never)
        const r = typeof reply === 'function' ? reply(req) : reply
        const body = r.body
        const data = body === undefined ? '' : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body)
        const isJson = body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)
        return {
          statusCode: r.status ?? 200,
          data,
          responseOptions: { headers: { ...(isJson ? { 'content-type': 'application/json' } : {}), ...(r.headers ?? {}) } },
        }
      })
      if (options.times) scope.times(options.times)
      if (options.delayMs) scope.delay(options.delayMs)
    },
    fail(method, path, error) {
      pool.intercept({ method, path: matcher(path) }).replyWithError(error)
    },
    client(options = {}) {
      return createClient({
        baseUrl: ORIGIN,
        credential: CREDENTIAL,
        dispatcher: agent,
        sleep: async (ms) => {
          sleeps.push(ms)
        },
        random: () => 0.5,
        ...options,
      })
    },
    close: () => agent.close(),
  }
}

function normaliseHeaders(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (!raw) return out
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1])
    return out
  }
  if (typeof (raw as Headers).forEach === 'function' && !(raw.constructor === Object)) {
    ;(raw as Headers).forEach((value, key) => {
      out[key.toLowerCase()] = value
    })
    return out
  }
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) out[key.toLowerCase()] = String(value)
  return out
}

/** A network error as node/undici raise it. */
export function networkError(code: string, message = `${code} on the socket`): Error {
  return Object.assign(new Error(message), { code })
}
