// Many records at once, for benchmarks and tests of large stores: `POST /__emulator/seed`
// (`payfac emulator seed`). Records are written straight into the store, as the handlers would
// write them, without events or webhook deliveries, and spread evenly in time over the last
// `days` days of emulator time (oldest first), so time windows select a predictable share.
//
//   orders             pending online orders of the merchant; every tenth one cancelled;
//                      referenceOrderId `seed-<n>` (n from 1), amounts 10.00 to 59.99
//   settlementEntries  ledger entries of the merchant in its currency: a Payment (credit),
//                      then a ServiceFee (debit) for it, in turn; none in a payout
import type { Money } from '../client/money.js'
import { EmulatorError } from './api-error.js'
import { addDays, isoDate } from './clock.js'
import type { Clock } from './clock.js'
import type { IdGenerator } from './ids.js'
import { AVAILABILITY_DELAY_DAYS, type SettlementEntry } from './ledger.js'
import type { MerchantRecord, OrderRecord, Store } from './store.js'

/** Most records of each kind one request may add. */
export const MAX_BULK_RECORDS = 10_000_000

export interface BulkSeedInput {
  orders?: number | undefined
  settlementEntries?: number | undefined
  /** Default: the first merchant of the store (the well-known merchant in a seeded emulator). */
  merchantId?: string | undefined
  /** Over how many days before now the records are spread (default 30). */
  days?: number | undefined
}

export interface BulkSeedResult {
  merchantId: string
  orders: number
  settlementEntries: number
  from: string
  to: string
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/**
 * Ids in the usual shape (`<prefix>_` + 16 characters) made fast: 6 random characters for the
 * batch, then a counter in base64url. (A random id each would spend most of the time in the
 * system's random source.)
 */
function batchIds(ids: IdGenerator, prefix: string): () => string {
  const head = `${prefix}_${ids.secret(6)}`
  let n = 0
  return () => {
    let tail = ''
    for (let v = n++, i = 0; i < 10; i++, v = Math.floor(v / 64)) tail = BASE64URL[v % 64] + tail
    return [head, tail].join('') // in one piece (see ids.ts)
  }
}

/** Spreads `count` times evenly over [from, to): the i-th of them. */
function spread(from: number, to: number, count: number): (i: number) => string {
  const step = count > 0 ? (to - from) / count : 0
  return (i) => new Date(from + Math.floor(i * step)).toISOString()
}

export function bulkSeed(store: Store, clock: Clock, ids: IdGenerator, input: BulkSeedInput): BulkSeedResult {
  const merchant = input.merchantId === undefined ? store.merchants.first() : store.merchants.get(input.merchantId)
  if (!merchant)
    throw new EmulatorError(
      404,
      'not_found',
      input.merchantId === undefined ? 'The store has no merchant to seed for' : `Merchant ${input.merchantId} not found`,
    )
  const now = clock.now()
  const to = now.getTime()
  const from = to - (input.days ?? 30) * 86_400_000
  const orders = input.orders ?? 0
  const entries = input.settlementEntries ?? 0
  // In bulk: the new records are in time order, so each index is merged once, not spliced per record.
  store.orders.bulk(() => addOrders(store, merchant, batchIds(ids, 'ordr'), spread(from, to, orders), orders))
  store.settlementEntries.bulk(() => addEntries(store, merchant, batchIds(ids, 'stl'), spread(from, to, entries), entries))
  return { merchantId: merchant.merchantId, orders, settlementEntries: entries, from: new Date(from).toISOString(), to: now.toISOString() }
}

function addOrders(store: Store, merchant: MerchantRecord, nextId: () => string, timeOf: (i: number) => string, count: number): void {
  const money = (minorCurrencyUnits: number): Money => ({ minorCurrencyUnits, currency: merchant.currency })
  for (let i = 0; i < count; i++) {
    const createdAt = timeOf(i)
    const cancelled = i % 10 === 9
    const order: OrderRecord = {
      orderId: nextId(),
      merchantId: merchant.merchantId,
      customerId: null,
      referenceOrderId: ['seed-', i + 1].join(''), // in one piece (see ids.ts)
      orderType: 'online',
      status: cancelled ? 'cancelled' : 'pending',
      amount: money(1000 + ((i * 7919) % 5000)),
      description: 'Seeded order',
      customerName: null,
      customerEmailAddress: null,
      customerPhoneNumber: null,
      items: [],
      billing: null,
      metadata: null,
      transactionId: null,
      payByLinkUrl: null,
      cancelledAt: cancelled ? createdAt : null,
      createdAt,
      updatedAt: createdAt,
    }
    store.orders.set(order.orderId, order)
  }
}

function addEntries(store: Store, merchant: MerchantRecord, nextId: () => string, timeOf: (i: number) => string, count: number): void {
  const availableOn = new Map<string, string>()
  for (let i = 0; i < count; i++) {
    const createdAt = timeOf(i)
    const payment = i % 2 === 0
    const amount = payment ? 1000 + ((i * 7919) % 5000) : -(30 + (i % 50))
    const day = createdAt.slice(0, 10)
    let available = payment ? availableOn.get(day) : day
    if (available === undefined) {
      available = isoDate(addDays(new Date(createdAt), AVAILABILITY_DELAY_DAYS))
      availableOn.set(day, available)
    }
    const entry: SettlementEntry = {
      settlementEntryId: nextId(),
      merchantId: merchant.merchantId,
      type: payment ? 'Payment' : 'ServiceFee',
      amount: { minorCurrencyUnits: amount, currency: merchant.currency },
      transactionId: null,
      orderId: null,
      refundId: null,
      payoutId: null,
      createdAt,
      availableOn: available,
      // In one piece (see ids.ts), so that the first report that reads it does not copy it.
      description: payment ? ['Seeded payment ', i / 2 + 1].join('') : ['Service fee for seeded payment ', (i + 1) / 2].join(''),
    }
    store.settlementEntries.set(entry.settlementEntryId, entry)
  }
}
