// What the inspector reads (`/__emulator/ui/api/…`, GET only, JSON): the request log and the
// delivery log a page at a time (never the whole log: a page costs its size, not the log's), one
// entry whole on demand (secrets masked), the store by collection a page at a time, one record
// with the records it names, and an overview for the header. Everything a namespace at a time.
import { timestamp } from '../clock.js'
import type { DeliveryAttempt } from '../deliveries.js'
import type { Namespace, Namespaces } from '../namespaces.js'
import { redactText, type RequestLogEntry } from '../request-log.js'
import { collectionsOf, type Store } from '../store.js'

/** Rows of one page of a log or a collection, at most. */
export const PAGE_ROWS = 50
const MAX_PAGE_ROWS = 200

function count(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const text = query.get(name)
  if (text === null || !/^\d{1,15}$/.test(text)) return fallback
  return Math.min(Number(text), max)
}

function cursor(query: URLSearchParams): number | undefined {
  const text = query.get('before')
  return text !== null && /^\d{1,15}$/.test(text) ? Number(text) : undefined
}

export function overview(namespaces: Namespaces, ns: Namespace) {
  return {
    namespace: ns.name,
    now: timestamp(ns.clock.now()),
    clockOffsetMs: ns.clock.offsetMs(),
    requests: { held: ns.requests.length, latestSeq: ns.requests.latestSeq, capacity: ns.requests.capacity },
    deliveries: { held: ns.deliveries.log.length, latestSeq: ns.deliveries.log.latestSeq, pending: ns.deliveries.pendingCount },
    events: ns.store.events.length,
    faults: ns.faults.list(),
    namespaces: namespaces
      .list()
      .map((n) => ({ name: n.name, now: timestamp(n.clock.now()), requests: n.requests.latestSeq, deliveries: n.deliveries.log.latestSeq })),
    collections: [...collectionsOf(ns.store).map(([name, c]) => ({ name, size: c.size })), { name: 'events', size: ns.store.events.length }],
  }
}

/** The request log, newest first, `limit` rows below `before`. */
export function requestsPage(ns: Namespace, query: URLSearchParams) {
  const rows = ns.requests.page(cursor(query), count(query, 'limit', PAGE_ROWS, MAX_PAGE_ROWS))
  return {
    oldestSeq: ns.requests.oldestSeq,
    latestSeq: ns.requests.latestSeq,
    rows: rows.map((r: RequestLogEntry) => ({
      seq: r.seq,
      requestId: r.requestId,
      at: r.at,
      method: r.method,
      url: r.url,
      status: r.status,
      durationMs: r.durationMs,
      fault: r.fault,
      warning: r.warning ?? null,
    })),
  }
}

export function requestEntry(ns: Namespace, seq: number): RequestLogEntry | undefined {
  return ns.requests.bySeq(seq)
}

/** The delivery log, newest first. */
export function deliveriesPage(ns: Namespace, query: URLSearchParams) {
  const log = ns.deliveries.log
  const rows = log.page(cursor(query), count(query, 'limit', PAGE_ROWS, MAX_PAGE_ROWS))
  return {
    oldestSeq: log.oldestSeq,
    latestSeq: log.latestSeq,
    rows: rows.map((a: DeliveryAttempt) => ({
      seq: a.seq,
      deliveryId: a.deliveryId,
      attempt: a.attempt,
      webhookEventType: a.webhookEventType,
      url: redactText(a.url),
      attemptedAt: a.attemptedAt,
      status: a.status,
      outcome: a.outcome,
      latencyMs: a.latencyMs,
    })),
  }
}

/** One attempt whole: payload, signature and the other headers, the receiver's answer. */
export function deliveryEntry(ns: Namespace, seq: number) {
  const a = ns.deliveries.log.bySeq(seq)
  if (!a) return undefined
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(a.requestHeaders)) headers[name] = redactText(value)
  return {
    ...a,
    url: redactText(a.url),
    requestHeaders: headers,
    requestBody: redactText(a.requestBody),
    responseBody: a.responseBody === null ? null : redactText(a.responseBody),
  }
}

/** One page of a collection (creation order), each record as its id and a short preview. */
export function collectionPage(store: Store, name: string, query: URLSearchParams) {
  const limit = count(query, 'limit', PAGE_ROWS, MAX_PAGE_ROWS)
  const offset = count(query, 'offset', 0, Number.MAX_SAFE_INTEGER)
  if (name === 'events') {
    const events = store.events
    const rows = events.slice(offset, offset + limit).map((e) => ({ id: e.eventId, preview: `${e.webhookEventType} ${e.timestamp}` }))
    return { name, size: events.length, offset, rows }
  }
  const collection = collectionsOf(store).find(([n]) => n === name)?.[1]
  if (!collection) return undefined
  const rows: Array<{ id: string; preview: string }> = []
  let i = 0
  for (const [id, record] of collection.entries()) {
    if (i++ < offset) continue
    if (rows.length >= limit) break
    // Some collections are keyed by a credential (API keys, the customToken of a sign-in): such a
    // key is shown masked, as the request log shows it, and its record cannot be opened from here.
    rows.push({ id: redactText(id), preview: preview(record) })
  }
  return { name, size: collection.size, offset, rows }
}

const PREVIEW_FIELDS = ['status', 'name', 'description', 'webhookEventType', 'type', 'amount', 'createdAt']

function preview(record: unknown): string {
  if (record === null || typeof record !== 'object') return String(record)
  const r = record as Record<string, unknown>
  const parts: string[] = []
  for (const field of PREVIEW_FIELDS) {
    const value = r[field]
    if (value === undefined || value === null || value === '') continue
    if (typeof value === 'object') {
      const money = value as { minorCurrencyUnits?: unknown; currency?: unknown }
      if (typeof money.minorCurrencyUnits === 'number') parts.push(`${money.minorCurrencyUnits} ${String(money.currency)}`)
      continue
    }
    parts.push(String(value).slice(0, 60))
  }
  return parts.join(' · ')
}

/** A record by id from any collection (or the event log), with the ids it names that are records too. */
export function recordById(store: Store, id: string) {
  const collections = collectionsOf(store)
  const find = (value: string): string | undefined => collections.find(([, c]) => c.has(value))?.[0]
  let collection = find(id)
  let record: unknown = collection === undefined ? undefined : collections.find(([n]) => n === collection)?.[1].get(id)
  if (record === undefined) {
    const event = store.events.find((e) => e.eventId === id)
    if (!event) return undefined
    collection = 'events'
    record = event
  }
  const text = redactText(JSON.stringify(record, null, 2))
  const links: Record<string, string> = {}
  for (const match of text.matchAll(/"([a-z0-9]+_[A-Za-z0-9_-]{6,64})"/g)) {
    const value = match[1] as string
    if (value === id || value in links) continue
    const where = find(value)
    if (where !== undefined) links[value] = where
  }
  return { id, collection, json: text, links }
}
