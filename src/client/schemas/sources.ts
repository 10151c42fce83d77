// Payment sources: reusable sources of funds, and blocked-card events.
import { z } from 'zod'
import { AnyObject, Timestamp } from './common.js'

// ---------------------------------------------------------------------------------------------
// Requests (envelope kinds of `POST /sources`)

/** Save a PayTo open agreement as a payment source. */
export const CreateSavedPaymentSource = z.strictObject({
  sourceMethod: z.strictObject({
    PayToMethod: z.strictObject({ agreementToken: z.string().min(1) }),
  }),
  usageScope: z.literal('ScopeOrganisation').optional(),
})
export type CreateSavedPaymentSource = z.infer<typeof CreateSavedPaymentSource>

/** Raw card details (PCI-certified integrators only): fields not shown. */
export const CreateCardPaymentSource = AnyObject

/** `PATCH /sources/blockedcards/{id}`: actions not shown. */
export const BlockedCardAction = AnyObject

// ---------------------------------------------------------------------------------------------
// Responses

export const PayToMethodResp = z.looseObject({
  agreementUid: z.string().nullish(),
  accountIdentifierHint: z.string().nullish(),
})
export type PayToMethodResp = z.infer<typeof PayToMethodResp>

/** A saved payment source. For PayTo, `sourceMethod` is `{ PayToMethodResp: {...} }`. */
export const PaymentSource = z.looseObject({
  paymentSourceId: z.string(),
  customerId: z.string().nullish(),
  merchantId: z.string().nullish(),
  sourceMethod: z.looseObject({ PayToMethodResp: PayToMethodResp.optional() }).nullish(),
  usageScope: z.string().nullish(),
  createdAt: Timestamp.nullish(),
  updatedAt: Timestamp.nullish(),
  legacyResp: z.unknown().optional(),
})
export type PaymentSource = z.infer<typeof PaymentSource>

/** Blocked-card event: fields not shown. */
export const BlockedCardEvent = AnyObject
export type BlockedCardEvent = z.infer<typeof BlockedCardEvent>
