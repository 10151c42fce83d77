// The event log: what happened, kept in `store.events` in order, for webhook delivery to read.
// Event names are the emulator's own where the contract names none (a noun and a past-tense verb).
import { timestamp } from './clock.js'
import type { HandlerContext } from './route.js'
import { lookup, type EventRecord } from './store.js'

export function emitEvent(
  ctx: Pick<HandlerContext, 'store' | 'clock' | 'ids' | 'requestId'>,
  webhookEventType: string,
  merchantId: string | null,
  event: Record<string, unknown>,
): EventRecord {
  const merchant = merchantId === null ? undefined : lookup(ctx.store.merchants, merchantId)
  const record: EventRecord = {
    eventId: ctx.ids.next('evt'),
    webhookEventType,
    merchantId,
    marketplaceId: merchant?.marketplaceId ?? null,
    requestId: ctx.requestId,
    event: JSON.parse(JSON.stringify(event)) as Record<string, unknown>,
    timestamp: timestamp(ctx.clock.now()),
  }
  ctx.store.events.push(record)
  return record
}
