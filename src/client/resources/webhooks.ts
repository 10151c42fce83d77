// Webhook subscriptions.
import { z } from 'zod'
import type { Page } from '../pagination.js'
import { WEBHOOK_ENVELOPES, WebhookSubscription } from '../schemas/webhooks.js'
import { type CallOptions, type Core, type EnvelopeInput, type IterateCallOptions, type ListQuery, checkEnvelope, isObject, path } from '../core.js'

export type WebhookQuery = ListQuery & {
  merchantId?: string | string[] | undefined
  marketplaceId?: string | string[] | undefined
  status?: string | string[] | undefined
}

export type CreateWebhookEnvelope = EnvelopeInput<'POST /webhooks'>
export type UpdateWebhookEnvelope = EnvelopeInput<'PATCH /webhooks/{id}'>

/** A subscription answer, bare or under `WebhookMarketplaceSubscription`/`WebhookMerchantSubscription`. */
const Subscription = z.preprocess((body) => {
  if (isObject(body)) {
    const keys = Object.keys(body)
    const key = keys[0]
    if (keys.length === 1 && key !== undefined && (WEBHOOK_ENVELOPES as readonly string[]).includes(key)) return body[key]
  }
  return body
}, WebhookSubscription)

export interface WebhooksResource {
  list(query?: WebhookQuery, call?: CallOptions): Promise<Page<WebhookSubscription>>
  iterate(query?: WebhookQuery, options?: IterateCallOptions): AsyncIterable<WebhookSubscription>
  /** `POST /webhooks` with `CreateWebhookMarketplaceSubscription` or `CreateWebhookMerchantSubscription` (https url). */
  create(envelope: CreateWebhookEnvelope, call?: CallOptions): Promise<WebhookSubscription>
  get(id: string, call?: CallOptions): Promise<WebhookSubscription>
  update(id: string, envelope: UpdateWebhookEnvelope, call?: CallOptions): Promise<WebhookSubscription>
  /** Shorthand for update with `UpdateWebhookSubscriptionStatus` (`Active`, `Suspended`). */
  setStatus(id: string, status: string, call?: CallOptions): Promise<WebhookSubscription>
}

export function webhooksResource(core: Core): WebhooksResource {
  const update = async (id: string, envelope: UpdateWebhookEnvelope, call?: CallOptions) =>
    core.json('PATCH', path`/webhooks/${id}`, Subscription, { body: checkEnvelope('PATCH /webhooks/{id}', envelope), call })
  return {
    list: async (query = {}, call) => core.list('/webhooks', Subscription, query, call),
    iterate: (query = {}, options = {}) => core.iterate('/webhooks', Subscription, query, options),
    create: async (envelope, call) => core.json('POST', '/webhooks', Subscription, { body: checkEnvelope('POST /webhooks', envelope), call }),
    get: async (id, call) => core.json('GET', path`/webhooks/${id}`, Subscription, { call }),
    update,
    setStatus: async (id, status, call) => update(id, { UpdateWebhookSubscriptionStatus: { status } }, call),
  }
}
