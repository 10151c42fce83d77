// Namespaces: the `Emulator-Namespace: <name>` header gives each caller (a CI job, a test file)
// a whole emulator of its own: store, clock, fault rules, rate limit, request log, deliveries.
// A namespace is made from the seed and the fixtures the first time its name is used; requests
// without the header use `default`, whose store and clock are the app's own (and the only ones
// kept by `--state`). At most MAX_NAMESPACES exist at once: making one more drops the one used
// least recently (never `default`).
import { EmulatorError } from './api-error.js'
import { AgreementWatcher } from './agreement-watch.js'
import type { Clock } from './clock.js'
import { DeliveryEngine, type Sender } from './deliveries.js'
import { FaultRules, RateLimiter } from './faults.js'
import { applyFixtures, type Fixtures } from './fixtures.js'
import type { IdGenerator } from './ids.js'
import type { PipelineDeps } from './pipeline.js'
import { RequestLog } from './request-log.js'
import type { Router } from './router.js'
import { seedStore } from './seed.js'
import { emptyStore, type Store } from './store.js'

export const DEFAULT_NAMESPACE = 'default'
/** Header names in lower case, as the pipeline sees them. */
export const NAMESPACE_HEADER = 'emulator-namespace'
export const MAX_NAMESPACES = 100
/** Requests (and their answers) kept in each namespace's request log. */
export const REQUEST_LOG_CAPACITY = 1000
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export interface IntegratorOptions {
  /** Seed of the fault rules' PRNG (`--seed`); each namespace draws from its own sequence. Default "payfac". */
  faultSeed?: string | number
  /** `--rate-limit`: requests per second per namespace, beyond which the answer is 429. */
  rateLimit?: number
  /** `--strict-https`: refuse webhook urls that are not https, loopback included. */
  strictHttps?: boolean
  /** `--strict`: refuse request fields the schemas do not know (400) instead of accepting and reporting them. */
  strict?: boolean
  /**
   * Payment tokens expire this many seconds after they are made (409 `payment_token_expired`).
   * Off unless set: the contract gives tokens no lifetime. Also `settings.paymentTokenLifetimeSeconds`
   * of a fixture file.
   */
  paymentTokenLifetimeSeconds?: number
  /**
   * `--allow-remote-webhooks`: deliver to hosts other than this machine. Off by default, so an
   * emulator never reaches out to the network unless asked to.
   */
  allowRemoteWebhooks?: boolean
  /** `--allow-private-webhooks`: with remote delivery, also to private, link-local, CGNAT and metadata addresses. */
  allowPrivateWebhooks?: boolean
  /** Set by startEmulator when it listens beyond this machine: webhooks to its loopback need allowPrivateWebhooks. */
  exposed?: boolean
  /** `--fixtures`: records added to the seed of every namespace, and again on reset. */
  fixtures?: Fixtures
  requestLogCapacity?: number
  deliveryLogCapacity?: number
  /** How deliveries are sent (tests may replace node:http). */
  send?: Sender
  deliveryTimeoutMs?: number
}

function tokenLifetime(o: IntegratorOptions): { paymentTokenLifetimeSeconds?: number } {
  const seconds = o.paymentTokenLifetimeSeconds ?? o.fixtures?.settings?.paymentTokenLifetimeSeconds
  return seconds === undefined ? {} : { paymentTokenLifetimeSeconds: seconds }
}

export interface NamespaceBase {
  ids: IdGenerator
  router: Router
  /** Whether a fresh or reset namespace starts from the well-known seed. */
  seed: boolean
  log?: (line: string) => void
  options: IntegratorOptions
}

/** A clock of its own for a namespace: the root clock's base time plus the namespace's own advances. */
export function childClock(root: Clock): Clock {
  let offset = 0
  return {
    now: () => new Date(root.now().getTime() - root.offsetMs() + offset),
    advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`Cannot advance the clock by ${seconds} seconds`)
      offset += Math.round(seconds * 1000)
    },
    rewind(seconds) {
      offset -= Math.round(seconds * 1000)
    },
    offsetMs: () => offset,
  }
}

export class Namespace {
  readonly faults: FaultRules
  readonly rateLimiter: RateLimiter | undefined
  readonly requests: RequestLog
  readonly deliveries: DeliveryEngine
  readonly agreements: AgreementWatcher
  readonly deps: PipelineDeps
  lastUsed = Date.now()
  /** Events of `store.events` already handed to the delivery engine. */
  private drained: number

  constructor(
    readonly name: string,
    readonly store: Store,
    readonly clock: Clock,
    private readonly base: NamespaceBase,
    private readonly afterChange?: () => void,
  ) {
    const o = base.options
    this.faults = new FaultRules(`${String(o.faultSeed ?? 'payfac')}:${name}`)
    this.rateLimiter = o.rateLimit ? new RateLimiter(o.rateLimit) : undefined
    this.requests = new RequestLog(o.requestLogCapacity ?? REQUEST_LOG_CAPACITY)
    this.deliveries = new DeliveryEngine({
      store,
      clock,
      ids: base.ids,
      ...(o.deliveryLogCapacity ? { capacity: o.deliveryLogCapacity } : {}),
      ...(o.send ? { send: o.send } : {}),
      allowRemote: o.allowRemoteWebhooks ?? false,
      allowPrivate: o.allowPrivateWebhooks ?? false,
      exposed: o.exposed ?? false,
      ...(o.deliveryTimeoutMs ? { timeoutMs: o.deliveryTimeoutMs } : {}),
      ...(base.log ? { log: base.log } : {}),
    })
    this.agreements = new AgreementWatcher(store, clock, base.ids)
    this.drained = store.events.length
    this.deps = {
      store,
      clock,
      ids: base.ids,
      router: base.router,
      ...(afterChange ? { afterChange } : {}),
      ...(base.log ? { log: base.log } : {}),
      strict: o.strict === true,
      ...tokenLifetime(o),
    }
  }

  /**
   * What follows a request or a clock change: agreement status changes become events, new events
   * become deliveries, and due attempts are started (soon, never inside the caller's stack).
   */
  settle(requestId: string | null): void {
    this.agreements.evaluate(requestId)
    const events = this.store.events
    if (this.drained > events.length) this.drained = events.length
    for (; this.drained < events.length; this.drained++) this.deliveries.enqueue(events[this.drained] as (typeof events)[number])
    if (this.deliveries.pendingCount > 0) this.deliveries.schedule()
  }

  /** Back to the seed and the fixtures: the store (in place), fault rules, logs and queued deliveries. The clock keeps its time. */
  reset(): void {
    const fresh = buildStore(this.base, this.clock)
    for (const key of Object.keys(this.store)) delete (this.store as unknown as Record<string, unknown>)[key]
    Object.assign(this.store, fresh)
    this.faults.clear()
    this.requests.clear()
    this.deliveries.clear()
    this.agreements.baseline()
    this.drained = this.store.events.length
    this.persist()
  }

  /** Saves the state when the namespace has a state file (`default` with --state). */
  persist(): void {
    try {
      this.afterChange?.()
    } catch (error) {
      this.base.log?.(`emulator: warning: the state could not be saved: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  close(): void {
    this.deliveries.close()
  }
}

/** A store made from the seed (unless turned off) and the fixtures. */
export function buildStore(base: Pick<NamespaceBase, 'ids' | 'seed' | 'options'>, clock: Clock): Store {
  const store = emptyStore()
  if (base.seed) seedStore(store)
  if (base.options.fixtures) applyFixtures(store, base.options.fixtures, clock, base.ids)
  return store
}

export class Namespaces {
  private readonly map = new Map<string, Namespace>()

  constructor(
    readonly root: Namespace,
    private readonly base: NamespaceBase,
  ) {
    this.map.set(DEFAULT_NAMESPACE, root)
  }

  /** The namespace a request names (made on first use); a 400 `invalid_namespace` for a bad name. */
  resolve(header: string | undefined): Namespace {
    const name = header?.trim() || DEFAULT_NAMESPACE
    let ns = this.map.get(name)
    if (!ns) {
      if (!NAME.test(name)) {
        throw new EmulatorError(
          400,
          'invalid_namespace',
          `Emulator-Namespace "${name}" is not a name: 1 to 64 letters, digits, ".", "-" or "_", starting with a letter or digit`,
        )
      }
      if (this.map.size >= MAX_NAMESPACES) this.evictOldest()
      const clock = childClock(this.root.clock)
      ns = new Namespace(name, buildStore(this.base, clock), clock, this.base)
      this.map.set(name, ns)
    }
    ns.lastUsed = Date.now()
    return ns
  }

  /** Namespaces in use, `default` first. */
  list(): Namespace[] {
    return [...this.map.values()]
  }

  /** A background tick: agreement changes and due deliveries in every namespace. */
  tick(): void {
    for (const ns of this.map.values()) ns.settle(null)
  }

  close(): void {
    for (const ns of this.map.values()) ns.close()
  }

  private evictOldest(): void {
    let oldest: Namespace | undefined
    for (const ns of this.map.values()) if (ns !== this.root && (!oldest || ns.lastUsed < oldest.lastUsed)) oldest = ns
    if (!oldest) return
    oldest.close()
    this.map.delete(oldest.name)
  }
}
