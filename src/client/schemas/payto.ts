// PayTo: bank-account payment agreements, one-off or open.
import { z } from 'zod'
import { AnyObject } from './common.js'

// ---------------------------------------------------------------------------------------------
// Requests

export const AliasIdentifier = z.strictObject({
  Alias: z.strictObject({
    /** `Phone` is one value; e-mail, business numbers and organisation identifiers exist too. */
    aliasType: z.string().min(1),
    value: z.string().min(1),
  }),
})
export const BbanIdentifier = z.strictObject({
  /** Bank state branch and account number. */
  Bban: z.strictObject({ value: z.string().min(1) }),
})

/** Exactly one of `{Alias: {aliasType, value}}` or `{Bban: {value}}`. */
export const CustomerAccIdentifier = z.union([AliasIdentifier, BbanIdentifier], {
  error: 'expected exactly one of {"Alias": {"aliasType", "value"}} or {"Bban": {"value"}}',
})
export type CustomerAccIdentifier = z.infer<typeof CustomerAccIdentifier>

export const AgreementRequestTermsOneOff = z.strictObject({
  AgreementRequestTermsOneOff: z.strictObject({
    amount: z.strictObject({
      amount: z.number().int().positive(),
      currency: z.string().regex(/^[A-Z]{3}$/, { error: 'expected a three-letter currency code such as AUD' }),
    }),
  }),
})
export const AgreementRequestTermsOpen = z.strictObject({
  AgreementRequestTermsOpen: z.strictObject({}),
})

/** Exactly one of the one-off terms (a fixed amount) or open terms (an empty object). */
export const AgreementTerms = z.union([AgreementRequestTermsOneOff, AgreementRequestTermsOpen], {
  error: 'expected exactly one of {"AgreementRequestTermsOneOff": {"amount": {"amount", "currency"}}} or {"AgreementRequestTermsOpen": {}}',
})
export type AgreementTerms = z.infer<typeof AgreementTerms>

/** `POST /payto/agreement`. `purpose` is optional here: the contract does not say it is required. */
export const SendAgreement = z.strictObject({
  customerName: z.string().min(1),
  customerAccIdentifier: CustomerAccIdentifier,
  terms: AgreementTerms,
  purpose: z.string().optional(),
})
export type SendAgreement = z.infer<typeof SendAgreement>

// ---------------------------------------------------------------------------------------------
// Responses

/** Answer of `POST /payto/agreement`. */
export const AgreementSent = z.looseObject({
  token: z.string(),
  status: z.string().nullish(),
})
export type AgreementSent = z.infer<typeof AgreementSent>

/** Answer of `GET /payto/agreement?token=`. */
export const Agreement = z.looseObject({
  token: z.string().nullish(),
  status: z.string(),
})
export type Agreement = z.infer<typeof Agreement>

/** `GET /payto/alias`: parameters and answer not shown. */
export const AliasLookup = AnyObject
export type AliasLookup = z.infer<typeof AliasLookup>
