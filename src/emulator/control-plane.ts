// The control plane: /__emulator/… (a prefix no contract path can take). No credential is
// needed (the emulator is local); every route acts on the namespace of the request
// (Emulator-Namespace, default `default`). Answers are JSON; errors are ApiError bodies.
//
//   GET    /__emulator                          what is here: endpoints, limits, namespaces
//   POST   /__emulator/reset                    back to the seed and the fixtures
//   GET    /__emulator/state                    the whole store, the clock
//   GET    /__emulator/clock                    emulator time
//   POST   /__emulator/clock                    {seconds} or {advance: "90s"}: same as AdvanceClock
//   GET    /__emulator/requests                 ?limit=&after=   the request log, oldest first
//   GET    /__emulator/deliveries               ?after=&limit=&wait=&deliveryId=&eventType=   every attempt
//   POST   /__emulator/deliveries/{id}/replay   send a logged delivery again
//   POST   /__emulator/trigger                  {eventType, merchantId?, marketplaceId?, data?}
//   GET    /__emulator/faults                   standing fault rules
//   POST   /__emulator/faults                   {method?, pathPattern, probability?, fault}
//   DELETE /__emulator/faults                   remove them all
//   GET    /__emulator/webhooks/{id}            one subscription with its secret (for `payfac webhooks listen`)
//   GET    /__emulator/namespaces               namespaces in use
//   POST   /__emulator/seed                     {orders?, settlementEntries?, merchantId?, days?}: many records at once
//   GET    /__emulator/openapi.json             the contract as OpenAPI 3.1, this emulator as its server
import { z } from 'zod'
import { describeIssues } from '../client/schemas/common.js'
import { EmulatorError, badRequest, notFound } from './api-error.js'
import { JSON_LIMITS, checkJsonLimits } from './body-limits.js'
import { MAX_BULK_RECORDS, bulkSeed } from './bulk-seed.js'
import { timestamp } from './clock.js'
import { monthFixture, removeEntry } from './control-month.js'
import { parseFault } from './faults.js'
import { emulatorOpenApi } from './openapi.js'
import type { IdGenerator } from './ids.js'
import { MAX_NAMESPACES, NAMESPACE_HEADER, type IntegratorOptions, type Namespace, type Namespaces } from './namespaces.js'
import type { RawRequest, RawResponse } from './pipeline.js'
import { MAX_ADVANCE_SECONDS } from './resources/simulation.js'
import { lookup, type EventRecord } from './store.js'

export const CONTROL_PREFIX = '/__emulator'
/** Longest long poll of `GET /__emulator/deliveries?wait=`, in seconds (below the client's 30 s timeout). */
export const MAX_WAIT_SECONDS = 25
/** Default and largest `limit` of the logs. */
export const DEFAULT_LOG_LIMIT = 50

const JSON_TYPE = 'application/json; charset=utf-8'

export interface ControlContext {
  namespaces: Namespaces
  ns: Namespace
  ids: IdGenerator
  options: IntegratorOptions
}

type Handler = (ctx: ControlContext, req: { body: unknown; query: URLSearchParams; params: string[]; requestId: string; baseUrl: string }) => unknown

const EventType = z.string().regex(/^[A-Z][A-Za-z0-9]*$/, { error: 'expected an event name such as TransactionPaid' })
const TriggerBody = z.strictObject({
  eventType: EventType,
  merchantId: z.string().min(1).optional(),
  marketplaceId: z.string().min(1).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
})
const ClockBody = z
  .strictObject({ seconds: z.number().positive().max(MAX_ADVANCE_SECONDS).optional(), advance: z.string().optional() })
  .refine((b) => (b.seconds === undefined) !== (b.advance === undefined), { error: 'give seconds or advance (such as "90s"), one of them' })
const Count = z.number().int().min(0).max(MAX_BULK_RECORDS)
const SeedBody = z
  .strictObject({
    orders: Count.optional(),
    settlementEntries: Count.optional(),
    merchantId: z.string().min(1).optional(),
    days: z.number().positive().max(3650).optional(),
  })
  .refine((b) => b.orders !== undefined || b.settlementEntries !== undefined, { error: 'give orders or settlementEntries (how many to add)' })
const FaultRuleBody = z.strictObject({
  method: z
    .string()
    .regex(/^(\*|[A-Za-z]+)$/)
    .optional(),
  pathPattern: z.string().startsWith('/', { error: 'expected a path starting with /' }).max(500),
  probability: z.number().min(0).max(1).optional(),
  fault: z.string().min(1),
})

/** `90s`, `10m`, `2h`, `1d`, `500ms` or plain seconds, in seconds. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text)
  if (!match) throw badRequest('invalid_request', `Invalid request: advance: "${text}" is not a duration such as 90s, 10m, 2h or 1d`)
  const factor = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd']
  return Number(match[1]) * factor
}

function clockView(ns: Namespace) {
  return { namespace: ns.name, now: timestamp(ns.clock.now()), offsetMs: ns.clock.offsetMs() }
}

function intParam(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const text = query.get(name)
  if (text === null || text === '') return fallback
  if (!/^\d+$/.test(text) || Number(text) > max) throw badRequest('invalid_query', `"${name}" must be a whole number from 0 to ${max}`)
  return Number(text)
}

function validate<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {})
  if (!parsed.success) throw badRequest('invalid_request', `Invalid request: ${describeIssues(parsed.error)}`)
  return parsed.data
}

const ROUTES: Record<string, Partial<Record<string, Handler>>> = {
  '': {
    GET: (ctx) => ({
      namespace: ctx.ns.name,
      namespaces: ctx.namespaces.list().map((n) => n.name),
      limits: { requestLog: ctx.ns.requests.capacity, deliveryLog: ctx.ns.deliveries.log.capacity, namespaces: MAX_NAMESPACES, body: JSON_LIMITS },
      options: {
        faultSeed: String(ctx.options.faultSeed ?? 'payfac'),
        rateLimit: ctx.options.rateLimit ?? null,
        strictHttps: ctx.options.strictHttps ?? false,
        strict: ctx.options.strict ?? false,
        paymentTokenLifetimeSeconds: ctx.options.paymentTokenLifetimeSeconds ?? ctx.options.fixtures?.settings?.paymentTokenLifetimeSeconds ?? null,
        fixtures: ctx.options.fixtures !== undefined,
      },
      endpoints: [
        'POST /__emulator/reset',
        'GET /__emulator/state',
        'GET|POST /__emulator/clock',
        'GET /__emulator/requests',
        'GET /__emulator/deliveries',
        'POST /__emulator/deliveries/{deliveryId}/replay',
        'POST /__emulator/trigger',
        'GET|POST|DELETE /__emulator/faults',
        'GET /__emulator/webhooks/{webhookSubscriptionId}',
        'GET /__emulator/namespaces',
        'GET /__emulator/openapi.json',
        'POST /__emulator/seed',
        'POST /__emulator/fixtures/month',
        'DELETE /__emulator/settlement/{settlementEntryId}',
      ],
    }),
  },
  reset: {
    POST: (ctx) => {
      ctx.ns.reset()
      return { namespace: ctx.ns.name, reset: true, now: timestamp(ctx.ns.clock.now()) }
    },
  },
  state: {
    GET: (ctx) => ({ namespace: ctx.ns.name, now: timestamp(ctx.ns.clock.now()), clockOffsetMs: ctx.ns.clock.offsetMs(), store: ctx.ns.store }),
  },
  clock: {
    GET: (ctx) => clockView(ctx.ns),
    POST: (ctx, req) => {
      const body = validate(ClockBody, req.body)
      const seconds = body.seconds ?? parseDuration(body.advance as string)
      if (!(seconds > 0) || seconds > MAX_ADVANCE_SECONDS)
        throw badRequest('invalid_request', `Invalid request: advance by more than 0 and at most ${MAX_ADVANCE_SECONDS} seconds`)
      ctx.ns.clock.advance(seconds)
      ctx.ns.settle(req.requestId)
      ctx.ns.persist()
      return { ...clockView(ctx.ns), advancedBySeconds: seconds }
    },
  },
  requests: {
    GET: (ctx, req) => {
      const log = ctx.ns.requests
      const limit = intParam(req.query, 'limit', DEFAULT_LOG_LIMIT, log.capacity)
      const after = req.query.get('after')
      return after === null ? log.last(limit) : log.after(intParam(req.query, 'after', 0, Number.MAX_SAFE_INTEGER), limit)
    },
  },
  deliveries: {
    GET: (ctx, req) => {
      const log = ctx.ns.deliveries.log
      const limit = intParam(req.query, 'limit', log.capacity, log.capacity)
      intParam(req.query, 'wait', 0, MAX_WAIT_SECONDS)
      const deliveryId = req.query.get('deliveryId')
      const eventType = req.query.get('eventType')
      const after = intParam(req.query, 'after', 0, Number.MAX_SAFE_INTEGER)
      return log
        .after(after)
        .filter((a) => (deliveryId === null || a.deliveryId === deliveryId) && (eventType === null || a.webhookEventType === eventType))
        .slice(0, limit)
    },
  },
  'deliveries/*/replay': {
    POST: (ctx, req) => {
      const deliveryId = req.params[0] as string
      const result = ctx.ns.deliveries.replay(deliveryId)
      if (result === 'unknown') throw notFound('Delivery', deliveryId)
      if (result === 'truncated')
        throw new EmulatorError(409, 'delivery_not_kept', `Delivery ${deliveryId} was too large to keep whole in the log, so it cannot be replayed`)
      if (result === 'no_subscription') throw new EmulatorError(409, 'subscription_gone', `The subscription of delivery ${deliveryId} no longer exists`)
      return { namespace: ctx.ns.name, ...result }
    },
  },
  trigger: {
    POST: (ctx, req) => {
      const body = validate(TriggerBody, req.body)
      const store = ctx.ns.store
      let merchantId: string | null = body.merchantId ?? null
      let marketplaceId: string | null = body.marketplaceId ?? null
      if (merchantId === null && marketplaceId === null) merchantId = store.merchants.first()?.merchantId ?? null
      if (merchantId !== null) {
        const merchant = lookup(store.merchants, merchantId)
        if (!merchant) throw notFound('Merchant', merchantId)
        marketplaceId ??= merchant.marketplaceId
      } else if (marketplaceId !== null && !lookup(store.marketplaces, marketplaceId)) throw notFound('Marketplace', marketplaceId)
      // A synthetic event: delivered like any other, but not added to the store's event log.
      const event: EventRecord = {
        eventId: ctx.ids.next('evt'),
        webhookEventType: body.eventType,
        merchantId,
        marketplaceId,
        requestId: req.requestId,
        event: body.data ?? {},
        timestamp: timestamp(ctx.ns.clock.now()),
      }
      return { namespace: ctx.ns.name, event, deliveries: ctx.ns.deliveries.enqueue(event) }
    },
  },
  faults: {
    GET: (ctx) => ({
      namespace: ctx.ns.name,
      seed: String(ctx.options.faultSeed ?? 'payfac'),
      rateLimit: ctx.options.rateLimit ?? null,
      rules: ctx.ns.faults.list(),
    }),
    POST: (ctx, req) => {
      const body = validate(FaultRuleBody, req.body)
      parseFault(body.fault)
      return ctx.ns.faults.add(body, timestamp(ctx.ns.clock.now()))
    },
    DELETE: (ctx) => {
      const cleared = ctx.ns.faults.list().length
      ctx.ns.faults.clear()
      return { namespace: ctx.ns.name, cleared }
    },
  },
  seed: {
    POST: (ctx, req) => {
      const body = validate(SeedBody, req.body)
      const started = performance.now()
      const result = bulkSeed(ctx.ns.store, ctx.ns.clock, ctx.ids, body)
      ctx.ns.persist()
      return { namespace: ctx.ns.name, ...result, durationMs: Math.round(performance.now() - started) }
    },
  },
  'fixtures/month': {
    POST: (ctx, req) => monthFixture(ctx.ns, ctx.ids, req.body),
  },
  'webhooks/*': {
    GET: (ctx, req) => {
      const id = req.params[0] as string
      const s = ctx.ns.store.webhookSubscriptions.get(id)
      if (!s) throw notFound('Webhook subscription', id)
      return { namespace: ctx.ns.name, id: s.id, url: s.url, status: s.status, events: [...s.events], secret: s.secret }
    },
  },
  'settlement/*': {
    DELETE: (ctx, req) => removeEntry(ctx.ns, req.params[0] as string),
  },
  // The contract as OpenAPI 3.1, the document `payfac openapi` prints, with this emulator as its server.
  'openapi.json': {
    GET: (_ctx, req) => emulatorOpenApi(req.baseUrl),
  },
  namespaces: {
    GET: (ctx) =>
      ctx.namespaces.list().map((n) => ({
        name: n.name,
        now: timestamp(n.clock.now()),
        requestsLogged: n.requests.length,
        deliveriesLogged: n.deliveries.log.length,
        deliveriesPending: n.deliveries.pendingCount,
        faultRules: n.faults.list().length,
      })),
  },
}

/** The route key and parameters of a control path: `deliveries/dlv_x/replay` → `deliveries/*\/replay`, [dlv_x]. */
function matchRoute(pathname: string): { key: string; params: string[] } | undefined {
  const rest = pathname.slice(CONTROL_PREFIX.length).replace(/^\/|\/$/g, '')
  if (!rest.includes('*') && Object.hasOwn(ROUTES, rest)) return { key: rest, params: [] }
  const parts = rest.split('/')
  if (parts.length === 3 && parts[0] === 'deliveries' && parts[2] === 'replay' && parts[1]) {
    return { key: 'deliveries/*/replay', params: [decodeURIComponent(parts[1])] }
  }
  if (parts.length === 2 && parts[0] === 'settlement' && parts[1]) return { key: 'settlement/*', params: [decodeURIComponent(parts[1])] }
  if (parts.length === 2 && parts[0] === 'webhooks' && parts[1]) return { key: 'webhooks/*', params: [decodeURIComponent(parts[1])] }
  return undefined
}

export function handleControl(ctx: ControlContext, raw: RawRequest, url: URL): RawResponse {
  const requestId = ctx.ids.next('req')
  const headers = { 'Content-Type': JSON_TYPE, 'Request-Id': requestId, 'Cache-Control': 'no-store' }
  try {
    const found = matchRoute(url.pathname)
    if (!found) throw new EmulatorError(404, 'not_found', `No control operation at ${url.pathname}; see GET ${CONTROL_PREFIX}`)
    const methods = ROUTES[found.key] as Partial<Record<string, Handler>>
    const method = raw.method.toUpperCase()
    const handler = methods[method]
    if (!handler) {
      const allow = Object.keys(methods).sort().join(', ')
      throw new EmulatorError(405, 'method_not_allowed', `${method} is not allowed on ${url.pathname}; allowed: ${allow}`, { headers: { Allow: allow } })
    }
    const text = raw.body === undefined ? '' : typeof raw.body === 'string' ? raw.body : raw.body.toString('utf8')
    let body: unknown
    if (text.trim() !== '') {
      checkJsonLimits(text)
      try {
        body = JSON.parse(text)
      } catch (error) {
        throw badRequest('malformed_json', 'The request body is not valid JSON', (error as Error).message)
      }
    }
    const result = handler(ctx, { body, query: url.searchParams, params: found.params, requestId, baseUrl: raw.baseUrl ?? 'http://127.0.0.1' })
    return { status: 200, headers, body: JSON.stringify(result) }
  } catch (error) {
    const e = error instanceof EmulatorError ? error : new EmulatorError(500, 'internal_error', 'The control plane failed', { detail: String(error) })
    const body = { statusCode: e.status, errorCode: e.errorCode, message: e.message, tracer: requestId, ...(e.detail ? { detail: e.detail } : {}) }
    return { status: e.status, headers: { ...headers, ...e.headers }, body: JSON.stringify(body) }
  }
}

/**
 * For `GET /__emulator/deliveries?wait=<s>&after=<seq>`: a promise that settles when an attempt
 * after `seq` is logged or the wait is over; undefined when the request is not such a long poll.
 */
export function longPollWait(namespaces: Namespaces, raw: RawRequest): Promise<void> | undefined {
  // Most requests are not for the control plane: said without parsing their URL.
  if (!raw.url.includes(CONTROL_PREFIX) || raw.method.toUpperCase() !== 'GET') return undefined
  const url = new URL(raw.url, 'http://emulator.invalid')
  if (url.pathname.replace(/\/$/, '') !== `${CONTROL_PREFIX}/deliveries`) return undefined
  const wait = Number(url.searchParams.get('wait') ?? '0')
  const after = Number(url.searchParams.get('after') ?? '0')
  if (!Number.isInteger(wait) || wait <= 0 || wait > MAX_WAIT_SECONDS || !Number.isInteger(after) || after < 0) return undefined
  let ns: Namespace
  try {
    ns = namespaces.resolve(raw.headers[NAMESPACE_HEADER])
  } catch {
    return undefined
  }
  const matching = () => ns.deliveries.log.after(after).length > 0
  if (matching()) return undefined
  return ns.deliveries.waitForAttempt(after, wait * 1000)
}
