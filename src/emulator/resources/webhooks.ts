// Webhook subscriptions (store.webhookSubscriptions). Delivering events is not done here: the
// event log is store.events (events.ts), and `matchingSubscriptions()` below tells a delivery
// loop which subscriptions an event goes to.
//
// Level (the contract: "a webhook subscription made with a marketplace API key is
// marketplace-level; one made with merchant credentials or with `Merchant-Id` is
// merchant-level"): it follows the credential and `Merchant-Id`, whichever of the two create
// actions names the body. Every answer carries a subscription under the envelope key of its level,
// the list too (an array of such envelopes): the contract gives the subscription one shape.
import { z } from 'zod'
import { Metadata } from '../../client/schemas/common.js'
import { WebhookUrl } from '../../client/schemas/webhooks.js'
import type { WebhookSubscriptionRecord } from '../account-records.js'
import { notFound } from '../api-error.js'
import { PRIVATE, mayActForMerchant, requireMerchant, visibleMerchantIds } from '../auth.js'
import { timestamp } from '../clock.js'
import { filters, oneOf, paginate } from '../lists.js'
import { action, route, type HandlerContext } from '../route.js'
import { lookup, type Store } from '../store.js'

export const WEBHOOK_STATUSES = ['Active', 'Suspended'] as const

/** The emulator's rule on top of the shared schema: each event name PascalCase (or `*` for all). */
const EventName = z.string().regex(/^(\*|[A-Z][A-Za-z0-9]*)$/, { error: 'expected an event name such as MerchantCreated (or * for every event)' })

const SubscriptionBody = z.strictObject({
  url: WebhookUrl,
  // Optional (the contract requires only `url`): without it, every event (`["*"]`).
  events: z.array(EventName).optional(),
  description: z.string().max(500).optional(),
  metadata: Metadata.optional(),
})
type SubscriptionBody = z.output<typeof SubscriptionBody>

const UpdateStatusBody = z.strictObject({ status: z.enum(WEBHOOK_STATUSES) })

/** The record as the contract shows it (no other fields). */
export function subscriptionRecordView(s: WebhookSubscriptionRecord) {
  return {
    id: s.id,
    ...(s.level === 'Marketplace' ? { marketplaceId: s.marketplaceId } : { merchantId: s.merchantId }),
    url: s.url,
    events: [...s.events],
    description: s.description,
    metadata: s.metadata,
    status: s.status,
    secret: s.secret,
  }
}

/** `{WebhookMarketplaceSubscription: …}` or `{WebhookMerchantSubscription: …}`. */
export function subscriptionEnvelope(s: WebhookSubscriptionRecord) {
  return { [s.level === 'Marketplace' ? 'WebhookMarketplaceSubscription' : 'WebhookMerchantSubscription']: subscriptionRecordView(s) }
}

/** Whether the request may see or change a subscription. */
function mayManage(ctx: HandlerContext, s: WebhookSubscriptionRecord): boolean {
  if (s.level === 'Marketplace') return ctx.scope.merchantId === null && ctx.scope.marketplaceId === s.marketplaceId
  return s.merchantId !== null && mayActForMerchant(ctx.store, ctx.scope, s.merchantId)
}

function visibleSubscription(ctx: HandlerContext, id: string): WebhookSubscriptionRecord {
  const s = lookup(ctx.store.webhookSubscriptions, id)
  if (!s || !mayManage(ctx, s)) throw notFound('Webhook subscription', id)
  return s
}

/** The level a create makes: marketplace-level only for a marketplace credential without `Merchant-Id`. */
export function subscriptionLevel(ctx: HandlerContext): WebhookSubscriptionRecord['level'] {
  return ctx.principal.kind === 'marketplace' && ctx.scope.merchantId === null ? 'Marketplace' : 'Merchant'
}

function create(ctx: HandlerContext, body: SubscriptionBody) {
  const level = subscriptionLevel(ctx)
  let marketplaceId: string | null = null
  let merchantId: string | null = null
  if (level === 'Marketplace') marketplaceId = ctx.scope.marketplaceId
  else merchantId = requireMerchant(ctx.store, ctx.scope).merchantId
  const now = timestamp(ctx.clock.now())
  const record: WebhookSubscriptionRecord = {
    id: ctx.ids.next('webhook'),
    level,
    marketplaceId,
    merchantId,
    url: body.url,
    events: body.events === undefined ? ['*'] : [...new Set(body.events)],
    description: body.description ?? null,
    metadata: body.metadata ?? null,
    status: 'Active',
    secret: `whsec_${ctx.ids.secret(32)}`,
    createdAt: now,
    updatedAt: now,
  }
  ctx.store.webhookSubscriptions.set(record.id, record)
  return subscriptionEnvelope(record)
}

/**
 * The Active subscriptions an event goes to: merchant-level subscriptions of the event's merchant,
 * and marketplace-level subscriptions of the event's marketplace (which therefore receive the
 * events of all its merchants), whose `events` name the event type (or `*`).
 */
export function matchingSubscriptions(
  store: Store,
  event: { merchantId: string | null; marketplaceId: string | null; eventType: string },
): WebhookSubscriptionRecord[] {
  return store.webhookSubscriptions
    .all()
    .filter(
      (s) =>
        s.status === 'Active' &&
        (s.events.includes(event.eventType) || s.events.includes('*')) &&
        ((s.level === 'Merchant' && event.merchantId !== null && s.merchantId === event.merchantId) ||
          (s.level === 'Marketplace' && event.marketplaceId !== null && s.marketplaceId === event.marketplaceId)),
    )
}

export const routes = [
  route({
    method: 'GET',
    path: '/webhooks',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const merchantIds = f.list('merchantId')
      const marketplaceIds = f.list('marketplaceId')
      const statuses = f.list('status')
      // Candidates from the indexes: the subscriptions of the merchants and marketplace this request may manage.
      const subscriptions = ctx.store.webhookSubscriptions
      const { marketplaceId } = ctx.scope
      const ids = [
        ...subscriptions.idsByIndex('merchantId', visibleMerchantIds(ctx.store, ctx.scope)),
        ...(ctx.scope.merchantId === null && marketplaceId !== null ? subscriptions.idsByIndex('marketplaceId', [marketplaceId]) : []),
      ]
      const records = subscriptions.select({
        ids,
        filter: (s) =>
          mayManage(ctx, s) &&
          oneOf(statuses, s.status) &&
          // merchantId selects merchant-level subscriptions of those merchants, marketplaceId
          // marketplace-level ones; given together, either matches.
          (merchantIds === undefined && marketplaceIds === undefined
            ? true
            : (merchantIds !== undefined && s.level === 'Merchant' && oneOf(merchantIds, s.merchantId)) ||
              (marketplaceIds !== undefined && s.level === 'Marketplace' && oneOf(marketplaceIds, s.marketplaceId))),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (s) => s.createdAt, updatedAt: (s) => s.updatedAt, status: (s) => s.status, url: (s) => s.url },
        view: subscriptionEnvelope,
      })
    },
  }),
  route({
    method: 'POST',
    path: '/webhooks',
    allow: PRIVATE,
    actions: {
      CreateWebhookMarketplaceSubscription: action(SubscriptionBody, (ctx, body) => create(ctx, body)),
      CreateWebhookMerchantSubscription: action(SubscriptionBody, (ctx, body) => create(ctx, body)),
    },
  }),
  route({
    method: 'GET',
    path: '/webhooks/{id}',
    allow: PRIVATE,
    handle: (ctx, req) => subscriptionEnvelope(visibleSubscription(ctx, req.params.id as string)),
  }),
  route({
    method: 'PATCH',
    path: '/webhooks/{id}',
    allow: PRIVATE,
    actions: {
      UpdateWebhookSubscriptionStatus: action(UpdateStatusBody, (ctx, body, req) => {
        const s = visibleSubscription(ctx, req.params.id as string)
        s.status = body.status
        s.updatedAt = timestamp(ctx.clock.now())
        return subscriptionEnvelope(s)
      }),
    },
  }),
]
