// The emulator's state: collections of plain records (strings, numbers, booleans, null, arrays,
// objects), each a Map by id with its indexes (collection.ts), and the event log, an array.
// `JSON.stringify(store)` is the whole state (a collection writes itself as an object keyed by
// id, the ledger as an array), so `--state FILE` can save and restore it.
//
// Records keep the shape the emulator emits where the contract shows one; internal fields that
// are never emitted are named in the record's comment. Each resource group defines its records
// and its collections (with their indexes) beside its handlers, in resources/*-records.ts and
// account-records.ts; `emptyStore()` gathers them. A state file saved before a collection existed
// loads with the collection empty.
import { notFound } from './api-error.js'
import { accountCollections } from './account-records.js'
import { Collection, byMerchantId } from './collection.js'
import type { SettlementEntry } from './ledger.js'
import { customerCollections } from './resources/customer-records.js'
import { merchantCollections } from './resources/merchant-records.js'
import { orderCollections } from './resources/order-records.js'
import { paymentCollections } from './resources/payment-records.js'

export type * from './resources/customer-records.js'
export type * from './resources/merchant-records.js'
export type * from './resources/order-records.js'
export type * from './resources/payment-records.js'

/** Something that happened, kept for webhook delivery (the delivery side reads this log). */
export interface EventRecord {
  eventId: string
  webhookEventType: string
  merchantId: string | null
  marketplaceId: string | null
  requestId: string
  event: Record<string, unknown>
  timestamp: string
}

/** The ledger (ledger.ts); saved as an array in creation order. */
function ledgerCollections() {
  return {
    settlementEntries: new Collection<SettlementEntry>({
      json: 'array',
      id: (e) => e.settlementEntryId,
      indexes: { ...byMerchantId, payoutId: (e) => e.payoutId, transactionId: (e) => e.transactionId, type: (e) => e.type, currency: (e) => e.amount.currency },
    }),
  }
}

export interface Store
  extends ReturnType<typeof merchantCollections>,
    ReturnType<typeof customerCollections>,
    ReturnType<typeof paymentCollections>,
    ReturnType<typeof orderCollections>,
    ReturnType<typeof ledgerCollections>,
    ReturnType<typeof accountCollections> {
  events: EventRecord[]
}

/**
 * A store with every collection empty. Each group's collections, with the indexes that serve its
 * list filters (identifiers, references, customers, merchants, statuses), are defined beside its
 * records; a field that changes in place after creation and is indexed (`orders.status`,
 * `orders.referenceOrderId`, `settlementEntries.payoutId`) is followed by `reindex(id)` where it
 * changes.
 */
export function emptyStore(): Store {
  return {
    ...merchantCollections(),
    ...customerCollections(),
    ...paymentCollections(),
    ...orderCollections(),
    ...ledgerCollections(),
    events: [],
    ...accountCollections(),
  }
}

/** The collections of a store by name (every field but the event log). */
export function collectionsOf(store: Store): Array<[string, Collection<unknown>]> {
  return Object.entries(store).filter((e): e is [string, Collection<unknown>] => e[1] instanceof Collection)
}

/** After a request that may have changed records in place: forget every cached list result. */
export function markChanged(store: Store): void {
  for (const [, collection] of collectionsOf(store)) collection.touch()
}

/** A record by id, or a 404 naming what was looked for. */
export function getOr404<T>(collection: Collection<T>, id: string, what: string): T {
  const record = collection.get(id)
  if (record === undefined) throw notFound(what, id)
  return record
}

/** A record by id, or undefined. */
export function lookup<T>(collection: Collection<T>, id: string): T | undefined {
  return collection.get(id)
}
