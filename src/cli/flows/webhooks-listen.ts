// `payfac webhooks listen`: a local receiver of webhook deliveries, for trying an integration.
//
// It listens on 127.0.0.1 (port 0 = a free one). Against a local or sandbox profile it creates a
// subscription to `http://127.0.0.1:<port>/` (merchant- or marketplace-level, as the credential
// decides) and uses that subscription's secret to check each delivery's `Webhook-Signature`; it
// suspends that subscription when it stops (Ctrl-C or SIGTERM). With `--subscription` it uses one
// that exists and changes nothing. Each delivery is shown as one line (or one JSON object per
// line), and, with `--forward-to`, sent on with its headers and raw body to a handler of your
// own, whose status becomes the answer to the sender (so the sender's retries reach it). A
// delivery whose signature is wrong is flagged, answered 401 and never forwarded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import type { PayfacClient } from '../../client/client.js'
import type { WebhookSubscription } from '../../client/schemas/webhooks.js'
import { WEBHOOK_SIGNATURE_HEADER, describeWebhookSignatureFailure, verifyWebhookSignature } from '../../client/webhook-signature.js'
import type { Environment } from '../../config/profiles.js'
import { UsageError } from '../errors.js'
import { webhookEnvelope, webhookLevel } from '../requests/webhooks.js'
import { KNOWN_EVENTS } from '../known-names.js'
import { watchInterrupts } from './interrupt.js'
import { sanitizeLine } from '../../output/sanitize.js'

/** Every event the emulator sends (docs/emulator.md, "For integrators" → Events). */
export const EMULATOR_EVENTS = KNOWN_EVENTS

/** Largest delivery body read; a bigger one is answered 413. */
const MAX_BODY_BYTES = 16 * 1024 * 1024
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
  json: boolean
}

export interface ListenContext {
  client: PayfacClient
  settings: { environment: Environment; credentialKind: string; context: { merchantId?: string | undefined } }
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
  payload: unknown
  /** The forward's status; null when not forwarded; `error: …` when it failed. */
  forwardStatus: number | string | null
}

export interface ListenSummary {
  port: number
  received: number
  subscriptionId: string | undefined
}

/** Runs until stopped; resolves after the subscription it created is suspended and the port is closed. */
export async function listenForWebhooks(options: ListenOptions, context: ListenContext): Promise<ListenSummary> {
  const interrupts = context.signal ? undefined : watchInterrupts()
  const signal = (context.signal ?? interrupts?.signal) as AbortSignal
  const log = (line: string) => context.stderr.write(`${sanitizeLine(line)}\n`)
  const state = { secret: options.secret, received: 0 }
  const server = createServer((req, res) => void receive(req, res, options, state, context))
  try {
    const port = await listen(server, options.port, options.host ?? '127.0.0.1')
    const url = `http://127.0.0.1:${port}/`
    let created: WebhookSubscription | undefined
    try {
      created = await setUpSubscription(url, options, context, state, log)
    } catch (error) {
      await close(server)
      throw error
    }
    const verifying = state.secret ? 'signatures checked' : 'signatures not checked (no --secret)'
    log(`Listening on ${url} (${verifying}${options.forwardTo ? `; forwarding to ${options.forwardTo}` : ''}). Ctrl-C stops.`)
    await stopped(signal)
    await close(server)
    if (created) {
      await context.client.webhooks.setStatus(created.id, 'Suspended')
      log(`Subscription ${created.id} suspended.`)
    }
    log(`Stopped after ${state.received} ${state.received === 1 ? 'delivery' : 'deliveries'}.`)
    return { port, received: state.received, subscriptionId: created?.id ?? options.subscriptionId }
  } finally {
    interrupts?.dispose()
    if (server.listening) await close(server)
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
    if (existing.url && !existing.url.startsWith(url.replace(/\/$/, ''))) log(`Note: its url is not ${url}; deliveries reach here only if something forwards them.`)
    return undefined
  }
  if (settings.environment === 'production') {
    log('Production profile: no subscription is created. Point one at a public https address that forwards here, and give --secret to check signatures.')
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

async function receive(
  req: IncomingMessage,
  res: ServerResponse,
  options: ListenOptions,
  state: { secret: string | undefined; received: number },
  context: ListenContext,
): Promise<void> {
  const answer = (status: number, body: unknown) => {
    if (res.headersSent) return
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }
  try {
    if (req.method !== 'POST') return answer(405, { error: 'payfac webhooks listen takes POST deliveries' })
    const body = await readBody(req)
    if (body === undefined) return answer(413, { error: 'body too large' })
    const receivedAt = new Date().toISOString()
    const payload = parseJson(body)
    const type = isRecord(payload) && typeof payload.webhookEventType === 'string' ? payload.webhookEventType : '(not an event)'
    if (options.events?.length && !options.events.includes(type)) return answer(200, { ignored: true })
    state.received++
    const header = headerValue(req, WEBHOOK_SIGNATURE_HEADER)
    const check = state.secret === undefined ? undefined : verifyWebhookSignature(state.secret, header, body)
    const event: ReceivedEvent = {
      type,
      receivedAt,
      signatureValid: check ? check.ok : null,
      signatureError: check && !check.ok ? describeWebhookSignatureFailure(check.reason) : undefined,
      deliveryId: headerValue(req, 'Webhook-Delivery-Id') ?? null,
      payload: payload === undefined ? body.toString('utf8') : payload,
      forwardStatus: null,
    }
    if (check && !check.ok) answer(401, { error: `signature refused: ${event.signatureError}` })
    else if (options.forwardTo) {
      const forwarded = await forward(options.forwardTo, req, body)
      event.forwardStatus = forwarded.status ?? `error: ${forwarded.error}`
      answer(forwarded.status ?? 502, forwarded.status === undefined ? { error: `forward failed: ${forwarded.error}` } : { forwarded: forwarded.status })
    } else answer(200, { received: true })
    context.stdout.write(`${options.json ? JSON.stringify(event) : sanitizeLine(eventLine(event))}\n`)
  } catch (error) {
    answer(500, { error: error instanceof Error ? error.message : String(error) })
  }
}

/** `10:00:02  TransactionPaid  orderId=ordr_… transactionId=tran_…  signature ok  forward 200`. */
export function eventLine(event: ReceivedEvent): string {
  const time = event.receivedAt.slice(11, 19)
  const ids = keyIds(event.payload)
  const signature = event.signatureValid === null ? 'signature unchecked' : event.signatureValid ? 'signature ok' : `signature BAD (${event.signatureError})`
  const forward =
    event.forwardStatus === null ? (event.signatureValid === false ? 'not forwarded' : '') : `forward ${event.forwardStatus}`
  return [time, event.type, ids.join(' ') || '-', signature, forward].filter(Boolean).join('  ').replace(/[\u0000-\u001f\u007f]/g, '?')
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

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooBig = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) tooBig = true
      else chunks.push(chunk)
    })
    req.on('end', () => resolve(tooBig ? undefined : Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()]
  return Array.isArray(value) ? value.join(',') : value
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new UsageError(`--port ${port} is taken on ${host}`, 'Choose another port, or --port 0 for a free one'))
      else if (error.code === 'EACCES') reject(new UsageError(`--port ${port} needs privileges on ${host}`, 'Choose a port above 1023, or --port 0'))
      else reject(error)
    }
    server.once('error', failed)
    server.listen(port, host, () => {
      server.off('error', failed)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    server.close(() => resolve())
    server.closeIdleConnections()
    setTimeout(() => server.closeAllConnections(), 1000).unref()
  })
}

function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    signal.addEventListener('abort', () => resolve(), { once: true })
  })
}
