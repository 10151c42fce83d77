// Transactions (contract: Resources → Transaction): the answer of pay (PayOrderComplete), and
// a transaction record (TransactionDetails: get, list, and the answer of an update or refund).
import type { PayResult } from '../../client/resources/orders.js'
import type { PayOrderComplete, Transaction } from '../../client/schemas/transactions.js'
import { formatMinorUnits } from '../../client/money.js'
import { formatTimestamp } from '../cells.js'
import { defineView, liftColumns, type Column } from '../view.js'
import { metadataCell } from './bookkeeping.js'

// PayOrderComplete: amounts are integers in minor units beside a `currency` field.
const payCurrency = (t: PayOrderComplete) => t.currency ?? t.transactionDetails?.purchaseDetails?.amount?.currency

const pay = {
  transactionId: { key: 'transactionId', header: 'Transaction' },
  transactionStatus: { key: 'transactionStatus', header: 'Status' },
  amount: { key: 'amount', header: 'Amount', kind: 'minor', currency: payCurrency },
  payType: { key: 'payType', header: 'Pay type' },
  paymentStatus: {
    key: 'paymentStatus',
    header: 'Payment status',
    get: (t) => t.transactionDetails?.paymentMethod?.paymentStatus,
  },
  paidOn: { key: 'paidOn', header: 'Paid on', kind: 'date', get: (t) => t.transactionDetails?.purchaseDetails?.paidOn },
} satisfies Record<string, Column<PayOrderComplete>>

export const payOrderCompleteView = defineView<PayOrderComplete>({
  name: 'transaction',
  columns: [pay.transactionId, pay.transactionStatus, pay.amount, pay.payType, pay.paymentStatus, pay.paidOn],
  detail: [
    pay.transactionId,
    pay.transactionStatus,
    { key: 'orderId', header: 'Order', get: (t) => t.transactionDetails?.purchaseDetails?.orderId },
    {
      key: 'referenceOrderId',
      header: 'Reference',
      get: (t) => t.transactionDetails?.purchaseDetails?.referenceOrderId,
    },
    pay.amount,
    { key: 'surchargeAmount', header: 'Surcharge', kind: 'minor', currency: payCurrency },
    pay.payType,
    {
      key: 'paymentMethodType',
      header: 'Payment method',
      get: (t) => t.transactionDetails?.paymentMethod?.paymentMethodType,
    },
    { key: 'accountHint', header: 'Account', get: (t) => t.transactionDetails?.paymentMethod?.accountHint },
    pay.paymentStatus,
    pay.paidOn,
  ],
})

// TransactionDetails: everything sits under purchaseDetails and paymentMethod.
const purchase = (t: Transaction) => t.purchaseDetails
const detailsCurrency = (t: Transaction) => purchase(t)?.amount?.currency

const tx = {
  transactionId: { key: 'transactionId', header: 'Transaction', get: (t) => purchase(t)?.transactionId },
  orderId: { key: 'orderId', header: 'Order', get: (t) => purchase(t)?.orderId },
  status: { key: 'status', header: 'Status', get: (t) => purchase(t)?.status },
  amount: { key: 'amount', header: 'Amount', kind: 'money', get: (t) => purchase(t)?.amount },
  refundedAmount: {
    key: 'refundedAmount',
    header: 'Refunded',
    kind: 'minor',
    get: (t) => purchase(t)?.refundedAmount,
    currency: detailsCurrency,
  },
  paymentStatus: { key: 'paymentStatus', header: 'Payment status', get: (t) => t.paymentMethod?.paymentStatus },
  paidOn: { key: 'paidOn', header: 'Paid on', kind: 'date', get: (t) => purchase(t)?.paidOn },
  refundIds: { key: 'refundIds', header: 'Refunds', get: (t) => purchase(t)?.refundIds },
} satisfies Record<string, Column<Transaction>>

export const transactionView = defineView<Transaction>({
  name: 'transaction',
  columns: [tx.transactionId, tx.status, tx.amount, tx.refundedAmount, tx.orderId, tx.paidOn, tx.paymentStatus, tx.refundIds],
  detail: [
    tx.transactionId,
    tx.orderId,
    { key: 'referenceOrderId', header: 'Reference', get: (t) => purchase(t)?.referenceOrderId },
    { key: 'merchantId', header: 'Merchant', get: (t) => purchase(t)?.merchantId },
    { key: 'merchantName', header: 'Merchant name', get: (t) => purchase(t)?.merchantName },
    tx.status,
    { key: 'orderType', header: 'Order type', get: (t) => purchase(t)?.orderType },
    { key: 'payType', header: 'Pay type', get: (t) => purchase(t)?.payType },
    { key: 'description', header: 'Description', get: (t) => purchase(t)?.description },
    tx.amount,
    {
      key: 'surchargeAmount',
      header: 'Surcharge',
      kind: 'minor',
      get: (t) => purchase(t)?.surchargeAmount,
      currency: detailsCurrency,
    },
    tx.refundedAmount,
    {
      key: 'serviceFees',
      header: 'Service fees',
      kind: 'minor',
      get: (t) => t.serviceFees?.totalAmount,
      currency: detailsCurrency,
    },
    { key: 'paymentMethodType', header: 'Payment method', get: (t) => t.paymentMethod?.paymentMethodType },
    { key: 'accountHint', header: 'Account', get: (t) => t.paymentMethod?.accountHint },
    tx.paymentStatus,
    { key: 'paymentFailure', header: 'Payment failure', kind: 'json', get: (t) => t.paymentMethod?.paymentFailure },
    tx.paidOn,
    tx.refundIds,
    { key: 'disputeIds', header: 'Disputes', get: (t) => purchase(t)?.disputeIds },
    { key: 'orderMetadata', header: 'Order metadata', kind: 'json', get: (t) => purchase(t)?.orderMetadata, display: (value) => metadataCell(value) },
    { key: 'createdAt', header: 'Created', kind: 'date', get: (t) => purchase(t)?.createdAt },
    { key: 'updatedAt', header: 'Updated', kind: 'date', get: (t) => purchase(t)?.updatedAt },
  ],
})

/**
 * `payto pay`: the transaction it paid. Its JSON has `transactionId` first, at the top (where
 * `orders pay` prints it), so `--query transactionId` gives it; the rest is the transaction as
 * `transactions get` prints it.
 */
export const paidTransactionView = defineView<Transaction>({
  ...transactionView,
  json: (t) => ({ transactionId: t.purchaseDetails?.transactionId, ...t }),
})

// The outcome of pay: a transaction, or a 3DS challenge to run in the browser.
const completed = (r: PayResult) => (r.kind === 'PayOrderComplete' ? r.transaction : undefined)
const outcome: Column<PayResult> = { key: 'outcome', header: 'Outcome', get: (r) => r.kind }
const challengeId: Column<PayResult> = {
  key: 'threeDSAuthorisationId',
  header: '3DS authorisation',
  get: (r) => (r.kind === 'ThreeDSAuthorisationRequired' ? r.challenge.threeDSAuthorisationId : undefined),
}

/**
 * JSON output: the bare transaction when paid; `{ "ThreeDSAuthorisationRequired": {…} }` for
 * a challenge, keeping its envelope key so a script can tell the two apart.
 */
export const payResultView = defineView<PayResult>({
  name: 'payment',
  columns: [outcome, ...liftColumns(payOrderCompleteView.columns, completed), challengeId],
  detail: [outcome, ...liftColumns(payOrderCompleteView.detail ?? [], completed), challengeId],
  json: (r) => (r.kind === 'PayOrderComplete' ? r.transaction : { ThreeDSAuthorisationRequired: r.challenge }),
})

// One transaction in full (get, and the answer of refund, capture, cancel and transfers): the
// fields of the list view, then every movement of money on one line each way.
const timelineText = (t: Transaction): string | undefined => {
  const currency = detailsCurrency(t)
  const entries = t.timelines ?? []
  if (entries.length === 0) return undefined
  return entries
    .map((e) => {
      const amount = typeof e.amount === 'number' && currency ? ` ${formatMinorUnits(e.amount, currency)} ${currency.toUpperCase()}` : ''
      const when = e.eventTime ? ` at ${formatTimestamp(e.eventTime)}` : ''
      return `${e.eventType}${amount}${e.identifier ? ` (${e.identifier})` : ''}${when}`
    })
    .join('; ')
}

/** The transfers the emulator adds to a fetched transaction (not a contract field). */
const transfersOf = (t: Transaction): unknown => (t as Record<string, unknown>).transfers

/** `trf_… 2.50 AUD to mcht_… (Transferred)` for each transfer, on one line. */
const transfersText = (t: Transaction): string => {
  const transfers = transfersOf(t)
  if (!Array.isArray(transfers) || transfers.length === 0) return '-'
  return transfers
    .map((r: Record<string, unknown>) => {
      const money = r.amount as { minorCurrencyUnits?: unknown; currency?: unknown } | undefined
      const amount =
        typeof money?.minorCurrencyUnits === 'number' && typeof money.currency === 'string'
          ? ` ${formatMinorUnits(money.minorCurrencyUnits, money.currency)} ${money.currency}`
          : ''
      return `${String(r.transferId ?? '?')}${amount} to ${String(r.destinationMerchantId ?? '?')}${r.status ? ` (${String(r.status)})` : ''}`
    })
    .join('; ')
}

export const transactionDetailView = defineView<Transaction>({
  name: 'transaction',
  columns: transactionView.columns,
  detail: [
    ...(transactionView.detail ?? []),
    { key: 'timelines', header: 'Timeline', get: (t) => t.timelines, display: (_value, t) => timelineText(t) ?? '-' },
    { key: 'transfers', header: 'Transfers', get: transfersOf, display: (_value, t) => transfersText(t) },
  ],
})

/** The answer of `transactions refund`: the new refund and what is left to refund, with the updated transaction. */
export interface RefundOutcome {
  /** The refund this call made (the id among the transaction's refundIds that was not there before). */
  refundId: string | undefined
  refunded: { minorCurrencyUnits: number; currency: string } | undefined
  remaining: { minorCurrencyUnits: number; currency: string } | undefined
  transaction: Transaction
}

const inTransaction = (r: RefundOutcome) => r.transaction

/**
 * Table: the refund id, its amount and what remains, then the transaction's fields. JSON: the
 * updated transaction with `refundId` first, so `--query refundId` names the refund this call
 * made (docs/cli.md, Output).
 */
export const refundOutcomeView = defineView<RefundOutcome>({
  name: 'refund',
  columns: [
    { key: 'refundId', header: 'Refund' },
    { key: 'refunded', header: 'Refunded now', kind: 'money' },
    { key: 'remaining', header: 'Remaining refundable', kind: 'money' },
    ...liftColumns(transactionView.columns, inTransaction),
  ],
  detail: [
    { key: 'refundId', header: 'Refund' },
    { key: 'refunded', header: 'Refunded now', kind: 'money' },
    { key: 'remaining', header: 'Remaining refundable', kind: 'money' },
    ...liftColumns(transactionView.detail ?? [], inTransaction),
  ],
  json: (r) => ({ refundId: r.refundId, ...r.transaction }),
})

/** The answer of `transactions transfer`: the transfer it made, with the updated transaction. */
export interface TransferOutcome {
  /** The newest `FundsTransferred` entry's identifier in the transaction's timeline. */
  transferId: string | undefined
  transaction: Transaction
}

const transferred = (r: TransferOutcome) => r.transaction

/** As the refund's: the transfer id first (table, `-q`, and the top of the JSON transaction). */
export const transferOutcomeView = defineView<TransferOutcome>({
  name: 'transfer',
  columns: [{ key: 'transferId', header: 'Transfer' }, ...liftColumns(transactionDetailView.columns, transferred)],
  detail: [{ key: 'transferId', header: 'Transfer' }, ...liftColumns(transactionDetailView.detail ?? [], transferred)],
  json: (r) => ({ transferId: r.transferId, ...r.transaction }),
})
