// Transactions: a payment seen from the merchant's side, and its actions (refund, capture,
// cancel an authorisation, transfer funds to another merchant, reverse a transfer). Every
// movement of money writes to the ledger (ledger.ts).
//
// States (transactionStatus / purchaseDetails.status):
//   PayTo payment            → paid (paymentStatus Settled)
//   card payment             → accepted (Captured), or not_captured (Authorised) when authoriseOnly
//   declined payment         → failed (Failed, paymentFailure set)
//   CaptureFunds             not_captured → accepted
//   CancelAuthorisation      not_captured | accepted (card, nothing refunded) → cancelled; the
//                            order becomes payable again
//   CreateRefund             paid | accepted | partially_refunded → partially_refunded, or
//                            refunded once everything is refunded
import { z } from 'zod'
import type { Money } from '../../client/money.js'
import type { CreateRefund } from '../../client/schemas/transactions.js'
import { conflict, forbidden, notFound, unprocessable } from '../api-error.js'
import { PRIVATE, visibleMerchantIds, visibleOr404 } from '../auth.js'
import { isoDate, timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { serviceFees } from '../fees.js'
import { appendLedger } from '../ledger.js'
import { customersWithin, filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { action, route, type HandlerContext } from '../route.js'
import { lookup, type OrderRecord, type RefundRecord, type TimelineEntry, type TokenRecord, type TransactionRecord, type TransferRecord } from '../store.js'

/** Statuses from which money can be refunded or transferred. */
const SETTLED_OR_CAPTURED = ['paid', 'accepted', 'partially_refunded']

/** TransactionDetails: the answer of every transaction action, and `transactionDetails` of PayOrderComplete. */
export function transactionDetails(txn: TransactionRecord) {
  return txn.details
}

/** `GET /transactions/{id}` and list entries: TransactionDetails plus the transfers (the emulator's own key). */
export function transactionView(txn: TransactionRecord) {
  return { ...txn.details, transfers: txn.transfers }
}

function touch(ctx: HandlerContext, txn: TransactionRecord, status?: string, paymentStatus?: string): string {
  const now = timestamp(ctx.clock.now())
  if (status !== undefined) txn.details.purchaseDetails.status = status
  if (paymentStatus !== undefined) txn.details.paymentMethod.paymentStatus = paymentStatus
  txn.details.purchaseDetails.updatedAt = now
  return now
}

function addTimeline(ctx: HandlerContext, txn: TransactionRecord, eventType: string, amount: number, identifier: string | null = null): void {
  const entry: TimelineEntry = { eventType, eventTime: timestamp(ctx.clock.now()), amount, identifier }
  txn.details.timelines.push(entry)
}

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

function money(minorCurrencyUnits: number, currency: string): Money {
  return { minorCurrencyUnits, currency }
}

/** A transaction the request may see (404 otherwise). */
export function visibleTransaction(ctx: HandlerContext, id: string): TransactionRecord {
  return visibleOr404(ctx, ctx.store.transactions, id, 'Transaction')
}

// Actions -------------------------------------------------------------------------------------

function refund(ctx: HandlerContext, txn: TransactionRecord, body: CreateRefund) {
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

/** The emulator's fields for CaptureFunds and CancelAuthorisation: none. */
const NoFields = z.strictObject({})

function captureFunds(ctx: HandlerContext, txn: TransactionRecord) {
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

function cancelAuthorisation(ctx: HandlerContext, txn: TransactionRecord) {
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

/** The emulator's fields for TransferFunds: move part of a payment to another merchant of the marketplace. */
const TransferFundsBody = z.strictObject({
  amount: z.number().int().positive(),
  destinationMerchantId: z.string().min(1),
  description: z.string().optional(),
})

/** The emulator's fields for ReverseFundsTransfer: the transfer, and how much (default: all that is left). */
const ReverseFundsTransferBody = z.strictObject({
  transferId: z.string().min(1),
  amount: z.number().int().positive().optional(),
})

function netTransferred(txn: TransactionRecord): number {
  return txn.transfers.reduce((sum, t) => sum + t.amount.minorCurrencyUnits - t.reversedAmount, 0)
}

function transferFunds(ctx: HandlerContext, txn: TransactionRecord, body: z.output<typeof TransferFundsBody>) {
  if (ctx.principal.kind !== 'marketplace') {
    throw forbidden('marketplace_only', 'Funds are transferred between merchants by their marketplace: use the marketplace API key')
  }
  const p = txn.details.purchaseDetails
  if (!SETTLED_OR_CAPTURED.includes(p.status)) throw conflict('transaction_not_transferable', `Funds of a ${p.status} transaction cannot be transferred`)
  const destination = lookup(ctx.store.merchants, body.destinationMerchantId)
  if (!destination || destination.marketplaceId !== ctx.principal.marketplaceId) throw notFound('Merchant', body.destinationMerchantId)
  if (destination.merchantId === txn.merchantId) throw unprocessable('same_merchant', 'The destination is the merchant of the payment itself')
  const available = p.amount.minorCurrencyUnits - p.refundedAmount - netTransferred(txn)
  if (body.amount > available) {
    throw unprocessable('transfer_exceeds_available', `Only ${available} of this payment can still be transferred`)
  }
  const now = timestamp(ctx.clock.now())
  const transfer: TransferRecord = {
    transferId: ctx.ids.next('trf'),
    transactionId: txn.transactionId,
    sourceMerchantId: txn.merchantId,
    destinationMerchantId: destination.merchantId,
    amount: money(body.amount, p.amount.currency),
    reversedAmount: 0,
    description: body.description ?? null,
    status: 'Transferred',
    createdAt: now,
    updatedAt: now,
  }
  txn.transfers.push(transfer)
  touch(ctx, txn)
  addTimeline(ctx, txn, 'FundsTransferred', body.amount, transfer.transferId)
  const common = { transactionId: txn.transactionId, orderId: txn.orderId }
  appendLedger(ctx, {
    merchantId: txn.merchantId,
    type: 'Transfer',
    amount: money(-body.amount, p.amount.currency),
    description: `Transfer ${transfer.transferId} to ${destination.merchantId}`,
    ...common,
  })
  appendLedger(ctx, {
    merchantId: destination.merchantId,
    type: 'Transfer',
    amount: money(body.amount, p.amount.currency),
    description: `Transfer ${transfer.transferId} from ${txn.merchantId}`,
    ...common,
  })
  return transactionDetails(txn)
}

function reverseTransfer(ctx: HandlerContext, txn: TransactionRecord, body: z.output<typeof ReverseFundsTransferBody>) {
  if (ctx.principal.kind !== 'marketplace') {
    throw forbidden('marketplace_only', 'Transfers are reversed by the marketplace: use the marketplace API key')
  }
  const transfer = txn.transfers.find((t) => t.transferId === body.transferId)
  if (!transfer) throw notFound(`Transfer of transaction ${txn.transactionId}`, body.transferId)
  const left = transfer.amount.minorCurrencyUnits - transfer.reversedAmount
  if (left === 0) throw conflict('transfer_already_reversed', 'The transfer has already been reversed in full')
  const amount = body.amount ?? left
  if (amount > left) throw unprocessable('reversal_exceeds_transfer', `Only ${left} of the transfer is left to reverse`)
  const now = timestamp(ctx.clock.now())
  transfer.reversedAmount += amount
  transfer.status = transfer.reversedAmount === transfer.amount.minorCurrencyUnits ? 'Reversed' : 'PartiallyReversed'
  transfer.updatedAt = now
  touch(ctx, txn)
  addTimeline(ctx, txn, 'FundsTransferReversed', amount, transfer.transferId)
  const currency = transfer.amount.currency
  const common = { transactionId: txn.transactionId, orderId: txn.orderId }
  appendLedger(ctx, {
    merchantId: transfer.destinationMerchantId,
    type: 'TransferReversal',
    amount: money(-amount, currency),
    description: `Reversal of transfer ${transfer.transferId}`,
    ...common,
  })
  appendLedger(ctx, {
    merchantId: transfer.sourceMerchantId,
    type: 'TransferReversal',
    amount: money(amount, currency),
    description: `Reversal of transfer ${transfer.transferId}`,
    ...common,
  })
  return transactionDetails(txn)
}

function onTransaction<B>(handle: (ctx: HandlerContext, txn: TransactionRecord, body: B) => unknown) {
  return (ctx: HandlerContext, body: B, req: { params: Record<string, string> }) =>
    handle(ctx, visibleTransaction(ctx, req.params.transactionId as string), body)
}

export const routes = [
  route({
    method: 'GET',
    path: '/transactions',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const orderIds = f.list('orderId')
      const statuses = f.list('status')
      const customerIds = f.list('customerId')
      const merchantIds = f.list('merchantId')
      const ids = f.list('transactionId')
      const references = f.list('referenceOrderId')
      const amount = f.integer('amount')
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.transactions.select({
        ids,
        where: { merchantId: merchantsWithin(visible, merchantIds), orderId: orderIds, customerId: customersWithin(ctx.scope, customerIds) },
        after,
        before,
        filter:
          statuses === undefined && references === undefined && amount === undefined
            ? undefined
            : (t) => {
                const p = t.details.purchaseDetails
                return oneOf(statuses, p.status) && oneOf(references, p.referenceOrderId) && (amount === undefined || p.amount.minorCurrencyUnits === amount)
              },
        filterKey: JSON.stringify([statuses, references, amount]),
      })
      return paginate(records, req.query, {
        sortable: {
          createdAt: (t) => t.details.purchaseDetails.createdAt,
          updatedAt: (t) => t.details.purchaseDetails.updatedAt,
          amount: (t) => t.details.purchaseDetails.amount.minorCurrencyUnits,
          status: (t) => t.details.purchaseDetails.status,
          paidOn: (t) => t.details.purchaseDetails.paidOn,
        },
        view: transactionView,
      })
    },
  }),
  route({
    method: 'GET',
    path: '/transactions/{transactionId}',
    allow: PRIVATE,
    handle: (ctx, req) => transactionView(visibleTransaction(ctx, req.params.transactionId as string)),
  }),
  route({
    method: 'PATCH',
    path: '/transactions/{transactionId}',
    allow: PRIVATE,
    actions: {
      CreateRefund: action<CreateRefund>(onTransaction(refund)),
      CaptureFunds: action(
        NoFields,
        onTransaction((ctx, txn) => captureFunds(ctx, txn)),
      ),
      CancelAuthorisation: action(
        NoFields,
        onTransaction((ctx, txn) => cancelAuthorisation(ctx, txn)),
      ),
      TransferFunds: action(TransferFundsBody, onTransaction(transferFunds)),
      ReverseFundsTransfer: action(ReverseFundsTransferBody, onTransaction(reverseTransfer)),
    },
  }),
]
