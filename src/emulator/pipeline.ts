// One request, start to finish. The steps, in order:
//   1. request id (sent back as `Request-Id` on every answer, and as `tracer` in every error)
//   2. bearer credential → principal (401)
//   3. context headers → scope (403)
//   4. route: method + path (404, 405 with Allow); credential kind allowed (403); Accept (406)
//   5. body: size, depth and string limits (413/400, before parsing), JSON whatever the declared
//      content type (400 when it is not JSON), envelope (400 unless exactly one known action key),
//      validation with the shared request schemas, then the emulator's own (400); unknown fields
//      accepted and reported (`Emulator-Warning`) unless strict (lenient.ts)
//   6. handler (synchronous: nothing else runs until it returns)
//   7. answer; every error of every step goes through the one builder in api-error.ts
// The whole function is synchronous: the server reads the body first and hands over the bytes.
import type { z } from 'zod'
import { ACTIONS, BODIES } from '../client/schemas/actions.js'
import { EmulatorError, badRequest, errorBody, forbidden } from './api-error.js'
import { authenticate, contextHeaders, resolveScope } from './auth.js'
import { checkJsonLimits } from './body-limits.js'
import type { Clock } from './clock.js'
import type { IdGenerator } from './ids.js'
import { blankBilling, decimalQuantities, validateBody, WARNING_HEADER, warningText } from './lenient.js'
import type { Router } from './router.js'
import { Reply, StreamBody, routeKey, type EmulatorRules, type HandlerContext, type HandlerRequest, type Route } from './route.js'
import { markChanged, type Store } from './store.js'

export interface RawRequest {
  method: string
  /** Path and query, as on the request line. */
  url: string
  /** Header names in lower case. */
  headers: Record<string, string | undefined>
  body?: Buffer | string | undefined
  /** How the caller reached the emulator, e.g. http://127.0.0.1:4010 (used in links the emulator hands out). */
  baseUrl?: string
}

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string | Buffer | StreamBody
}

export interface PipelineDeps {
  store: Store
  clock: Clock
  ids: IdGenerator
  router: Router
  /** Called after every request that may have changed the state (any method but GET). */
  afterChange?: () => void
  /** Receives one line per request and any warnings. */
  log?: (line: string) => void
  /** `--strict`: refuse fields the request schemas do not know (400) instead of accepting and reporting them. */
  strict?: boolean
  /** Payment tokens expire this many seconds after they are made; absent: they do not expire. */
  paymentTokenLifetimeSeconds?: number
}

const JSON_TYPE = 'application/json; charset=utf-8'
const SHARED_ACTIONS = ACTIONS as unknown as Record<string, Record<string, z.ZodType> | '*' | undefined>
const SHARED_BODIES = BODIES as unknown as Record<string, z.ZodType | undefined>

/** The body of a request that sent none (shared: nothing writes to a request's body). */
const EMPTY_BODY = Buffer.alloc(0)

/** `parsed`: the request's URL when the caller has parsed it already (the front door has). */
export function handleRequest(deps: PipelineDeps, raw: RawRequest, parsed?: URL): RawResponse {
  const started = Date.now()
  const requestId = deps.ids.next('req')
  let response: RawResponse
  let mayHaveChanged = false
  let unknown: string[] = []
  let decimals: string[] = []
  try {
    const url = parsed ?? new URL(raw.url, 'http://emulator.invalid')
    const principal = authenticate(deps.store, deps.clock, raw.headers.authorization)
    const scope = resolveScope(deps.store, principal, contextHeaders(raw.headers))
    const { route, params } = deps.router.match(raw.method.toUpperCase(), url.pathname)
    if (!route.allow.includes(principal.kind)) {
      throw forbidden('credential_not_allowed', `${describeKind(principal.kind)} may not call ${route.method} ${route.path}`)
    }
    const accept = negotiate(raw.headers.accept, route.produces, route.alsoAccepts)
    const read = readBody(route, raw, deps.strict === true)
    const { body, action } = read
    unknown = read.unknown
    decimals = read.decimals
    const ctx: HandlerContext = {
      store: deps.store,
      clock: deps.clock,
      ids: deps.ids,
      principal,
      scope,
      requestId,
      baseUrl: raw.baseUrl ?? 'http://127.0.0.1',
      rules: rulesOf(deps),
    }
    const req: HandlerRequest = {
      method: route.method,
      path: url.pathname,
      params,
      query: url.searchParams,
      body,
      action,
      headers: raw.headers,
      accept,
      rawBody: raw.body === undefined ? EMPTY_BODY : typeof raw.body === 'string' ? Buffer.from(raw.body, 'utf8') : raw.body,
    }
    mayHaveChanged = route.method !== 'GET'
    response = toResponse(route.handle(ctx, req))
  } catch (error) {
    const built = errorBody(error, requestId)
    if (built.status === 500) deps.log?.(`emulator: ${requestId} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    response = { status: built.status, headers: { 'Content-Type': JSON_TYPE, ...built.headers }, body: JSON.stringify(built.body) }
  }
  // Handlers may change records in place: whatever was derived from them (a cached sort) goes.
  if (mayHaveChanged) markChanged(deps.store)
  if (mayHaveChanged && deps.afterChange) {
    try {
      deps.afterChange()
    } catch (error) {
      deps.log?.(`emulator: warning: the state could not be saved: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  // Accepted unknown fields are reported on the answer, an error of the operation's own rules included.
  if (unknown.length > 0 || decimals.length > 0) response.headers[WARNING_HEADER] = warningText(unknown, decimals)
  response.headers['Request-Id'] = requestId
  const warning = response.headers[WARNING_HEADER]
  deps.log?.(`${raw.method} ${raw.url} ${response.status} ${Date.now() - started}ms ${requestId}${warning ? ` (${warning})` : ''}`)
  return response
}

/** An error answer made outside the pipeline (e.g. the server refusing an oversized body), with its own request id. */
export function rejectRequest(deps: Pick<PipelineDeps, 'ids' | 'log'>, error: EmulatorError, raw: Pick<RawRequest, 'method' | 'url'>): RawResponse {
  const requestId = deps.ids.next('req')
  const built = errorBody(error, requestId)
  deps.log?.(`${raw.method} ${raw.url} ${built.status} ${requestId}`)
  return {
    status: built.status,
    headers: { 'Content-Type': JSON_TYPE, ...built.headers, 'Request-Id': requestId },
    body: JSON.stringify(built.body),
  }
}

/** The rules handlers read, from the pipeline's options. */
export function rulesOf(deps: Pick<PipelineDeps, 'strict' | 'paymentTokenLifetimeSeconds'>): EmulatorRules {
  return { strict: deps.strict === true, paymentTokenLifetimeSeconds: deps.paymentTokenLifetimeSeconds ?? null }
}

function describeKind(kind: string): string {
  return (
    {
      marketplace: 'A marketplace credential',
      merchant: 'A merchant secret credential',
      public: 'A merchant public key',
      customer: 'A customer token',
      payByLink: 'A Pay By Link token',
    }[kind] ?? 'This credential'
  )
}

function toResponse(result: unknown): RawResponse {
  if (result instanceof Reply) {
    if (result.contentType !== undefined) {
      const body = typeof result.body === 'string' || Buffer.isBuffer(result.body) || result.body instanceof StreamBody ? result.body : String(result.body)
      return { status: result.status, headers: { 'Content-Type': result.contentType, ...result.headers }, body }
    }
    return { status: result.status, headers: { 'Content-Type': JSON_TYPE, ...result.headers }, body: JSON.stringify(result.body ?? {}) }
  }
  return { status: 200, headers: { 'Content-Type': JSON_TYPE }, body: JSON.stringify(result ?? {}) }
}

/**
 * The first media type of `produces` the Accept header allows; a range that allows one of
 * `alsoAccepts` gets `produces[0]` (a download to `Accept: application/json`). 406 when none.
 */
export function negotiate(acceptHeader: string | undefined, produces: readonly string[], alsoAccepts: readonly string[] = []): string {
  const first = produces[0] ?? 'application/json'
  if (!acceptHeader?.trim()) return first
  const ranges = acceptHeader
    .split(',')
    .map((part) => {
      const [type = '', ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/i.exec(p)).find(Boolean)
      return { type: type.trim().toLowerCase(), q: q ? Number(q[1]) : 1 }
    })
    .filter((r) => r.type && r.q > 0)
    .sort((a, b) => b.q - a.q)
  const allows = (range: string, p: string) => range === '*/*' || (range.endsWith('/*') ? p.startsWith(range.slice(0, -1)) : p === range)
  for (const range of ranges) {
    const found = produces.find((p) => allows(range.type, p)) ?? (alsoAccepts.some((p) => allows(range.type, p)) ? first : undefined)
    if (found) return found
  }
  throw new EmulatorError(406, 'not_acceptable', `This operation answers ${produces.join(' or ')}; the Accept header allows none of them`)
}

interface ReadBody {
  body: unknown
  action: string | null
  /** Unknown fields accepted (lenient mode), as paths. */
  unknown: string[]
  /** Order item quantities that are not whole numbers, accepted (lenient mode), as paths. */
  decimals: string[]
}

const NO_BODY: ReadBody = { body: undefined, action: null, unknown: [], decimals: [] }

function readBody(route: Route, raw: RawRequest, strict: boolean): ReadBody {
  if (route.actions === undefined && route.body === undefined && SHARED_BODIES[routeKey(route)] === undefined) return NO_BODY
  const text = raw.body === undefined ? '' : typeof raw.body === 'string' ? raw.body : raw.body.toString('utf8')
  if (text.trim() === '') {
    if (route.actions !== undefined || route.bodyRequired || SHARED_BODIES[routeKey(route)] !== undefined) {
      throw badRequest('missing_body', `${route.method} ${route.path} needs a JSON body`)
    }
    return NO_BODY
  }
  const json = parseJsonBody(text, raw.headers['content-type'])
  return route.actions !== undefined ? readEnvelope(route, route.actions, json, strict) : readPlain(route, json, strict)
}

/**
 * The body as JSON, whatever the declared content type: real clients send JSON labelled
 * `application/x-www-form-urlencoded` and the service reads it (field notes). Only a body that is
 * not JSON is refused, and `multipart/form-data` keeps its meaning (file uploads, not JSON).
 */
function parseJsonBody(text: string, contentTypeHeader: string | undefined): unknown {
  const contentType = contentTypeHeader?.split(';')[0]?.trim().toLowerCase()
  const declaredJson = !contentType || contentType === 'application/json' || contentType.endsWith('+json')
  if (contentType === 'multipart/form-data') {
    throw badRequest(
      'unsupported_content_type',
      'This operation takes a JSON body; multipart/form-data is for file uploads (POST /merchants/{merchantId}/files)',
    )
  }
  checkJsonLimits(text)
  try {
    return JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : undefined
    if (declaredJson) throw badRequest('malformed_json', 'The request body is not valid JSON', reason)
    throw badRequest('unsupported_content_type', `Request bodies are JSON; this ${contentType} body is not JSON`, reason)
  }
}

function readEnvelope(route: Route, actions: NonNullable<Route['actions']>, json: unknown, strict: boolean): ReadBody {
  const names = Object.keys(actions)
  const expected = `one of ${names.join(', ')}`
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw badRequest('invalid_envelope', `The body must be an object with exactly one key: ${expected}`)
  }
  const keys = Object.keys(json)
  if (keys.length !== 1) {
    throw badRequest('invalid_envelope', `The body must have exactly one key (${expected}); found ${keys.length === 0 ? 'none' : keys.join(', ')}`)
  }
  const name = keys[0] as string
  const spec = Object.hasOwn(actions, name) ? actions[name] : undefined
  if (!spec) throw badRequest('unknown_action', `"${name}" is not an action of ${route.method} ${route.path}; expected ${expected}`)
  let value = (json as Record<string, unknown>)[name]
  const unknown: string[] = []
  const table = SHARED_ACTIONS[routeKey(route)]
  const shared = table !== undefined && table !== '*' ? table[name] : undefined
  const blank = blankBilling(name, value)
  const decimals = decimalQuantities(name, value, strict)
  if (shared) value = check(shared, value, strict, unknown, name)
  if (spec.schema) value = check(spec.schema, value, strict, unknown, name)
  blank?.restore(value)
  decimals?.restore(value)
  return { body: value, action: name, unknown, decimals: decimals?.paths ?? [] }
}

function readPlain(route: Route, json: unknown, strict: boolean): ReadBody {
  let value = json
  const unknown: string[] = []
  const shared = SHARED_BODIES[routeKey(route)]
  if (shared) value = check(shared, value, strict, unknown)
  if (route.body) value = check(route.body, value, strict, unknown)
  return { body: value, action: null, unknown, decimals: [] }
}

/** One schema's check; the unknown fields it accepted are added to `unknown` (once each). */
function check(schema: z.ZodType, value: unknown, strict: boolean, unknown: string[], root?: string): unknown {
  const checked = validateBody(schema, value, { strict, root })
  for (const field of checked.unknown) if (!unknown.includes(field)) unknown.push(field)
  return checked.value
}
