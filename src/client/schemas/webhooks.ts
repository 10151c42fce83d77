// Webhook subscriptions.
import { z } from 'zod'
import { Metadata } from './common.js'

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

/**
 * The contract requires https. Plain http is let through only for loopback hosts, so that a
 * local emulator can deliver to a receiver on this machine.
 */
export const WebhookUrl = z.string().refine(
  (value) => {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      return false
    }
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))
  },
  { error: 'expected an https:// URL' },
)

const subscriptionFields = {
  url: WebhookUrl,
  // The contract requires only `url`.
  events: z.array(z.string().min(1)).optional(),
  description: z.string().optional(),
  metadata: Metadata.optional(),
}

// ---------------------------------------------------------------------------------------------
// Requests

export const CreateWebhookMarketplaceSubscription = z.strictObject(subscriptionFields)
export type CreateWebhookMarketplaceSubscription = z.infer<typeof CreateWebhookMarketplaceSubscription>

export const CreateWebhookMerchantSubscription = z.strictObject(subscriptionFields)
export type CreateWebhookMerchantSubscription = z.infer<typeof CreateWebhookMerchantSubscription>

/** Values seen: `Active`, `Suspended`. */
export const UpdateWebhookSubscriptionStatus = z.strictObject({
  status: z.string().min(1),
})
export type UpdateWebhookSubscriptionStatus = z.infer<typeof UpdateWebhookSubscriptionStatus>

// ---------------------------------------------------------------------------------------------
// Responses

export const WebhookSubscription = z.looseObject({
  id: z.string(),
  marketplaceId: z.string().nullish(),
  merchantId: z.string().nullish(),
  url: z.string().nullish(),
  events: z.array(z.string()).nullish(),
  description: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  status: z.string().nullish(),
  secret: z.string().nullish(),
})
export type WebhookSubscription = z.infer<typeof WebhookSubscription>

/** Envelope keys a subscription may come back under. */
export const WEBHOOK_ENVELOPES = ['WebhookMarketplaceSubscription', 'WebhookMerchantSubscription'] as const
