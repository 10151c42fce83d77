// What every action on a transaction shares: its answer (TransactionDetails, and the view with its
// transfers), the statuses money can leave from, the update of its status and time, its timeline,
// amounts as Money, and the transaction a request may see. The actions are in
// transaction-captures.ts, transaction-refunds.ts and transaction-transfers.ts; the routes in
// transactions.ts.
import type { Money } from '../../client/money.js'
import { visibleOr404 } from '../auth.js'
import { timestamp } from '../clock.js'
import type { HandlerContext } from '../route.js'
import type { TimelineEntry, TransactionRecord } from '../store.js'

/** Statuses from which money can be refunded or transferred. */
export const SETTLED_OR_CAPTURED = ['paid', 'accepted', 'partially_refunded']

/** TransactionDetails: the answer of every transaction action, and `transactionDetails` of PayOrderComplete. */
export function transactionDetails(txn: TransactionRecord) {
  return txn.details
}

/** `GET /transactions/{id}` and list entries: TransactionDetails plus the transfers (the emulator's own key). */
export function transactionView(txn: TransactionRecord) {
  return { ...txn.details, transfers: txn.transfers }
}

/** Sets the status (and payment status) when given, and the time of the update; returns that time. */
export function touch(ctx: HandlerContext, txn: TransactionRecord, status?: string, paymentStatus?: string): string {
  const now = timestamp(ctx.clock.now())
  if (status !== undefined) txn.details.purchaseDetails.status = status
  if (paymentStatus !== undefined) txn.details.paymentMethod.paymentStatus = paymentStatus
  txn.details.purchaseDetails.updatedAt = now
  return now
}

export function addTimeline(ctx: HandlerContext, txn: TransactionRecord, eventType: string, amount: number, identifier: string | null = null): void {
  const entry: TimelineEntry = { eventType, eventTime: timestamp(ctx.clock.now()), amount, identifier }
  txn.details.timelines.push(entry)
}

export function money(minorCurrencyUnits: number, currency: string): Money {
  return { minorCurrencyUnits, currency }
}

/** A transaction the request may see (404 otherwise). */
export function visibleTransaction(ctx: HandlerContext, id: string): TransactionRecord {
  return visibleOr404(ctx, ctx.store.transactions, id, 'Transaction')
}
