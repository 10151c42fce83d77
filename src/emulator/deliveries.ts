// Webhook deliveries: every event of the store's event log (events.ts) is POSTed to the url of
// each Active subscription whose `events` name it (`matchingSubscriptions`, resources/webhooks.ts).
//
// - Asynchronous. The request that caused an event only queues the deliveries; a background
//   sender (node:http/https, webhook-sender.ts) posts them, so no API call ever waits for a
//   receiver. Where it may post is judged on the resolved address (webhook-targets.ts).
// - Payload (field notes): {merchantId | marketplaceId, metadata, webhookSubscriptionId,
//   webhookEventType, requestId, event, timestamp}. Merchant-level subscriptions get
//   `merchantId`, marketplace-level ones `marketplaceId`; `metadata` is the subscription's.
// - Signed: `Webhook-Signature: t=<unix seconds>,v1=<hex>` (webhook-signature.ts).
// - Retries: an answer other than 2xx, or none within 10 s, is tried again on RETRY_SCHEDULE
//   (in emulator time, so AdvanceClock makes due retries happen at once), at most 6 attempts.
// - Every attempt is logged in a ring buffer of DELIVERY_LOG_CAPACITY entries.
import type { WebhookSubscriptionRecord } from './account-records.js'
import { timestamp as isoTimestamp, type Clock } from './clock.js'
import type { IdGenerator } from './ids.js'
import { matchingSubscriptions } from './resources/webhooks.js'
import { RingBuffer } from './ring-buffer.js'
import type { EventRecord, Store } from './store.js'
import { WEBHOOK_SIGNATURE_HEADER, webhookSignatureHeader } from '../client/webhook-signature.js'
import { httpSender, type Sender, type SendResult } from './webhook-sender.js'

export { RESPONSE_SNIPPET_BYTES, httpSender, isLoopbackHost } from './webhook-sender.js'
export type { Sender, SendResult } from './webhook-sender.js'

/** Seconds from one attempt being due to the next: before attempts 2, 3, 4, 5 and 6. */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = [10, 60, 300, 1800, 7200]
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1
/** A receiver that has not answered (status and body) within this long has failed the attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000
/** Attempts kept in the delivery log. */
export const DELIVERY_LOG_CAPACITY = 2000
/** Largest request body the log keeps whole (larger ones are cut, and cannot be replayed). */
export const LOGGED_BODY_MAX = 16 * 1024
/** Deliveries waiting for an attempt, at most; beyond that new ones are logged as failed at once. */
export const MAX_PENDING_DELIVERIES = 10_000
/** Attempts in flight at once, per namespace. */
export const MAX_IN_FLIGHT = 16

export const USER_AGENT = 'payfac-emulator-webhooks/1'

export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed'

/** One attempt, as `/__emulator/deliveries` lists it. */
export interface DeliveryAttempt {
  seq: number
  deliveryId: string
  attempt: number
  eventId: string
  webhookEventType: string
  webhookSubscriptionId: string
  url: string
  /** Emulator time at which the attempt was made. */
  attemptedAt: string
  requestHeaders: Record<string, string>
  requestBody: string
  bodyTruncated: boolean
  /** The receiver's status, or null when it did not answer. */
  status: number | null
  responseBody: string | null
  latencyMs: number
  error: string | null
  outcome: DeliveryOutcome
  /** When the next attempt is due (emulator time), while retrying. */
  nextAttemptAt: string | null
  /** The delivery this one replays, if it is a replay. */
  replayOf: string | null
}

interface Delivery {
  deliveryId: string
  eventId: string
  webhookEventType: string
  subscriptionId: string
  url: string
  secret: string
  body: string
  attemptsMade: number
  /** Emulator time (ms) at which the next attempt is due. */
  dueAt: number
  inFlight: boolean
  replayOf: string | null
}

export interface DeliveryEngineOptions {
  store: Store
  clock: Clock
  ids: IdGenerator
  capacity?: number
  send?: Sender
  /** Deliver to hosts other than loopback (`--allow-remote-webhooks`); default false. */
  allowRemote?: boolean
  /** With allowRemote, also to private, link-local, CGNAT and metadata addresses (`--allow-private-webhooks`). */
  allowPrivate?: boolean
  /** The emulator listens beyond this machine: its own loopback counts as inside (webhook-targets.ts). */
  exposed?: boolean
  timeoutMs?: number
  log?: (line: string) => void
}

/** The payload of one event for one subscription (field notes, "Webhook deliveries"). */
export function deliveryPayload(
  event: Pick<EventRecord, 'webhookEventType' | 'merchantId' | 'marketplaceId' | 'requestId' | 'event' | 'timestamp'>,
  s: WebhookSubscriptionRecord,
) {
  return {
    ...(s.level === 'Marketplace' ? { marketplaceId: s.marketplaceId } : { merchantId: s.merchantId }),
    metadata: s.metadata ?? {},
    webhookSubscriptionId: s.id,
    webhookEventType: event.webhookEventType,
    requestId: event.requestId,
    event: event.event,
    timestamp: event.timestamp,
  }
}

export class DeliveryEngine {
  readonly log: RingBuffer<DeliveryAttempt>
  private readonly store: Store
  private readonly clock: Clock
  private readonly ids: IdGenerator
  private readonly send: Sender
  private readonly timeoutMs: number
  private readonly warn: ((line: string) => void) | undefined
  private readonly pending = new Map<string, Delivery>()
  private inFlight = 0
  /** Bumped by clear(): answers of attempts started before it are not logged. */
  private generation = 0
  private waiters = new Set<() => void>()
  private scheduled = false
  private closed = false

  constructor(options: DeliveryEngineOptions) {
    this.store = options.store
    this.clock = options.clock
    this.ids = options.ids
    this.log = new RingBuffer<DeliveryAttempt>(options.capacity ?? DELIVERY_LOG_CAPACITY)
    this.send =
      options.send ?? httpSender({ allowRemote: options.allowRemote ?? false, allowPrivate: options.allowPrivate ?? false, exposed: options.exposed ?? false })
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS
    this.warn = options.log
  }

  /** Deliveries queued or in flight. */
  get pendingCount(): number {
    return this.pending.size
  }

  /** Queues one delivery per matching subscription; answers the delivery ids. */
  enqueue(event: EventRecord): Array<{ deliveryId: string; webhookSubscriptionId: string; url: string }> {
    const subscriptions = matchingSubscriptions(this.store, {
      merchantId: event.merchantId,
      marketplaceId: event.marketplaceId,
      eventType: event.webhookEventType,
    })
    return subscriptions.map((s) => {
      const delivery = this.add({
        eventId: event.eventId,
        webhookEventType: event.webhookEventType,
        subscriptionId: s.id,
        url: s.url,
        secret: s.secret,
        body: JSON.stringify(deliveryPayload(event, s)),
        replayOf: null,
      })
      return { deliveryId: delivery.deliveryId, webhookSubscriptionId: s.id, url: s.url }
    })
  }

  /**
   * Sends a logged delivery again, as a new delivery (new id, attempts from 1, signed afresh) to
   * the subscription's current url and secret. Otherwise why not: no longer in the log, logged
   * cut short, or its subscription is gone.
   */
  replay(deliveryId: string): { deliveryId: string; replayOf: string; url: string } | 'unknown' | 'truncated' | 'no_subscription' {
    const last = this.log.findLast((a) => a.deliveryId === deliveryId)
    if (!last) return 'unknown'
    if (last.bodyTruncated) return 'truncated'
    const s = this.store.webhookSubscriptions.get(last.webhookSubscriptionId)
    if (!s) return 'no_subscription'
    const delivery = this.add({
      eventId: last.eventId,
      webhookEventType: last.webhookEventType,
      subscriptionId: s.id,
      url: s.url,
      secret: s.secret,
      body: last.requestBody,
      replayOf: deliveryId,
    })
    return { deliveryId: delivery.deliveryId, replayOf: deliveryId, url: s.url }
  }

  private add(input: Omit<Delivery, 'deliveryId' | 'attemptsMade' | 'dueAt' | 'inFlight'>): Delivery {
    const delivery: Delivery = { ...input, deliveryId: this.ids.next('dlv'), attemptsMade: 0, dueAt: this.clock.now().getTime(), inFlight: false }
    if (this.pending.size >= MAX_PENDING_DELIVERIES) {
      this.record(delivery, { error: `not sent: more than ${MAX_PENDING_DELIVERIES} deliveries are waiting` }, {}, 0, 'failed', null)
      return delivery
    }
    this.pending.set(delivery.deliveryId, delivery)
    this.schedule()
    return delivery
  }

  /** Starts, soon (never inside the caller's stack), every attempt that is due. */
  schedule(): void {
    if (this.scheduled || this.closed) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      this.runDue()
    })
  }

  /** Starts every attempt due by emulator time now (up to MAX_IN_FLIGHT at once). */
  runDue(): void {
    if (this.closed) return
    const now = this.clock.now().getTime()
    for (const delivery of this.pending.values()) {
      if (this.inFlight >= MAX_IN_FLIGHT) return
      if (delivery.inFlight || delivery.dueAt > now) continue
      this.attempt(delivery)
    }
  }

  private attempt(delivery: Delivery): void {
    const generation = this.generation
    delivery.inFlight = true
    delivery.attemptsMade++
    this.inFlight++
    const sentAt = Math.floor(Date.now() / 1000)
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      [WEBHOOK_SIGNATURE_HEADER]: webhookSignatureHeader(delivery.secret, delivery.body, sentAt),
      'Webhook-Event-Id': delivery.eventId,
      'Webhook-Delivery-Id': delivery.deliveryId,
      'Webhook-Attempt': String(delivery.attemptsMade),
    }
    const started = performance.now()
    Promise.resolve()
      .then(() => this.send(delivery.url, headers, delivery.body, this.timeoutMs))
      .catch((error: unknown): SendResult => ({ error: error instanceof Error ? error.message : String(error) }))
      .then((result) => {
        this.inFlight--
        delivery.inFlight = false
        if (generation !== this.generation || this.closed) return
        const latencyMs = Math.round(performance.now() - started)
        const delivered = result.status !== undefined && result.status >= 200 && result.status < 300
        if (delivered || delivery.attemptsMade >= MAX_ATTEMPTS) {
          this.pending.delete(delivery.deliveryId)
          this.record(delivery, result, headers, latencyMs, delivered ? 'delivered' : 'failed', null)
        } else {
          delivery.dueAt += (RETRY_SCHEDULE_SECONDS[delivery.attemptsMade - 1] as number) * 1000
          this.record(delivery, result, headers, latencyMs, 'retrying', isoTimestamp(new Date(delivery.dueAt)))
        }
        this.schedule()
      })
  }

  private record(
    delivery: Delivery,
    result: SendResult,
    headers: Record<string, string>,
    latencyMs: number,
    outcome: DeliveryOutcome,
    nextAttemptAt: string | null,
  ): void {
    const truncated = delivery.body.length > LOGGED_BODY_MAX
    const error =
      result.error ?? (result.status !== undefined && (result.status < 200 || result.status >= 300) ? `the receiver answered ${result.status}` : null)
    this.log.push({
      deliveryId: delivery.deliveryId,
      attempt: delivery.attemptsMade,
      eventId: delivery.eventId,
      webhookEventType: delivery.webhookEventType,
      webhookSubscriptionId: delivery.subscriptionId,
      url: delivery.url,
      attemptedAt: isoTimestamp(this.clock.now()),
      requestHeaders: headers,
      requestBody: truncated ? delivery.body.slice(0, LOGGED_BODY_MAX) : delivery.body,
      bodyTruncated: truncated,
      status: result.status ?? null,
      responseBody: result.body ?? null,
      latencyMs,
      error,
      outcome,
      nextAttemptAt,
      replayOf: delivery.replayOf,
    })
    if (outcome === 'failed')
      this.warn?.(`emulator: webhook ${delivery.deliveryId} to ${delivery.url} failed after ${delivery.attemptsMade} attempt(s): ${error ?? 'no answer'}`)
    for (const wake of this.waiters) wake()
  }

  /** Resolves when an attempt after `seq` is logged, or after `ms`. */
  waitForAttempt(seq: number, ms: number): Promise<void> {
    if (this.log.latestSeq > seq || ms <= 0 || this.closed) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.waiters.add(done)
    })
  }

  /** Drops every queued delivery and the log (a reset); attempts in flight finish unrecorded. */
  clear(): void {
    this.generation++
    this.pending.clear()
    this.log.clear()
  }

  /** Stops sending: nothing more is started, long polls return. */
  close(): void {
    this.closed = true
    this.generation++
    this.pending.clear()
    ;(this.send as Partial<ReturnType<typeof httpSender>>).abortAll?.()
    for (const wake of this.waiters) wake()
  }
}
