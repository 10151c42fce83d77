// CreateRefund on a transaction: part or all of what was paid goes back, as a refund record, an
// entry of the transaction's timeline and of the ledger, and a TransactionRefunded event. The
// refund list (GET /transactions/refunds) is refunds.ts.
import type { CreateRefund } from '../../client/schemas/transactions.js'
import { conflict, unprocessable } from '../api-error.js'
import { timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { appendLedger } from '../ledger.js'
import type { HandlerContext } from '../route.js'
import type { RefundRecord, TransactionRecord } from '../store.js'
import { SETTLED_OR_CAPTURED, addTimeline, money, touch, transactionDetails } from './transaction-details.js'

export function refund(ctx: HandlerContext, txn: TransactionRecord, body: CreateRefund) {
  const p = txn.details.purchaseDetails
  if (!SETTLED_OR_CAPTURED.includes(p.status)) {
    throw conflict('transaction_not_refundable', `A ${p.status} transaction cannot be refunded`)
  }
  const remaining = p.amount.minorCurrencyUnits - p.refundedAmount
  if (body.refundAmount > remaining) {
    throw unprocessable(
      'refund_exceeds_remaining',
      `The refund of ${body.refundAmount} is more than what remains to refund (${remaining} of ${p.amount.minorCurrencyUnits})`,
      `Paid ${p.amount.minorCurrencyUnits} ${p.amount.currency}, refunded ${p.refundedAmount} so far: refund at most ${remaining} (minor units).`,
    )
  }
  const now = timestamp(ctx.clock.now())
  const record: RefundRecord = {
    refundId: ctx.ids.next('rfnd'),
    transactionId: txn.transactionId,
    orderId: txn.orderId,
    referenceOrderId: p.referenceOrderId,
    merchantId: txn.merchantId,
    customerId: txn.customerId,
    description: `Refund of order ${txn.orderId}`,
    refundAmount: money(body.refundAmount, p.amount.currency),
    transactionAmount: { ...p.amount },
    status: 'Succeeded',
    createdAt: now,
  }
  ctx.store.refunds.set(record.refundId, record)
  p.refundedAmount += body.refundAmount
  p.refundIds.push(record.refundId)
  touch(ctx, txn, p.refundedAmount === p.amount.minorCurrencyUnits ? 'refunded' : 'partially_refunded')
  addTimeline(ctx, txn, 'PaymentRefunded', body.refundAmount, record.refundId)
  appendLedger(ctx, {
    merchantId: txn.merchantId,
    type: 'Refund',
    amount: money(-body.refundAmount, p.amount.currency),
    description: `Refund ${record.refundId} of order ${txn.orderId}`,
    transactionId: txn.transactionId,
    orderId: txn.orderId,
    refundId: record.refundId,
  })
  emitEvent(ctx, 'TransactionRefunded', txn.merchantId, {
    transactionId: txn.transactionId,
    refundId: record.refundId,
    refundAmount: record.refundAmount,
    transaction: transactionDetails(txn),
  })
  return transactionDetails(txn)
}
