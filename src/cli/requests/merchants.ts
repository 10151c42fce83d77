// Builds merchant, bank account, beneficial owner and marketplace customer bodies from parsed
// flags, and checks merchant files by their content. Pure: no I/O, no client. The contract shows
// none of these bodies: the field names are those the emulator defines (docs/emulator.md), and
// `--data` fields are sent as given, flags overriding them.
import { parseCurrency } from '../../client/money.js'
import { UsageError } from '../errors/index.js'
import { asUsage, metadataFrom } from '../flags/index.js'
import { checkCountry, checkEmail, checkNonEmpty, checkPhone } from '../validate/index.js'
import { checkAccountNumber, checkBsb, isValidAbn, isValidAcn } from '../validate/au.js'
import { consumerFields, type ConsumerFlagValues } from './customers.js'
import { previousGenerationWarnings } from './auth.js'

/** `"<line1>|<city>|<state>|<postalCode>|<country>"` for the flag named `flag`. */
export function parseAddressFlag(text: string, flag: string) {
  const parts = text.split('|').map((p) => p.trim())
  if (parts.length !== 5 || parts.some((p) => !p)) {
    throw new UsageError(
      `${flag} takes "<line1>|<city>|<state>|<postalCode>|<country>" (got "${text}")`,
      `For example ${flag} "1 Market St|Sydney|NSW|2000|AU"`,
    )
  }
  const [line1, city, state, postalCode, country] = parts as [string, string, string, string, string]
  return { line1, city, state, postalCode, country: checkCountry(country, flag) }
}

/** An ABN (11 digits) or ACN (9 digits) with a valid check sum; spaces are removed. */
export function checkBusinessNumber(input: string, flag: string): string {
  const digits = input.replace(/\s/g, '')
  if (digits.length === 11 && isValidAbn(digits)) return digits
  if (digits.length === 9 && isValidAcn(digits)) return digits
  throw new UsageError(`${flag}: "${input}" is not a valid ABN (11 digits) or ACN (9 digits) with its check digits`)
}

export function checkWebsite(input: string, flag: string): string {
  const value = input.trim()
  if (!/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(value)) throw new UsageError(`${flag} must be an http(s) address such as https://shop.example.com (got "${input}")`)
  return value
}

export function checkDomain(input: string, flag: string): string {
  const value = input.trim().toLowerCase()
  if (!/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(value)) {
    throw new UsageError(`${flag} must be a domain name such as shop.example.com (got "${input}")`)
  }
  return value
}

export interface BankAccountFlagValues {
  bsb?: string | undefined
  'account-number'?: string | undefined
  'account-name'?: string | undefined
}

/** `{bsb, accountNumber, accountName}` from the three flags, all checked; undefined when none is given. */
export function bankAccountFields(f: BankAccountFlagValues): Record<string, unknown> | undefined {
  const given = [f.bsb, f['account-number'], f['account-name']].filter((v) => v !== undefined).length
  if (given === 0) return undefined
  if (given < 3) throw new UsageError('A bank account needs --bsb, --account-number and --account-name together')
  return {
    bsb: checkBsb(f.bsb as string, '--bsb'),
    accountNumber: checkAccountNumber(f['account-number'] as string, '--account-number'),
    accountName: checkNonEmpty(f['account-name'] as string, '--account-name').trim(),
  }
}

/** `AddMerchantBankAccount {bsb, accountNumber, accountName, isPrimary?}`. */
export function addBankAccountEnvelope(f: BankAccountFlagValues & { primary?: boolean | undefined }) {
  const account = bankAccountFields(f)
  if (!account) throw new UsageError('A bank account needs --bsb, --account-number and --account-name')
  if (f.primary) account.isPrimary = true
  return { AddMerchantBankAccount: account }
}

export interface MerchantFlagValues extends BankAccountFlagValues {
  name?: string | undefined
  industry?: string | undefined
  email?: string | undefined
  phone?: string | undefined
  'business-number'?: string | undefined
  address?: string | undefined
  website?: string | undefined
  currency?: string | undefined
  'supports-b2b'?: boolean | undefined
  'manual-payouts'?: boolean | undefined
  'wallet-domain'?: string[] | undefined
  metadata?: string[] | undefined
}

/** Merchant fields from flags (only those given), each checked. */
export function merchantFields(f: MerchantFlagValues): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  if (f.name !== undefined) body.name = checkNonEmpty(f.name, '--name').trim()
  if (f.industry !== undefined) body.industry = checkNonEmpty(f.industry, '--industry').trim()
  if (f.email !== undefined) body.emailAddress = checkEmail(f.email, '--email')
  if (f.phone !== undefined) body.phoneNumber = checkPhone(f.phone, '--phone')
  if (f['business-number'] !== undefined) body.businessNumber = checkBusinessNumber(f['business-number'], '--business-number')
  if (f.address !== undefined) body.address = parseAddressFlag(f.address, '--address')
  if (f.website !== undefined) body.websiteUrl = checkWebsite(f.website, '--website')
  if (f.currency !== undefined) body.currency = asUsage(() => parseCurrency(f.currency as string), '--currency')
  if (f['supports-b2b'] !== undefined) body.supportsB2B = f['supports-b2b']
  if (f['manual-payouts'] !== undefined) body.manualPayoutsEnabled = f['manual-payouts']
  if (f['wallet-domain']?.length) body.walletPayDomains = f['wallet-domain'].map((d) => checkDomain(d, '--wallet-domain'))
  const metadata = metadataFrom(f.metadata)
  if (metadata) body.metadata = metadata
  return body
}

/** `POST /merchants` body: `--data` fields, then flags; a sub-merchant needs a name and an industry. */
export function createMerchantBody(f: MerchantFlagValues, data: Record<string, unknown> | undefined) {
  const body: Record<string, unknown> = { ...data, ...merchantFields(f) }
  const account = bankAccountFields(f)
  if (account) body.bankAccount = account
  if (typeof body.name !== 'string' || typeof body.industry !== 'string') {
    throw new UsageError('A merchant needs --name and --industry (or both in --data)', 'See `payfac merchants industries` for the industries')
  }
  return { body, warnings: previousGenerationWarnings(data) }
}

/** `UpdateMerchantBusinessProfile` from `--data` and/or the field flags; something must change. */
export function businessProfileEnvelope(f: MerchantFlagValues, data: Record<string, unknown> | undefined) {
  const body: Record<string, unknown> = { ...data, ...merchantFields(f) }
  if (Object.keys(body).length === 0) throw new UsageError('Nothing to update: give --data or a field flag such as --name or --website')
  return { envelope: { UpdateMerchantBusinessProfile: body }, warnings: previousGenerationWarnings(data) }
}

export interface OwnerFlagValues {
  'given-name'?: string | undefined
  'middle-name'?: string | undefined
  'family-name'?: string | undefined
  'date-of-birth'?: string | undefined
  email?: string | undefined
  phone?: string | undefined
  role?: string | undefined
  ownership?: string | undefined
  address?: string | undefined
}

/** `12.5` or `12.5%` as a number from 0 to 100. */
export function parsePercentage(input: string, flag: string): number {
  const text = input.trim().replace(/%$/, '')
  const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN
  if (!(value >= 0 && value <= 100)) throw new UsageError(`${flag} must be a percentage from 0 to 100, such as 25 or 12.5 (got "${input}")`)
  return value
}

/** A beneficial owner body: `--data` fields, then flags. A whole owner needs a given and a family name. */
export function ownerBody(f: OwnerFlagValues, data: Record<string, unknown> | undefined) {
  const body: Record<string, unknown> = { ...data }
  if (f['given-name'] !== undefined) body.givenName = checkNonEmpty(f['given-name'], '--given-name')
  if (f['middle-name'] !== undefined) body.middleName = checkNonEmpty(f['middle-name'], '--middle-name')
  if (f['family-name'] !== undefined) body.familyName = checkNonEmpty(f['family-name'], '--family-name')
  if (f['date-of-birth'] !== undefined) body.dateOfBirth = checkBirthDate(f['date-of-birth'])
  if (f.email !== undefined) body.emailAddress = checkEmail(f.email, '--email')
  if (f.phone !== undefined) body.phoneNumber = checkPhone(f.phone, '--phone')
  if (f.role !== undefined) body.role = f.role
  if (f.ownership !== undefined) body.ownershipPercentage = parsePercentage(f.ownership, '--ownership')
  if (f.address !== undefined) body.address = parseAddressFlag(f.address, '--address')
  if (typeof body.givenName !== 'string' || typeof body.familyName !== 'string') {
    throw new UsageError('A beneficial owner needs --given-name and --family-name (or both in --data)')
  }
  return { body, warnings: previousGenerationWarnings(data) }
}

function checkBirthDate(input: string): string {
  const value = input.trim()
  const time = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) {
    throw new UsageError(`--date-of-birth must be a date YYYY-MM-DD (got "${input}")`)
  }
  return value
}

/** `POST /marketplaces/customer` body: consumer-like fields (the emulator's), keyed by e-mail address. */
export function marketplaceCustomerBody(f: Omit<ConsumerFlagValues, 'verified'>, data: Record<string, unknown> | undefined) {
  const body: Record<string, unknown> = { ...data, ...consumerFields(f) }
  if (typeof body.emailAddress !== 'string') {
    throw new UsageError('A marketplace customer needs --email (or emailAddress in --data)', 'For example --email jo@example.com --given-name Jo')
  }
  return { body, warnings: previousGenerationWarnings(data) }
}

// Merchant files ---------------------------------------------------------------------------------

/** `--field name=value` pairs as form fields, with `--purpose` as the `purpose` field. */
export function fileFormFields(purpose: string | undefined, pairs: string[] | undefined): Record<string, string> | undefined {
  const fields: Record<string, string> = {}
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new UsageError(`--field takes name=value (got "${pair}")`)
    fields[pair.slice(0, at)] = pair.slice(at + 1)
  }
  if (purpose !== undefined) fields.purpose = checkNonEmpty(purpose, '--purpose')
  return Object.keys(fields).length > 0 ? fields : undefined
}
