// Sign-in for the checkout, and service tokens.
import { z } from 'zod'
import { AnyObject, idOf } from './common.js'

// ---------------------------------------------------------------------------------------------
// Requests

export const SignInConsumer = z.strictObject({
  customerId: idOf('cust'),
})
export type SignInConsumer = z.infer<typeof SignInConsumer>

/** Fields not shown. */
export const SignInDelegate = AnyObject
export const SignInDelegateByReferenceId = AnyObject
export const CreateServiceToken = AnyObject
export const UpdateServiceToken = AnyObject

// ---------------------------------------------------------------------------------------------
// Responses

export const SignInResult = z.looseObject({
  customerId: z.string(),
  customerDelegateId: z.string().nullish(),
  customToken: z.string(),
})
export type SignInResult = z.infer<typeof SignInResult>

/** Service token record: fields not shown. */
export const ServiceToken = AnyObject
export type ServiceToken = z.infer<typeof ServiceToken>
