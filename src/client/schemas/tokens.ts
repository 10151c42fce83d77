// Payment tokens: single-use references to a source of funds.
import { z } from 'zod'
import { AnyObject, MinorUnits, Money, MoneyRecord, idOf } from './common.js'

// ---------------------------------------------------------------------------------------------
// Requests (envelope kinds of `POST /tokens`)

/** A PayTo token from an Active agreement, good for an order of this amount and currency. */
export const CreatePayToToken = z.strictObject({
  amount: Money,
  agreementToken: z.string().min(1),
})
export type CreatePayToToken = z.infer<typeof CreatePayToToken>

/** A token from a saved payment source (real integrations). */
export const CreateSavedPaymentSourceToken = z.strictObject({
  paymentSourceId: idOf('psrc'),
  amount: Money,
})
export type CreateSavedPaymentSourceToken = z.infer<typeof CreateSavedPaymentSourceToken>

/** Saved-card token and Apple Pay token: fields not shown. */
export const CardPaymentSourceId = AnyObject
export const CreateApplePayToken = AnyObject

/** `POST /tokens/{merchantId}/surchargequote`: body not shown. */
export const SurchargeQuoteRequest = AnyObject

// ---------------------------------------------------------------------------------------------
// Responses

/** Envelope key `PayToToken`. */
export const PayToToken = z.looseObject({
  paymentTokenId: z.string(),
  amount: MoneyRecord,
  surchargeAmount: MinorUnits.nullish(),
  agreementUid: z.string().nullish(),
  accountIdentifierHint: z.string().nullish(),
})
export type PayToToken = z.infer<typeof PayToToken>

/** Envelope key `SavedPaymentSourceToken` (real integrations); fields read like a payment token. */
export const SavedPaymentSourceToken = z.looseObject({
  paymentTokenId: z.string().nullish(),
  paymentSourceId: z.string().nullish(),
  amount: MoneyRecord.nullish(),
  surchargeAmount: MinorUnits.nullish(),
})
export type SavedPaymentSourceToken = z.infer<typeof SavedPaymentSourceToken>

/** `GET /tokens/{id}`, from real integrations; every field optional. */
export const PaymentToken = z.looseObject({
  paymentTokenId: z.string().nullish(),
  paymentSourceId: z.string().nullish(),
  amount: MoneyRecord.nullish(),
  surchargeAmount: MinorUnits.nullish(),
  payType: z.string().nullish(),
  method: z.unknown().optional(),
  payPlanVariant: z.string().nullish(),
})
export type PaymentToken = z.infer<typeof PaymentToken>

/** Known answer envelopes of `POST /tokens`; any other single key is passed through. */
export const TOKEN_RESPONSES = {
  PayToToken,
  SavedPaymentSourceToken,
  BankAccountToken: AnyObject,
} as const
