// Pay plans: a loan to the customer, repaid in instalments.
import { z } from 'zod'
import { AnyObject, Money, idOf } from './common.js'

/**
 * `POST /payplans/offer`. Without a customer JWT the customer comes from `customerId` or the
 * `Customer-Id` header, so the field is optional here.
 */
export const PayPlanOfferRequest = z.strictObject({
  customerId: idOf('cust').optional(),
  amount: Money,
  initialPayment: z.number().int().nonnegative(),
  payPlanVariant: z.string().min(1),
})
export type PayPlanOfferRequest = z.infer<typeof PayPlanOfferRequest>

/** Bodies and records not shown. */
export const CreatePayPlan = AnyObject
export const PayPlanMaxRequest = AnyObject
export const PayPlanParametersRequest = AnyObject
export const PayPlanOffer = AnyObject
export type PayPlanOffer = z.infer<typeof PayPlanOffer>
export const PayPlan = AnyObject
export type PayPlan = z.infer<typeof PayPlan>
