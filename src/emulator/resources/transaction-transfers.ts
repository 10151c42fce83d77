// Funds of a payment moved between merchants of one marketplace (the emulator's TransferFunds and
// ReverseFundsTransfer, made by the marketplace's key): never more than the payment has left after
// refunds and earlier transfers; each move is two ledger entries, one per merchant.
import { z } from 'zod'
import { conflict, forbidden, notFound, unprocessable } from '../api-error.js'
import { timestamp } from '../clock.js'
import { appendLedger } from '../ledger.js'
import type { HandlerContext } from '../route.js'
import { lookup, type TransactionRecord, type TransferRecord } from '../store.js'
import { SETTLED_OR_CAPTURED, addTimeline, money, touch, transactionDetails } from './transaction-details.js'

/** The emulator's fields for TransferFunds: move part of a payment to another merchant of the marketplace. */
export const TransferFundsBody = z.strictObject({
  amount: z.number().int().positive(),
  destinationMerchantId: z.string().min(1),
  description: z.string().optional(),
})

/** The emulator's fields for ReverseFundsTransfer: the transfer, and how much (default: all that is left). */
export const ReverseFundsTransferBody = z.strictObject({
  transferId: z.string().min(1),
  amount: z.number().int().positive().optional(),
})

function netTransferred(txn: TransactionRecord): number {
  return txn.transfers.reduce((sum, t) => sum + t.amount.minorCurrencyUnits - t.reversedAmount, 0)
}

export function transferFunds(ctx: HandlerContext, txn: TransactionRecord, body: z.output<typeof TransferFundsBody>) {
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

export function reverseTransfer(ctx: HandlerContext, txn: TransactionRecord, body: z.output<typeof ReverseFundsTransferBody>) {
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
