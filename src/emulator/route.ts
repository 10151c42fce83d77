// What a resource group is made of: routes. A route names one contract operation (method + path
// template), which credentials may call it, how its body is read, and the handler. Handlers are
// synchronous functions of (context, request): they read and change `ctx.store` and return the
// answer, or throw an EmulatorError (see api-error.ts). Because no handler ever awaits, a handler
// runs to completion before the next request is looked at: check-and-mark (a payment token's
// single use, a refund against what remains) is atomic without locks.
//
// The two shapes of route:
//   route({ method, path, handle })                     no body, or a plain JSON body (`body`)
//   route({ method, path, actions: { Name: action(…) } }) single-key action envelope
import type { z } from 'zod'
import type { Principal, PrincipalKind, Scope } from './principal.js'
import type { Clock } from './clock.js'
import type { IdGenerator } from './ids.js'
import type { Store } from './store.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export type { Scope } from './principal.js'

export interface HandlerContext {
  store: Store
  clock: Clock
  ids: IdGenerator
  principal: Principal
  scope: Scope
  requestId: string
  /** Base URL of this emulator as the caller reached it (for links it hands out). */
  baseUrl: string
  /** The emulator's options that change what handlers do (absent: the defaults). */
  rules?: EmulatorRules
}

/** Options of the emulator that handlers read (docs/emulator.md, "Where the emulator chooses"). */
export interface EmulatorRules {
  /** `--strict`. */
  strict: boolean
  /** A payment token's lifetime in seconds; null (the default): tokens do not expire. */
  paymentTokenLifetimeSeconds: number | null
}

export interface HandlerRequest<B = unknown> {
  method: Method
  path: string
  /** Decoded path parameters by template name: `/orders/{orderId}` → `params.orderId`. */
  params: Record<string, string>
  query: URLSearchParams
  /** The validated body (plain-body routes) or the action's validated value (action routes). */
  body: B
  /** The action's name on action routes, otherwise null. */
  action: string | null
  /** Request headers, names in lower case. */
  headers: Record<string, string | undefined>
  /** The media type chosen from `produces` and the `Accept` header. */
  accept: string
  /** The body bytes as received, for routes that read a body other than JSON (a multipart upload). */
  rawBody?: Buffer
}

/**
 * A body made piece by piece while it is sent (a report of millions of entries): the server
 * writes the pieces as the socket takes them, so the whole text never exists at once.
 * `toString()` joins them (for in-process callers such as tests).
 */
export class StreamBody {
  constructor(readonly pieces: () => Iterable<string>) {}

  toString(): string {
    let text = ''
    for (const piece of this.pieces()) text += piece
    return text
  }
}

/** An answer with a status, headers or a content type of its own. Anything else a handler returns is a 200 JSON body. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** When set, `body` is sent as is (string, Buffer or StreamBody) with this content type instead of JSON. */
    readonly contentType?: string,
  ) {}
}

export type Handler<B = unknown> = (ctx: HandlerContext, req: HandlerRequest<B>) => unknown

export interface ActionSpec {
  /** The emulator's own schema for the action's value, applied after the shared one (if any). */
  schema: z.ZodType | undefined
  // biome-ignore lint/suspicious/noExplicitAny: each action's body type is its own schema's (action() checks it); the table holds them all
  handle: (ctx: HandlerContext, body: any, req: HandlerRequest) => unknown
}

/** One action of an envelope route. With a schema, the body type follows from it. */
export function action<S extends z.ZodType>(schema: S, handle: (ctx: HandlerContext, body: z.output<S>, req: HandlerRequest) => unknown): ActionSpec
/** One action validated by the shared schema alone; name the body type explicitly. */
export function action<B>(handle: (ctx: HandlerContext, body: B, req: HandlerRequest) => unknown): ActionSpec
export function action(a: unknown, b?: unknown): ActionSpec {
  if (typeof a === 'function') return { schema: undefined, handle: a as ActionSpec['handle'] }
  return { schema: a as z.ZodType, handle: b as ActionSpec['handle'] }
}

export interface Route {
  method: Method
  path: string
  /** Credential kinds that may call it at all (entity checks come on top, in the handler). */
  allow: readonly PrincipalKind[]
  /** Media types it can answer with, best first. */
  produces: readonly string[]
  /**
   * Media types an `Accept` header may name and still get `produces[0]` (a download answers its
   * file to the contract's `Accept: application/json`, which every client sends).
   */
  alsoAccepts: readonly string[]
  /** Plain-body routes: the emulator's own schema (applied after the shared one, if any). */
  body: z.ZodType | undefined
  /** Whether a plain body must be present. */
  bodyRequired: boolean
  /** Action routes: the action table. */
  actions: Record<string, ActionSpec> | undefined
  // biome-ignore lint/suspicious/noExplicitAny: each route's body type is its own schema's (route() checks it); the router holds them all
  handle: Handler<any>
}

/** `"POST /orders/{orderId}/pay"`: the key of the route in the shared schema tables. */
export function routeKey(route: Pick<Route, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`
}

export interface RouteInit<B> {
  method: Method
  path: string
  allow?: readonly PrincipalKind[]
  produces?: readonly string[]
  alsoAccepts?: readonly string[]
  body?: z.ZodType<B>
  /** Default: true when `body` is given. */
  bodyRequired?: boolean
  handle?: Handler<B>
  actions?: Record<string, ActionSpec>
}

/** Credential kinds allowed when a route says nothing: the private (server-side) credentials. */
export const DEFAULT_ALLOW: readonly PrincipalKind[] = ['marketplace', 'merchant']

export function route<B = undefined>(init: RouteInit<B>): Route {
  if (!init.handle === !init.actions) throw new Error(`${init.method} ${init.path}: give either handle or actions`)
  const actions = init.actions
  // biome-ignore lint/suspicious/noExplicitAny: see Route.handle
  const handle: Handler<any> =
    init.handle ??
    ((ctx, req) => {
      const spec = actions?.[req.action ?? '']
      if (!spec) throw new Error(`${init.method} ${init.path}: no handler for action ${String(req.action)}`)
      return spec.handle(ctx, req.body, req)
    })
  return {
    method: init.method,
    path: init.path,
    allow: init.allow ?? DEFAULT_ALLOW,
    produces: init.produces ?? ['application/json'],
    alsoAccepts: init.alsoAccepts ?? [],
    body: init.body,
    bodyRequired: init.bodyRequired ?? init.body !== undefined,
    actions,
    handle,
  }
}
