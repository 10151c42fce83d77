// Webhook subscriptions (contract: Resources → Webhook subscription). The secret has a view of
// its own: only `webhooks create` and `webhooks get --show-secret` use it.
import type { WebhookSubscription } from '../../client/schemas/webhooks.js'
import { defineView, type Column } from '../view.js'

type Subscription = Partial<WebhookSubscription> & { id: string }

const id: Column<Subscription> = { key: 'id', header: 'Webhook' }
const url: Column<Subscription> = { key: 'url', header: 'URL' }
const events: Column<Subscription> = { key: 'events', header: 'Events', display: (value) => (Array.isArray(value) && value.length ? value.join(', ') : '-') }
const status: Column<Subscription> = { key: 'status', header: 'Status' }
const description: Column<Subscription> = { key: 'description', header: 'Description' }
const owner: Column<Subscription> = {
  key: 'owner',
  header: 'Owner',
  get: (s) => s.marketplaceId ?? s.merchantId,
}

const detail: Column<Subscription>[] = [
  id,
  url,
  events,
  status,
  description,
  { key: 'marketplaceId', header: 'Marketplace' },
  { key: 'merchantId', header: 'Merchant' },
  { key: 'metadata', header: 'Metadata', kind: 'json' },
]

/** A subscription without its secret (list, get, enable, disable). */
export const webhookView = defineView<Subscription>({
  name: 'webhook subscription',
  columns: [id, url, events, status, owner, description],
  detail,
})

/** A subscription with its secret (create, get --show-secret). */
export const webhookWithSecretView = defineView<Subscription>({
  name: 'webhook subscription',
  columns: [id, url, events, status, owner, description],
  detail: [...detail.slice(0, 4), { key: 'secret', header: 'Secret' }, ...detail.slice(4)],
})
