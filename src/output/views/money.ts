// The money side of /transactions: payouts, merchant invoices, settlement entries and the
// settlement report's summary, disputes, refunds. The contract shows none of these records; the
// columns are the fields the field notes (refunds) and the emulator define. A missing field shows
// as -, and JSON prints whatever came.
import { formatMoney } from '../../client/money.js'
import type { Dispute, Invoice, Payout, Refund, SettlementEntry } from '../../client/schemas/transactions.js'
import { isMoney } from '../flatten.js'
import { defineView, type Column } from '../view.js'

type Loose = Record<string, unknown>
const created: Column<Loose> = { key: 'createdAt', header: 'Created', kind: 'date' }
const amount: Column<Loose> = { key: 'amount', header: 'Amount', kind: 'money' }
const status: Column<Loose> = { key: 'status', header: 'Status' }
const merchantId: Column<Loose> = { key: 'merchantId', header: 'Merchant' }

/** `062-000 *****678`: where a payout went. */
function bankText(p: Loose): string | undefined {
  const bank = p.bankAccount as Loose | undefined
  if (!bank || typeof bank !== 'object') return typeof p.bankAccountId === 'string' ? p.bankAccountId : undefined
  return [bank.bsb, bank.accountNumberHint].filter((v) => typeof v === 'string').join(' ') || (bank.bankAccountId as string | undefined)
}

/** `Payment 2 × 24.70 AUD; ServiceFee 2 × -1.08 AUD`: totals by entry type. */
function byTypeText(groups: unknown): string | undefined {
  if (!Array.isArray(groups) || groups.length === 0) return undefined
  return groups.map((g: Loose) => `${String(g.type)} ${String(g.count)} × ${isMoney(g.amount) ? formatMoney(g.amount) : '-'}`).join('; ')
}

const payoutId: Column<Loose> = { key: 'payoutId', header: 'Payout' }
const payoutType: Column<Loose> = { key: 'payoutType', header: 'Type' }
const expected: Column<Loose> = { key: 'expectedArrivalOn', header: 'Expected on', kind: 'date' }
const bank: Column<Loose> = { key: 'bankAccount', header: 'Bank account', get: bankText }

export const payoutView = defineView<Payout>({
  name: 'payout',
  columns: [payoutId, payoutType, status, amount, bank, expected, created],
  detail: [
    payoutId,
    merchantId,
    payoutType,
    status,
    amount,
    { key: 'description', header: 'Description' },
    bank,
    { key: 'breakdown.broughtForward', header: 'Brought forward', kind: 'money' },
    { key: 'breakdown.entries', header: 'Entries', display: (v) => byTypeText(v) ?? '-' },
    { key: 'breakdown.carriedForward', header: 'Carried forward', kind: 'money' },
    { key: 'disbursement.reference', header: 'Reference' },
    expected,
    { key: 'paidAt', header: 'Paid at', kind: 'date' },
    created,
  ],
})

const invoiceId: Column<Loose> = { key: 'invoiceId', header: 'Invoice' }
const period: Column<Loose> = { key: 'period', header: 'Period' }
const total: Column<Loose> = { key: 'totalAmount', header: 'Total', kind: 'money' }

export const invoiceView = defineView<Invoice>({
  name: 'invoice',
  columns: [
    invoiceId,
    period,
    status,
    { key: 'lineCount', header: 'Lines' },
    total,
    { key: 'amountDue', header: 'Due', kind: 'money' },
    { key: 'issuedOn', header: 'Issued', kind: 'date' },
  ],
  detail: [
    invoiceId,
    merchantId,
    period,
    status,
    { key: 'issuedOn', header: 'Issued', kind: 'date' },
    { key: 'lineCount', header: 'Lines', get: (i) => i.lineCount ?? (Array.isArray(i.lines) ? i.lines.length : undefined) },
    { key: 'subtotalAmount', header: 'Subtotal', kind: 'money' },
    { key: 'taxAmount', header: 'Tax', kind: 'money' },
    total,
    { key: 'amountDue', header: 'Due', kind: 'money' },
    { key: 'settledBy', header: 'Settled by' },
    { key: 'billingDetails.name', header: 'Bill to' },
    { key: 'billingDetails.businessNumber', header: 'ABN/ACN' },
  ],
})

const entry = {
  settlementEntryId: { key: 'settlementEntryId', header: 'Entry' },
  type: { key: 'type', header: 'Type' },
  amount,
  transactionId: { key: 'transactionId', header: 'Transaction' },
  payoutId,
  availableOn: { key: 'availableOn', header: 'Available on', kind: 'date' },
  createdAt: created,
} satisfies Record<string, Column<SettlementEntry>>

export const settlementEntryView = defineView<SettlementEntry>({
  name: 'settlement entry',
  columns: [entry.settlementEntryId, entry.type, entry.amount, entry.transactionId, entry.payoutId, entry.availableOn, entry.createdAt],
  detail: [
    entry.settlementEntryId,
    merchantId,
    entry.type,
    entry.amount,
    { key: 'description', header: 'Description' },
    entry.transactionId,
    { key: 'orderId', header: 'Order' },
    { key: 'refundId', header: 'Refund' },
    entry.payoutId,
    entry.availableOn,
    entry.createdAt,
  ],
})

/** The summary of a settlement report. */
export const settlementSummaryView = defineView<Loose>({
  name: 'settlement summary',
  columns: [
    { key: 'currency', header: 'Currency' },
    payoutId,
    { key: 'createdAfter', header: 'From', kind: 'date' },
    { key: 'createdBefore', header: 'To', kind: 'date' },
    { key: 'entryCount', header: 'Entries' },
    { key: 'totalCredits', header: 'Credits', kind: 'money' },
    { key: 'totalDebits', header: 'Debits', kind: 'money' },
    { key: 'net', header: 'Net', kind: 'money' },
    { key: 'byType', header: 'By type', display: (v) => byTypeText(v) ?? '-' },
  ],
})

export const disputeView = defineView<Dispute>({
  name: 'dispute',
  columns: [
    { key: 'disputeId', header: 'Dispute' },
    { key: 'transactionId', header: 'Transaction' },
    status,
    amount,
    { key: 'reason', header: 'Reason' },
    { key: 'evidenceDueOn', header: 'Evidence due', kind: 'date' },
    created,
  ],
  detail: [
    { key: 'disputeId', header: 'Dispute' },
    { key: 'transactionId', header: 'Transaction' },
    { key: 'orderId', header: 'Order' },
    merchantId,
    { key: 'customerId', header: 'Customer' },
    status,
    amount,
    { key: 'reason', header: 'Reason' },
    { key: 'evidenceDueOn', header: 'Evidence due', kind: 'date' },
    created,
    { key: 'resolvedAt', header: 'Resolved', kind: 'date' },
  ],
})

/** The refunded amount: `amount` in the emulator, `refundAmount` in some integrations. */
const refunded = (r: Loose) => r.amount ?? r.refundAmount

const refund = {
  refundId: { key: 'refundId', header: 'Refund' },
  transactionId: { key: 'transactionId', header: 'Transaction' },
  amount: { key: 'amount', header: 'Refunded', kind: 'money', get: refunded },
  transactionAmount: { key: 'transactionAmount', header: 'Of', kind: 'money' },
  orderId: { key: 'orderId', header: 'Order' },
  referenceOrderId: { key: 'referenceOrderId', header: 'Reference' },
  createdAt: created,
} satisfies Record<string, Column<Refund>>

export const refundView = defineView<Refund>({
  name: 'refund',
  columns: [refund.refundId, refund.transactionId, refund.amount, refund.transactionAmount, refund.orderId, refund.referenceOrderId, refund.createdAt],
  detail: [
    refund.refundId,
    refund.transactionId,
    refund.amount,
    refund.transactionAmount,
    refund.orderId,
    refund.referenceOrderId,
    { key: 'description', header: 'Description' },
    status,
    { key: 'customerId', header: 'Customer' },
    merchantId,
    refund.createdAt,
  ],
})
