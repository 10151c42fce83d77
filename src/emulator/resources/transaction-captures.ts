// Money taken or let go on a transaction: a payment recorded as a transaction (by orders-pay.ts),
// the capture that writes it to the ledger (at once, or by CaptureFunds after an authorisation),
// and CancelAuthorisation, which gives a card payment's money back and makes its order payable
// again.
import { z } from 'zod'
import { conflict } from '../api-error.js'
import { isoDate, timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { serviceFees } from '../fees.js'
import { appendLedger } from '../ledger.js'
import type { HandlerContext } from '../route.js'
import { lookup, type OrderRecord, type TokenRecord, type TransactionRecord } from '../store.js'
import { addTimeline, money, touch, transactionDetails } from './transaction-details.js'

export interface NewTransaction {
  order: OrderRecord
  token: TokenRecord
  status: 'paid' | 'accepted' | 'not_captured' | 'failed'
  paymentFailure?: { errorCode: string; message: string }
}

const PAYMENT_STATUS: Record<NewTransaction['status'], string> = {
  paid: 'Settled',
  accepted: 'Captured',
  not_captured: 'Authorised',
  failed: 'Failed',
}

/** Records a payment of an order with a token. Captured payments are written to the ledger. */
export function createTransaction(ctx: HandlerContext, input: NewTransaction): TransactionRecord {
  const { order, token } = input
  const now = ctx.clock.now()
  const merchant = lookup(ctx.store.merchants, order.merchantId)
  const customerId = order.customerId ?? token.customerId
  const customer = customerId === null ? undefined : lookup(ctx.store.customers, customerId)
  const transactionId = ctx.ids.next('tran')
  const txn: TransactionRecord = {
    transactionId,
    merchantId: order.merchantId,
    customerId,
    orderId: order.orderId,
    paymentTokenId: token.paymentTokenId,
    details: {
      purchaseDetails: {
        orderId: order.orderId,
        merchantId: order.merchantId,
        referenceOrderId: order.referenceOrderId,
        amount: { ...order.amount },
        surchargeAmount: token.surchargeAmount,
        refundedAmount: 0,
        merchantName: merchant?.name ?? '',
        transactionId,
        orderType: order.orderType,
        payType: token.payType === 'payplan' ? 'PayPlan' : 'PayInFull',
        description: order.description,
        orderMetadata: order.metadata,
        status: input.status,
        refundIds: [],
        disputeId: null,
        disputeIds: [],
        paidOn: null,
        createdAt: timestamp(now),
        updatedAt: timestamp(now),
      },
      paymentMethod: {
        paymentMethodType: token.method,
        accountHint: token.accountIdentifierHint,
        paymentStatus: PAYMENT_STATUS[input.status],
        paymentFailure: input.paymentFailure ?? null,
      },
      serviceFees:
        input.status === 'failed' ? { variableAmount: 0, fixedAmount: 0, taxAmount: 0, totalAmount: 0 } : serviceFees(order.amount.minorCurrencyUnits),
      customerDetails: customer
        ? {
            customerId: customer.customerId,
            emailAddress: customer.emailAddress,
            name: [customer.givenName, customer.familyName].filter(Boolean).join(' ') || customer.organisationName,
          }
        : null,
      timelines: [],
    },
    transfers: [],
  }
  ctx.store.transactions.set(transactionId, txn)
  if (input.status === 'paid' || input.status === 'accepted') capture(ctx, txn)
  else if (input.status === 'not_captured') addTimeline(ctx, txn, 'PaymentAuthorised', order.amount.minorCurrencyUnits)
  else addTimeline(ctx, txn, 'PaymentFailed', order.amount.minorCurrencyUnits)
  return txn
}

/** Money taken: the PaymentSucceed timeline entry, paidOn, and the ledger's Payment and ServiceFee entries. */
function capture(ctx: HandlerContext, txn: TransactionRecord): void {
  const p = txn.details.purchaseDetails
  const gross = p.amount.minorCurrencyUnits + p.surchargeAmount
  p.paidOn = isoDate(ctx.clock.now())
  addTimeline(ctx, txn, 'PaymentSucceed', p.amount.minorCurrencyUnits)
  const ids = { transactionId: txn.transactionId, orderId: txn.orderId }
  appendLedger(ctx, {
    merchantId: txn.merchantId,
    type: 'Payment',
    amount: money(gross, p.amount.currency),
    description: `Payment for order ${txn.orderId}`,
    ...ids,
  })
  appendLedger(ctx, {
    merchantId: txn.merchantId,
    type: 'ServiceFee',
    amount: money(-txn.details.serviceFees.totalAmount, p.amount.currency),
    description: `Service fee for transaction ${txn.transactionId}`,
    ...ids,
  })
  emitEvent(ctx, 'TransactionPaid', txn.merchantId, {
    transactionId: txn.transactionId,
    orderId: txn.orderId,
    amount: p.amount,
    transaction: transactionDetails(txn),
  })
}

/** The emulator's fields for CaptureFunds and CancelAuthorisation: none. */
export const NoFields = z.strictObject({})

export function captureFunds(ctx: HandlerContext, txn: TransactionRecord) {
  if (txn.details.purchaseDetails.status !== 'not_captured') {
    throw conflict(
      'transaction_not_capturable',
      `Only an authorised card payment (not_captured) can be captured; this one is ${txn.details.purchaseDetails.status}`,
    )
  }
  touch(ctx, txn, 'accepted', 'Captured')
  capture(ctx, txn)
  return transactionDetails(txn)
}

export function cancelAuthorisation(ctx: HandlerContext, txn: TransactionRecord) {
  const p = txn.details.purchaseDetails
  const cancellable = txn.details.paymentMethod.paymentMethodType === 'Card' && (p.status === 'not_captured' || p.status === 'accepted')
  if (!cancellable) {
    throw conflict(
      'authorisation_not_cancellable',
      `Only a card payment that is authorised (not_captured) or captured but not settled (accepted) can be cancelled; this one is a ${txn.details.paymentMethod.paymentMethodType} payment, ${p.status}`,
    )
  }
  if (txn.transfers.some((t) => t.status !== 'Reversed')) {
    throw conflict('transaction_has_transfers', 'Reverse the transfers of this payment before cancelling it')
  }
  if (p.status === 'accepted') {
    const ids = { transactionId: txn.transactionId, orderId: txn.orderId }
    const currency = p.amount.currency
    appendLedger(ctx, {
      merchantId: txn.merchantId,
      type: 'Payment',
      amount: money(-(p.amount.minorCurrencyUnits + p.surchargeAmount), currency),
      description: `Cancelled payment for order ${txn.orderId}`,
      ...ids,
    })
    appendLedger(ctx, {
      merchantId: txn.merchantId,
      type: 'ServiceFee',
      amount: money(txn.details.serviceFees.totalAmount, currency),
      description: `Service fee returned for cancelled transaction ${txn.transactionId}`,
      ...ids,
    })
  }
  touch(ctx, txn, 'cancelled', 'Cancelled')
  addTimeline(ctx, txn, 'PaymentCancelled', p.amount.minorCurrencyUnits)
  const order = lookup(ctx.store.orders, txn.orderId)
  if (order && order.status === 'paid' && order.transactionId === txn.transactionId) {
    order.status = 'pending'
    order.updatedAt = timestamp(ctx.clock.now())
    ctx.store.orders.reindex(order.orderId)
  }
  return transactionDetails(txn)
}
