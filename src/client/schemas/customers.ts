// Customers, organisation customers, delegates and the KYC check.
import { z } from 'zod'
import { AnyObject, EmailAddress, Metadata, PhoneNumberE164 } from './common.js'

// ---------------------------------------------------------------------------------------------
// Requests

/** Consumer customer, identified per merchant by `emailAddress` (fields from real integrations). */
export const UpsertConsumerCustomer = z.strictObject({
  emailAddress: EmailAddress,
  phoneNumber: PhoneNumberE164.optional(),
  referenceCustomerId: z.string().min(1).optional(),
  givenName: z.string().optional(),
  middleName: z.string().optional(),
  familyName: z.string().optional(),
  isVerified: z.boolean().optional(),
  metadata: Metadata.optional(),
})
export type UpsertConsumerCustomer = z.infer<typeof UpsertConsumerCustomer>

/**
 * The registration the service's shop plug-in sends for every signed-in shopper (field notes):
 * a consumer upsert keyed by `emailAddress`, answered with the `customerId`.
 */
export const RegisterPluginConsumerCustomer = z.strictObject({
  emailAddress: EmailAddress,
  referenceCustomerId: z.string().optional(),
  givenName: z.string().optional(),
  familyName: z.string().optional(),
})
export type RegisterPluginConsumerCustomer = z.infer<typeof RegisterPluginConsumerCustomer>

/** Organisation customer, identified per merchant by `referenceCustomerId`; other fields not shown. */
export const UpsertOrganisationCustomer = z.looseObject({
  referenceCustomerId: z.string().min(1),
})
export type UpsertOrganisationCustomer = z.infer<typeof UpsertOrganisationCustomer>

/** Bodies not shown. */
export const LinkDelegateToCustomer = AnyObject
export const UpsertCustomerDelegate = AnyObject
export const KycRequest = AnyObject

// ---------------------------------------------------------------------------------------------
// Responses

/** Answer of a customer upsert. */
export const CustomerUpserted = z.looseObject({
  customerId: z.string(),
  merchantId: z.string().nullish(),
})
export type CustomerUpserted = z.infer<typeof CustomerUpserted>

/** Customer record: beyond the identifiers, fields not shown; all optional. */
export const Customer = z.looseObject({
  customerId: z.string().nullish(),
  merchantId: z.string().nullish(),
  emailAddress: z.string().nullish(),
  referenceCustomerId: z.string().nullish(),
  phoneNumber: z.string().nullish(),
  givenName: z.string().nullish(),
  middleName: z.string().nullish(),
  familyName: z.string().nullish(),
})
export type Customer = z.infer<typeof Customer>

export const CustomerDelegate = z.looseObject({
  customerDelegateId: z.string().nullish(),
  customerId: z.string().nullish(),
})
export type CustomerDelegate = z.infer<typeof CustomerDelegate>

export const KycResult = AnyObject
export type KycResult = z.infer<typeof KycResult>
