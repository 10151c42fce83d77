// Transactions and the money movements around them: refunds, payouts, invoices, settlement, disputes.
import { z } from 'zod'
import { AnyObject, DateOnly, MinorUnits, MoneyRecord, Timestamp } from './common.js'

// ---------------------------------------------------------------------------------------------
// Responses

export const PurchaseDetails = z.looseObject({
  orderId: z.string().nullish(),
  merchantId: z.string().nullish(),
  referenceOrderId: z.string().nullish(),
  amount: MoneyRecord.nullish(),
  surchargeAmount: MinorUnits.nullish(),
  refundedAmount: MinorUnits.nullish(),
  merchantName: z.string().nullish(),
  transactionId: z.string().nullish(),
  orderType: z.string().nullish(),
  payType: z.string().nullish(),
  description: z.string().nullish(),
  orderMetadata: z.unknown().optional(),
  status: z.string().nullish(),
  refundIds: z.array(z.string()).nullish(),
  disputeId: z.string().nullish(),
  disputeIds: z.array(z.string()).nullish(),
  paidOn: DateOnly.nullish(),
  createdAt: Timestamp.nullish(),
  updatedAt: Timestamp.nullish(),
})
export type PurchaseDetails = z.infer<typeof PurchaseDetails>

export const PaymentMethod = z.looseObject({
  paymentMethodType: z.string().nullish(),
  accountHint: z.string().nullish(),
  paymentStatus: z.string().nullish(),
  /** Null when the payment did not fail; its shape is not published. */
  paymentFailure: z.unknown().optional(),
})
export type PaymentMethod = z.infer<typeof PaymentMethod>

export const ServiceFees = z.looseObject({
  variableAmount: MinorUnits.nullish(),
  fixedAmount: MinorUnits.nullish(),
  taxAmount: MinorUnits.nullish(),
  totalAmount: MinorUnits.nullish(),
})
export type ServiceFees = z.infer<typeof ServiceFees>

export const TimelineEntry = z.looseObject({
  eventType: z.string(),
  eventTime: Timestamp.nullish(),
  amount: MinorUnits.nullish(),
  /** The refund identifier on a refund entry, otherwise null. */
  identifier: z.string().nullish(),
})
export type TimelineEntry = z.infer<typeof TimelineEntry>

/** Body of a transaction update answer, and `transactionDetails` of `PayOrderComplete`. */
export const TransactionDetails = z.looseObject({
  purchaseDetails: PurchaseDetails,
  paymentMethod: PaymentMethod.nullish(),
  serviceFees: ServiceFees.nullish(),
  customerDetails: z.looseObject({}).nullish(),
  timelines: z.array(TimelineEntry).nullish(),
})
export type TransactionDetails = z.infer<typeof TransactionDetails>

/** Answer of pay: envelope key `PayOrderComplete`. */
export const PayOrderComplete = z.looseObject({
  transactionId: z.string(),
  transactionStatus: z.string(),
  transactionDetails: TransactionDetails.nullish(),
  amount: MinorUnits.nullish(),
  currency: z.string().nullish(),
  surchargeAmount: MinorUnits.nullish(),
  payType: z.string().nullish(),
})
export type PayOrderComplete = z.infer<typeof PayOrderComplete>

/**
 * `GET /transactions/{id}`: shape not shown; read as TransactionDetails, whose other parts are
 * optional but `purchaseDetails` is required: a refund and the other money actions are judged
 * from it, so an answer without it (`{"foo":1}`) is refused, never read as an empty record.
 * What a guard read needs beyond that (the amount) is checked by `checkGuardRead` (guard-read.ts).
 */
export const Transaction = TransactionDetails
export type Transaction = z.infer<typeof Transaction>

/** Refund record (`GET /transactions/refunds`), from real integrations; every field optional. */
export const Refund = z.looseObject({
  refundId: z.string().nullish(),
  transactionId: z.string().nullish(),
  transactionAmount: MoneyRecord.nullish(),
  orderId: z.string().nullish(),
  referenceOrderId: z.string().nullish(),
  description: z.string().nullish(),
})
export type Refund = z.infer<typeof Refund>

/** Records whose fields the contract does not show. */
export const Payout = AnyObject
export type Payout = z.infer<typeof Payout>
export const Invoice = AnyObject
export type Invoice = z.infer<typeof Invoice>
export const SettlementEntry = AnyObject
export type SettlementEntry = z.infer<typeof SettlementEntry>
export const Dispute = AnyObject
export type Dispute = z.infer<typeof Dispute>

// ---------------------------------------------------------------------------------------------
// Requests

/** `PATCH /transactions/{id}` with `CreateRefund`: the amount in cents, a positive integer. */
export const CreateRefund = z.strictObject({
  refundAmount: z.number().int().positive(),
})
export type CreateRefund = z.infer<typeof CreateRefund>

/** The other transaction actions: fields not shown, so any object passes. */
export const ReverseFundsTransfer = AnyObject
export const TransferFunds = AnyObject
export const CaptureFunds = AnyObject
export const CancelAuthorisation = AnyObject

/** `POST /transactions/payouts`: body not shown. */
export const RequestPayout = AnyObject
