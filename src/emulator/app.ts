// The emulator without a socket: state, clock, ids, routes and the request pipeline. Tests call
// `app.request(...)` directly; the HTTP server (server.ts) hands every request to `app.handle`.
import { WELL_KNOWN } from '../well-known.js'
import { realClock, type Clock } from './clock.js'
import { randomIds, type IdGenerator } from './ids.js'
import { loadState, saveState, StateFileError } from './persistence.js'
import { createFront, type FrontResponse } from './front.js'
import { buildStore, type IntegratorOptions, type Namespaces } from './namespaces.js'
import type { RawRequest } from './pipeline.js'
import { ALL_ROUTES } from './resources/index.js'
import { Router } from './router.js'
import type { Store } from './store.js'

export interface EmulatorAppOptions {
  /** Default: wall time (plus the offset saved in the state file, if any). */
  clock?: Clock
  /** Default: random ids. Tests pass `seededIds()` for repeatable ids. */
  ids?: IdGenerator
  /** Default true: start from the well-known seed (ignored when a state file is loaded). */
  seed?: boolean
  /** Keep the state in this JSON file: loaded at start when present, saved after every change. */
  statePath?: string
  /** One line per request, and warnings. */
  log?: (line: string) => void
  /** Fixtures, fault seed, rate limit, strict https, log sizes (namespaces.ts). */
  integrators?: IntegratorOptions
}

export interface AppResponse {
  status: number
  headers: Record<string, string>
  /** The parsed JSON body (or the text, when the answer is not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: the control plane and the tests read the answers they just asked for
  body: any
}

export interface EmulatorApp {
  readonly store: Store
  readonly clock: Clock
  readonly ids: IdGenerator
  readonly router: Router
  /**
   * One request through the whole pipeline, in the namespace it names (front.ts). Synchronous;
   * `transport` says when the server must hold the answer back or drop the connection.
   */
  handle(raw: RawRequest): FrontResponse
  /** The same, also waiting for a long poll and an injected latency (the HTTP server uses this). */
  handleAsync(raw: RawRequest): Promise<FrontResponse>
  /** Every namespace; `namespaces.root` is the default one (this app's store and clock). */
  readonly namespaces: Namespaces
  /** Starts the background tick (agreement changes, due webhook retries); the server does, while it listens. */
  startTicking(): void
  /** Stops the tick and every webhook delivery. */
  close(): void
  /** Convenience for tests: a request with a JSON body and a bearer credential. */
  request(method: string, path: string, options?: { credential?: string | null; body?: unknown; headers?: Record<string, string> }): AppResponse
}

export function createEmulatorApp(options: EmulatorAppOptions = {}): EmulatorApp {
  const ids = options.ids ?? randomIds()
  let store: Store
  let clock: Clock
  const loaded = options.statePath ? loadState(options.statePath) : undefined
  if (loaded) {
    store = loaded.store
    clock = options.clock ?? realClock(loaded.clockOffsetMs)
  } else {
    clock = options.clock ?? realClock()
    store = buildStore({ ids, seed: options.seed !== false, options: options.integrators ?? {} }, clock)
  }
  const statePath = options.statePath
  const save = statePath ? () => saveState(statePath, store, clock.offsetMs(), clock.now()) : undefined
  if (save && !loaded) {
    try {
      save()
    } catch (error) {
      throw new StateFileError(`Cannot write the state file ${String(statePath)}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  const router = new Router(ALL_ROUTES)
  const front = createFront(
    { store, clock, ids, router, seed: options.seed !== false, ...(save ? { afterChange: save } : {}), ...(options.log ? { log: options.log } : {}) },
    options.integrators,
  )

  return {
    store,
    clock,
    ids,
    router,
    handle: front.handle,
    handleAsync: front.handleAsync,
    namespaces: front.namespaces,
    startTicking: front.startTicking,
    close: front.close,
    request(method, path, opts = {}) {
      const credential = opts.credential === undefined ? WELL_KNOWN.credentials.merchantSecretKey : opts.credential
      const headers: Record<string, string> = { accept: 'application/json' }
      if (credential !== null) headers.authorization = `Bearer ${credential}`
      if (opts.body !== undefined) headers['content-type'] = 'application/json'
      for (const [name, value] of Object.entries(opts.headers ?? {})) headers[name.toLowerCase()] = value
      const raw = front.handle({
        method,
        url: path,
        headers,
        body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
      })
      const text = typeof raw.body === 'string' ? raw.body : raw.body.toString()
      let body: unknown = text
      if ((raw.headers['Content-Type'] ?? '').startsWith('application/json')) body = JSON.parse(text)
      return { status: raw.status, headers: raw.headers, body }
    },
  }
}
