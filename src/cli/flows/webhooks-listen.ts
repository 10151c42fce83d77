// `payfac webhooks listen`: a local receiver of webhook deliveries, for trying an integration.
//
// It listens on 127.0.0.1 (port 0 = a free one). Against a local or sandbox profile it creates a
// subscription to `http://127.0.0.1:<port>/` (merchant- or marketplace-level, as the credential
// decides) and uses that subscription's secret to check each delivery's `Webhook-Signature`; it
// suspends that subscription when it stops (Ctrl-C or SIGTERM). With `--subscription` it uses one
// that exists and changes nothing. Each delivery is shown as one line (or one JSON object per
// line), and, with `--forward-to`, sent on with its headers and raw body to a handler of your
// own, whose status becomes the answer to the sender (so the sender's retries reach it). A
// delivery whose signature is wrong is flagged, answered 401 and never forwarded; a correctly
// signed one that is not a JSON object (the contract's events are) is answered 400, not forwarded.
//
// It fails closed: without the subscription's secret it does not start (listen-secret.ts), except
// with a loud --skip-verify, never against production. A delivery id acknowledged once is not
// forwarded again while its signature could still be accepted (webhook-dedupe.ts).
import { isUtf8 } from 'node:buffer'
import type { IncomingMessage, ServerResponse } from 'node:http'

import type { PayfacClient } from '../../client/client.js'
import { jsonBytesDepthOver } from '../../client/json-depth.js'
import type { WebhookSubscription } from '../../client/schemas/webhooks.js'
import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  describeWebhookSignatureFailure,
  signWebhookPayload,
  verifyWebhookSignature,
} from '../../client/webhook-signature.js'
import type { Environment } from '../../config/profiles.js'
import { webhookEnvelope, webhookLevel } from '../requests/webhooks.js'
import { KNOWN_EVENTS } from '../validate/known-names.js'
import { watchInterrupts } from '../runtime/interrupt.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { checkSecretChoice, missingSecret, secretFromEmulator, skipVerifyWarning } from './listen-secret.js'
import { DeliveryDedupe, beginAll } from './webhook-dedupe.js'
import { answerJson, closeServer, listenOn, readBody, receiverServer } from './webhook-receiver.js'

/** Every event the emulator sends (docs/emulator.md, "For integrators" → Events). */
export const EMULATOR_EVENTS = KNOWN_EVENTS

/** The header that names one delivery (the same on every retry of it). */
export const DELIVERY_ID_HEADER = 'Webhook-Delivery-Id'
/** How long a forward may take before it counts as failed (the emulator's own delivery timeout). */
const FORWARD_TIMEOUT_MS = 10_000
/** Headers that belong to one connection and are not forwarded. */
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade', 'te', 'trailer'])

export interface ListenOptions {
  port: number
  host?: string | undefined
  /** Only these event types are shown and forwarded (and, when a subscription is created, subscribed to). */
  events?: string[] | undefined
  forwardTo?: string | undefined
  secret?: string | undefined
  subscriptionId?: string | undefined
  /** Forward without checking signatures (loud; refused against production and beside a secret). */
  skipVerify?: boolean | undefined
  json: boolean
}

export interface ListenContext {
  client: PayfacClient
  settings: { environment: Environment; baseUrl: string; credentialKind: string; context: { merchantId?: string | undefined } }
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
  /** Stops the listener; without one, Ctrl-C and SIGTERM are watched. */
  signal?: AbortSignal | undefined
}

/** One delivery as received: what `--json` prints, one object a line. */
export interface ReceivedEvent {
  type: string
  receivedAt: string
  /** null when there is no secret to check it with. */
  signatureValid: boolean | null
  signatureError?: string | undefined
  deliveryId: string | null
  /** True when this delivery id was acknowledged before: answered 200, not forwarded again. */
  duplicate?: boolean | undefined
  payload: unknown
  /** The forward's status; null when not forwarded; `error: …` when it failed. */
  forwardStatus: number | string | null
  /** Why a correctly signed delivery was refused (answered 400, not forwarded): `not a JSON object`. */
  refused?: string | undefined
}

interface ListenState {
  secret: string | undefined
  received: number
  dedupe: DeliveryDedupe
}

export interface ListenSummary {
  port: number
  received: number
  subscriptionId: string | undefined
}

/** Runs until stopped; resolves after the subscription it created is suspended and the port is closed. */
export async function listenForWebhooks(options: ListenOptions, context: ListenContext): Promise<ListenSummary> {
  // Refused before anything is sent or opened: a secret and --skip-verify together, --skip-verify
  // on production, production without a secret (nothing there could give one).
  checkSecretChoice(options, context.settings.environment)
  const interrupts = context.signal ? undefined : watchInterrupts()
  const signal = (context.signal ?? interrupts?.signal) as AbortSignal
  const log = (line: string) => context.stderr.write(`${sanitizeLine(line)}\n`)
  const state: ListenState = { secret: options.secret, received: 0, dedupe: new DeliveryDedupe() }
  const server = receiverServer((req, res) => void receive(req, res, options, state, context))
  try {
    const port = await listenOn(server, options.port, options.host ?? '127.0.0.1')
    const url = `http://127.0.0.1:${port}/`
    let created: WebhookSubscription | undefined
    try {
      created = await setUpSubscription(url, options, context, state, log)
      // --skip-verify means what it says, even when the subscription's answer held its secret.
      if (options.skipVerify) state.secret = undefined
      else if (state.secret === undefined) {
        const id = created?.id ?? options.subscriptionId
        state.secret = id === undefined ? undefined : await secretFromEmulator(context.client, context.settings, id)
        if (state.secret !== undefined) log(`Secret of subscription ${id} read from the local emulator's control plane.`)
      }
      if (state.secret === undefined && !options.skipVerify) throw missingSecret(context.settings.environment)
    } catch (error) {
      await closeServer(server)
      if (created) await context.client.webhooks.setStatus(created.id, 'Suspended').catch(() => undefined)
      throw error
    }
    if (options.skipVerify) log(skipVerifyWarning(url, options.forwardTo))
    const verifying = state.secret ? 'signatures checked' : 'signatures NOT checked (--skip-verify)'
    log(`Listening on ${url} (${verifying}${options.forwardTo ? `; forwarding to ${options.forwardTo}` : ''}). Ctrl-C stops.`)
    await stopped(signal)
    await closeServer(server)
    if (created) {
      await context.client.webhooks.setStatus(created.id, 'Suspended')
      log(`Subscription ${created.id} suspended.`)
    }
    log(`Stopped after ${state.received} ${state.received === 1 ? 'delivery' : 'deliveries'}.`)
    return { port, received: state.received, subscriptionId: created?.id ?? options.subscriptionId }
  } finally {
    interrupts?.dispose()
    if (server.listening) await closeServer(server)
  }
}

async function setUpSubscription(
  url: string,
  options: ListenOptions,
  context: ListenContext,
  state: { secret: string | undefined },
  log: (line: string) => void,
): Promise<WebhookSubscription | undefined> {
  const { client, settings } = context
  if (options.subscriptionId) {
    const existing = await client.webhooks.get(options.subscriptionId)
    state.secret ??= existing.secret ?? undefined
    log(`Using subscription ${existing.id} (${existing.status ?? 'status unknown'}, url ${existing.url ?? '-'}); it is left as it is when this stops.`)
    if (existing.url && !existing.url.startsWith(url.replace(/\/$/, '')))
      log(`Note: its url is not ${url}; deliveries reach here only if something forwards them.`)
    return undefined
  }
  if (settings.environment === 'production') {
    log('Production profile: no subscription is created. Point one at a public https address that forwards here; --secret checks its signatures.')
    return undefined
  }
  const level = webhookLevel(settings.credentialKind, settings.context.merchantId)
  const events = options.events?.length ? options.events : [...EMULATOR_EVENTS]
  const envelope = webhookEnvelope(level, { url, events, description: 'payfac webhooks listen' })
  const created = await client.webhooks.create(envelope)
  state.secret ??= created.secret ?? undefined
  log(`Subscription ${created.id} created (${level}-level, ${events.length} event${events.length === 1 ? '' : 's'}); it is suspended when this stops.`)
  return created
}

async function receive(req: IncomingMessage, res: ServerResponse, options: ListenOptions, state: ListenState, context: ListenContext): Promise<void> {
  const answer = (status: number, body: unknown) => answerJson(res, status, body)
  // What a sender wrote (an event type, a delivery id) is shown with its control characters made visible.
  const warn = (line: string) => context.stderr.write(`${sanitizeLine(line)}\n`)
  let begun: string[] | undefined
  try {
    if (req.method !== 'POST') return answer(405, { error: 'payfac webhooks listen takes POST deliveries' })
    // A web page open in the developer's browser can POST here too (a "simple" request needs no
    // preflight); a webhook sender is not a browser and sends no Origin or Sec-Fetch-Site. Refused
    // before anything is read, so a page cannot feed the handler, even with --skip-verify.
    const site = headerValue(req, 'sec-fetch-site')
    if (headerValue(req, 'origin') !== undefined || (site !== undefined && site !== 'none')) {
      return answerJson(res, 403, { error: 'a request from a web browser is not a webhook delivery' }, true)
    }
    // Fail closed: until the secret is known (it may still be being fetched), nothing is accepted; the sender retries.
    if (state.secret === undefined && !options.skipVerify) return answerJson(res, 503, { error: 'not ready: no secret to check signatures with yet' }, true)
    const body = await readBody(req, res)
    if (body === undefined) return
    const receivedAt = new Date().toISOString()
    const payload = parseJson(body)
    // A delivery is a JSON object (the contract's events are); anything else is refused once its signature is checked.
    const notJson = !isRecord(payload)
    const type = notJson ? '(not JSON)' : typeof payload.webhookEventType === 'string' ? payload.webhookEventType : '(not an event)'
    if (options.events?.length && !notJson && !options.events.includes(type)) return answer(200, { ignored: true })
    state.received++
    const header = headerValue(req, WEBHOOK_SIGNATURE_HEADER)
    const check = state.secret === undefined ? undefined : verifyWebhookSignature(state.secret, header, body)
    const deliveryId = headerValue(req, DELIVERY_ID_HEADER) ?? null
    const event: ReceivedEvent = {
      type,
      receivedAt,
      signatureValid: check ? check.ok : null,
      signatureError: check && !check.ok ? describeWebhookSignatureFailure(check.reason) : undefined,
      deliveryId,
      payload: payload === undefined ? body.toString('utf8') : payload,
      forwardStatus: null,
    }
    const print = () => context.stdout.write(`${options.json ? JSON.stringify(event) : eventLine(event)}\n`)
    if (check && !check.ok) {
      answer(401, { error: `signature refused: ${event.signatureError}` })
      return void print()
    }
    if (notJson) {
      warn(`Delivery ${deliveryId ?? '(no Webhook-Delivery-Id)'} is not a JSON object: answered 400, not forwarded.`)
      answer(400, { error: 'a webhook delivery is a JSON object; this body is not one', deliveryId })
      event.refused = 'not a JSON object'
      return void print()
    }
    // Kept while the signature could still be accepted: its timestamp plus the tolerance.
    const until = ((check?.ok ? check.timestamp : Date.now() / 1000) + DEFAULT_WEBHOOK_TOLERANCE_SECONDS) * 1000
    // By its id, and by what its signature covers (the id is not signed: a replay may carry another, or none).
    const keys = [
      ...(deliveryId === null ? [] : [`id:${deliveryId}`]),
      ...(check?.ok && state.secret !== undefined ? [`signed:${check.timestamp}:${signWebhookPayload(state.secret, check.timestamp, body)}`] : []),
    ]
    const verdict = beginAll(state.dedupe, keys, until)
    if (verdict === 'new' && keys.length > 0) begun = keys
    if (verdict === 'duplicate') {
      warn(`Delivery ${deliveryId ?? '(no Webhook-Delivery-Id)'} was acknowledged before: answered 200 again, not forwarded.`)
      answer(200, { duplicate: true, deliveryId })
      event.duplicate = true
      return void print()
    }
    if (verdict === 'in-flight') {
      warn(`Delivery ${deliveryId ?? '(no Webhook-Delivery-Id)'} arrived again while the first copy is being handled: answered 409.`)
      return answer(409, { error: `delivery ${deliveryId} is being handled`, deliveryId })
    }
    let status = 200
    if (options.forwardTo) {
      if (options.skipVerify)
        warn(`WARNING: forwarding an UNVERIFIED delivery${deliveryId ? ` ${deliveryId}` : ''} (${type}) to ${options.forwardTo} (--skip-verify).`)
      const forwarded = await forward(options.forwardTo, req, body)
      event.forwardStatus = forwarded.status ?? `error: ${forwarded.error}`
      status = forwarded.status ?? 502
      answer(status, forwarded.status === undefined ? { error: `forward failed: ${forwarded.error}` } : { forwarded: forwarded.status })
    } else {
      if (options.skipVerify) warn(`WARNING: accepted an UNVERIFIED delivery${deliveryId ? ` ${deliveryId}` : ''} (${type}) (--skip-verify).`)
      answer(200, { received: true })
    }
    if (begun !== undefined) for (const key of begun) state.dedupe.settle(key, status >= 200 && status < 300)
    begun = undefined
    print()
  } catch (error) {
    if (begun !== undefined) for (const key of begun) state.dedupe.settle(key, false)
    answer(500, { error: error instanceof Error ? error.message : String(error) })
  }
}

/** `10:00:02  TransactionPaid  orderId=ordr_… transactionId=tran_…  signature ok  forward 200`. */
export function eventLine(event: ReceivedEvent): string {
  const time = event.receivedAt.slice(11, 19)
  const ids = keyIds(event.payload)
  const signature = event.signatureValid === null ? 'signature unchecked' : event.signatureValid ? 'signature ok' : `signature BAD (${event.signatureError})`
  const forward = event.refused
    ? `refused (${event.refused}), not forwarded`
    : event.duplicate
      ? 'duplicate, not forwarded'
      : event.forwardStatus === null
        ? event.signatureValid === false
          ? 'not forwarded'
          : ''
        : `forward ${event.forwardStatus}`
  return sanitizeLine([time, event.type, ids.join(' ') || '-', signature, forward].filter(Boolean).join('  '))
}

/** The ids that say what an event is about: `orderId=…`, `transactionId=…`, `token=…` (at most five). */
export function keyIds(payload: unknown): string[] {
  const event = isRecord(payload) && isRecord(payload.event) ? payload.event : undefined
  if (!event) return []
  return Object.entries(event)
    .filter(([key, value]) => typeof value === 'string' && (/Id$/.test(key) || key === 'token'))
    .slice(0, 5)
    .map(([key, value]) => `${key}=${value as string}`)
}

async function forward(target: string, req: IncomingMessage, body: Buffer): Promise<{ status?: number; error?: string }> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue
    headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  try {
    const response = await fetch(target, { method: 'POST', headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS), redirect: 'manual' })
    await response.arrayBuffer().catch(() => undefined)
    return { status: response.status }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause
    return { error: cause?.code ?? (error instanceof Error ? error.message : String(error)) }
  }
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()]
  return Array.isArray(value) ? value.join(',') : value
}

/**
 * The body's JSON; undefined when it is not JSON, nests deeper than payfac reads (MAX_JSON_DEPTH)
 * or is not UTF-8 (JSON text is: decoded, such bytes became U+FFFD and the event was forwarded).
 */
function parseJson(body: Buffer): unknown {
  if (jsonBytesDepthOver([body]) || !isUtf8(body)) return undefined
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    signal.addEventListener('abort', () => resolve(), { once: true })
  })
}
