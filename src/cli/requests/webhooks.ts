// Builds webhook subscription requests from parsed flags. Pure: no I/O, no client.
import type { Listable } from '../base-command.js'
import { UsageError } from '../errors/index.js'
import { metadataFrom } from '../flags/index.js'
import { KNOWN_EVENTS, unknownEvents } from '../validate/known-names.js'
import { sanitizeLine } from '../../output/sanitize.js'

/** Hosts to which plain http is allowed, for a receiver on this machine (the client allows them too). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** The destination must be https; plain http only to this machine (127.0.0.1, localhost, [::1]). */
export function checkWebhookUrl(input: string, flag = '--url'): string {
  const value = input.trim()
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(`${flag} must be an absolute URL (got "${input}")`, 'For example --url https://hooks.example.com/payfac')
  }
  if (url.protocol === 'https:') return value
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return value
  throw new UsageError(
    `${flag} must be an https:// URL (got "${input}")`,
    'The service calls https destinations only; plain http is allowed to 127.0.0.1, localhost or [::1] for local development',
  )
}

/**
 * An event name: PascalCase, a noun then a verb, such as `TransactionPaid` or `MerchantCreated`
 * (at least two capitalised words, letters and digits only); or `*` for every event, which the
 * emulator accepts (a service may refuse it).
 */
export function checkEventName(input: string, flag = '--events'): string {
  const value = input.trim()
  if (value === '*') return value
  if (!/^[A-Z][A-Za-z0-9]*[a-z]$/.test(value) || !/[a-z0-9][A-Z]/.test(value)) {
    throw new UsageError(
      `${flag}: "${input}" is not an event name (PascalCase, a noun then a verb)`,
      'For example --events TransactionPaid --events MerchantCreated',
    )
  }
  return value
}

/**
 * Warns on stderr of event names no list knows: they are still sent (the contract's list of
 * events is not complete), but a typo would otherwise subscribe to nothing silently.
 */
export function warnUnknownEvents(events: readonly string[], stderr: { write(text: string): unknown } = process.stderr): void {
  const unknown = unknownEvents(events)
  if (unknown.length === 0) return
  stderr.write(
    `Warning: ${unknown.map((e) => `"${sanitizeLine(e)}"`).join(', ')} ${unknown.length === 1 ? 'is not an event' : 'are not events'} payfac knows; sending as given. Known events: ${KNOWN_EVENTS.join(', ')}.\n`,
  )
}

/** Credential kinds whose subscriptions are marketplace-level when no merchant is named. */
const MARKETPLACE_KINDS = new Set(['marketplace-api-key'])

export type WebhookLevel = 'marketplace' | 'merchant'

/**
 * Marketplace-level when the credential is a marketplace API key and no merchant is in context
 * (no --merchant-id, nor one from the profile or environment); merchant-level otherwise (the
 * contract's Authentication rule 5).
 */
export function webhookLevel(credentialKind: string, merchantId: string | undefined): WebhookLevel {
  return MARKETPLACE_KINDS.has(credentialKind) && !merchantId ? 'marketplace' : 'merchant'
}

export interface WebhookFlagValues {
  url: string
  events: string[]
  description?: string | undefined
  metadata?: string[] | undefined
}

/** The create envelope: `CreateWebhookMarketplaceSubscription` or `CreateWebhookMerchantSubscription`. */
export function webhookEnvelope(level: WebhookLevel, f: WebhookFlagValues) {
  const body: { url: string; events: string[]; description?: string; metadata?: Record<string, string> } = {
    url: checkWebhookUrl(f.url),
    events: [...new Set(f.events.map((name) => checkEventName(name)))],
  }
  if (f.description !== undefined) body.description = f.description
  const metadata = metadataFrom(f.metadata)
  if (metadata) body.metadata = metadata
  return level === 'marketplace' ? { CreateWebhookMarketplaceSubscription: body } : { CreateWebhookMerchantSubscription: body }
}

/** The subscription without its secret, for every answer but `create` and `get --show-secret`. */
export function withoutSecret<T extends { secret?: unknown }>(subscription: T): T {
  const copy = { ...subscription }
  delete copy.secret
  return copy
}

/** A list source whose records come out without their secrets (pages and `--all` alike). */
export function listWithoutSecrets<T extends { secret?: unknown }, Q>(source: Listable<T, Q>): Listable<T, Q> {
  return {
    list: async (query) => {
      const page = await source.list(query)
      return { ...page, items: page.items.map(withoutSecret) }
    },
    iterate: async function* (query, options) {
      for await (const record of source.iterate(query, options)) yield withoutSecret(record)
    },
  }
}
