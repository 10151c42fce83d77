// Disputes (/transactions/disputes) are opened and resolved by simulation (simulation-money.ts);
// they write DisputeDebit and DisputeCredit ledger entries.
import type { Money } from '../../client/money.js'
import type { DisputeRecord } from '../account-records.js'
import { conflict, unprocessable } from '../api-error.js'
import { PRIVATE, visibleMerchantIds } from '../auth.js'
import { addDays, isoDate, timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { appendLedger } from '../ledger.js'
import { filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { route, type HandlerContext } from '../route.js'
import { lookup, type Store, type TransactionRecord } from '../store.js'

const money = (minorCurrencyUnits: number, currency: string): Money => ({ minorCurrencyUnits, currency })

/** Days the merchant has to answer a dispute (the emulator's own; informational). */
export const DISPUTE_EVIDENCE_DAYS = 7

const DISPUTABLE = ['paid', 'accepted', 'partially_refunded', 'refunded', 'disputed']

export function disputeView(d: DisputeRecord) {
  const { previousTransactionStatus: _internal, ...view } = d
  return view
}

function openDisputesOf(store: Store, transactionId: string): DisputeRecord[] {
  return store.disputes.byIndex('transactionId', transactionId).filter((d) => d.status === 'Open')
}

/**
 * Opens a dispute (chargeback) on a paid transaction: the amount (default: what was paid and not
 * refunded or already disputed) is debited from the merchant at once, the transaction becomes
 * `disputed` and records the dispute in `disputeId`/`disputeIds` and a DisputeOpened timeline entry.
 */
export function openDispute(ctx: HandlerContext, txn: TransactionRecord, input: { amount?: number; reason?: string }): DisputeRecord {
  const p = txn.details.purchaseDetails
  if (!DISPUTABLE.includes(p.status) || (p.status === 'refunded' && p.refundedAmount >= p.amount.minorCurrencyUnits)) {
    throw conflict('transaction_not_disputable', `A ${p.status} transaction cannot be disputed`)
  }
  const open = openDisputesOf(ctx.store, txn.transactionId)
  const disputable = p.amount.minorCurrencyUnits - p.refundedAmount - open.reduce((s, d) => s + d.amount.minorCurrencyUnits, 0)
  const amount = input.amount ?? disputable
  if (amount <= 0 || amount > disputable) {
    throw unprocessable('dispute_exceeds_disputable', `Only ${disputable} of this transaction can be disputed (paid, less refunds and open disputes)`)
  }
  const now = ctx.clock.now()
  const record: DisputeRecord = {
    disputeId: ctx.ids.next('dispute'),
    transactionId: txn.transactionId,
    orderId: txn.orderId,
    merchantId: txn.merchantId,
    customerId: txn.customerId,
    amount: money(amount, p.amount.currency),
    reason: input.reason ?? 'General',
    status: 'Open',
    previousTransactionStatus: open.length > 0 ? (open[0] as DisputeRecord).previousTransactionStatus : p.status,
    evidenceDueOn: isoDate(addDays(now, DISPUTE_EVIDENCE_DAYS)),
    createdAt: timestamp(now),
    updatedAt: timestamp(now),
    resolvedAt: null,
  }
  ctx.store.disputes.set(record.disputeId, record)
  p.disputeId = record.disputeId
  p.disputeIds.push(record.disputeId)
  p.status = 'disputed'
  p.updatedAt = timestamp(now)
  txn.details.timelines.push({ eventType: 'DisputeOpened', eventTime: timestamp(now), amount, identifier: record.disputeId })
  appendLedger(ctx, {
    merchantId: txn.merchantId,
    type: 'DisputeDebit',
    amount: money(-amount, p.amount.currency),
    description: `Dispute ${record.disputeId} on transaction ${txn.transactionId}`,
    transactionId: txn.transactionId,
    orderId: txn.orderId,
  })
  emitEvent(ctx, 'DisputeOpened', txn.merchantId, { dispute: disputeView(record) })
  return record
}

/**
 * Closes an open dispute. Won: the amount is credited back (DisputeCredit) and, when no other
 * dispute is open, the transaction returns to its status before the dispute. Lost: the debit
 * stands and the transaction stays `disputed`.
 */
export function resolveDispute(ctx: HandlerContext, dispute: DisputeRecord, outcome: 'Won' | 'Lost'): DisputeRecord {
  if (dispute.status !== 'Open') throw conflict('dispute_not_open', `Dispute ${dispute.disputeId} is already ${dispute.status}`)
  const now = timestamp(ctx.clock.now())
  dispute.status = outcome
  dispute.resolvedAt = now
  dispute.updatedAt = now
  const txn = lookup(ctx.store.transactions, dispute.transactionId)
  if (txn) {
    txn.details.timelines.push({
      eventType: outcome === 'Won' ? 'DisputeWon' : 'DisputeLost',
      eventTime: now,
      amount: dispute.amount.minorCurrencyUnits,
      identifier: dispute.disputeId,
    })
    txn.details.purchaseDetails.updatedAt = now
    if (outcome === 'Won' && openDisputesOf(ctx.store, txn.transactionId).length === 0) {
      txn.details.purchaseDetails.status = dispute.previousTransactionStatus
    }
  }
  if (outcome === 'Won') {
    appendLedger(ctx, {
      merchantId: dispute.merchantId,
      type: 'DisputeCredit',
      amount: dispute.amount,
      description: `Dispute ${dispute.disputeId} won`,
      transactionId: dispute.transactionId,
      orderId: dispute.orderId,
    })
  }
  emitEvent(ctx, 'DisputeClosed', dispute.merchantId, { dispute: disputeView(dispute) })
  return dispute
}

export const routes = [
  route({
    method: 'GET',
    path: '/transactions/disputes',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const ids = f.list('disputeId')
      const transactionIds = f.list('transactionId')
      const orderIds = f.list('orderId')
      const merchantIds = f.list('merchantId')
      const statuses = f.list('status')
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const customerId = ctx.scope.customerId
      const records = ctx.store.disputes.select({
        ids,
        where: { merchantId: merchantsWithin(visible, merchantIds), transactionId: transactionIds, orderId: orderIds },
        after,
        before,
        // Customer-Id narrows to that customer's disputes.
        filter:
          statuses === undefined && customerId === null ? undefined : (d) => oneOf(statuses, d.status) && (customerId === null || d.customerId === customerId),
        filterKey: JSON.stringify([statuses, customerId]),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (d) => d.createdAt, updatedAt: (d) => d.updatedAt, amount: (d) => d.amount.minorCurrencyUnits, status: (d) => d.status },
        view: disputeView,
      })
    },
  }),
]
