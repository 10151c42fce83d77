// Shapes shared by every resource group: money, addresses, timestamps, dates and identifiers.
//
// House convention for every file under schemas/:
//   - request bodies are strict (z.strictObject): a key the contract does not know is refused;
//   - response records are loose (z.looseObject): fields the service adds later are kept;
//   - records whose fields the contract does not show are loose objects with every field optional.
// Strict request shapes use the plain name (`Money`, `Address`); their loose response
// counterparts end in `Record` (`MoneyRecord`, `AddressRecord`).
//
// This folder imports nothing but zod so that the emulator can share it without undici.
import { z } from 'zod'

// ---------------------------------------------------------------------------------------------
// Identifiers

/** Prefixes of the identifiers the contract names, plus `dispute` from real integrations. */
export const ID_PREFIXES = {
  customer: 'cust',
  customerDelegate: 'custd',
  merchant: 'mcht',
  marketplace: 'mktp',
  order: 'ordr',
  paymentToken: 'ptkn',
  paymentSource: 'psrc',
  transaction: 'tran',
  refund: 'rfnd',
  webhookSubscription: 'webhook',
  dispute: 'dispute',
} as const

export type IdKind = keyof typeof ID_PREFIXES
export type IdPrefix = (typeof ID_PREFIXES)[IdKind]

const OPAQUE = '[A-Za-z0-9_-]+'

/** True when `value` looks like `<prefix>_<opaque>` (the opaque part is URL-safe base64). */
export function hasIdPrefix(value: string, prefix: string): boolean {
  return new RegExp(`^${prefix}_${OPAQUE}$`).test(value)
}

/** A string identifier that must start with `<prefix>_`, e.g. `idOf('ordr')`. */
export function idOf(prefix: IdPrefix | (string & {})) {
  return z.string().regex(new RegExp(`^${prefix}_${OPAQUE}$`), { error: `expected an identifier starting with "${prefix}_"` })
}

// ---------------------------------------------------------------------------------------------
// Scalars

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i
const DATE = /^\d{4}-\d{2}-\d{2}$/

/**
 * ISO 8601 date-time. The contract promises UTC with milliseconds; real answers carry micro- or
 * nanoseconds, so any fractional precision (or none) is accepted, with `Z` or an offset.
 */
export const Timestamp = z.string().regex(TIMESTAMP, { error: 'expected an ISO 8601 date-time' })
/** A calendar date, `YYYY-MM-DD`. */
export const DateOnly = z.string().regex(DATE, { error: 'expected a date YYYY-MM-DD' })
export { DateOnly as Date }

/** A three-letter currency code as sent by the client (upper case). */
export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, { error: 'expected a three-letter currency code such as AUD' })

/** An integer amount in minor units (cents). */
export const MinorUnits = z.number().int()

/** Free-form JSON object (order metadata, subscription metadata …). */
export const Metadata = z.record(z.string(), z.unknown())

/** E.164 telephone number, e.g. +61401234567. */
export const PhoneNumberE164 = z.string().regex(/^\+[1-9]\d{5,14}$/, { error: 'expected a telephone number in E.164 form, such as +61401234567' })

/** An e-mail address (deliberately lenient: something@something.something). */
export const EmailAddress = z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: 'expected an e-mail address' })

// ---------------------------------------------------------------------------------------------
// Money and Address

/** Money in a request: integer minor units and a currency code. */
export const Money = z.strictObject({
  minorCurrencyUnits: MinorUnits.nonnegative(),
  currency: CurrencyCode,
})
export type Money = z.infer<typeof Money>

/** Money in a response: tolerant of extra fields and of lower-case codes. */
export const MoneyRecord = z.looseObject({
  minorCurrencyUnits: MinorUnits,
  currency: z.string(),
})
export type MoneyRecord = z.infer<typeof MoneyRecord>

/** Address in a request. `state` is optional because not every country has one; `line2` comes from real clients. */
export const Address = z.strictObject({
  line1: z.string().min(1),
  line2: z.string().optional(),
  city: z.string().min(1),
  state: z.string().optional(),
  postalCode: z.string().min(1),
  country: z.string().regex(/^[A-Za-z]{2}$/, { error: 'expected a two-letter country code such as AU' }),
})
export type Address = z.infer<typeof Address>

export const AddressRecord = z.looseObject({
  line1: z.string().nullish(),
  line2: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
  postalCode: z.string().nullish(),
  country: z.string().nullish(),
})
export type AddressRecord = z.infer<typeof AddressRecord>

/** Any JSON object: the body of operations whose shape the contract does not show. */
export const AnyObject = z.looseObject({})
export type AnyObject = z.infer<typeof AnyObject>

// ---------------------------------------------------------------------------------------------
// Readable validation messages

/**
 * One line describing what is wrong, naming the field: `items[0].amount.currency: expected a
 * three-letter currency code such as AUD`. At most three problems are listed.
 */
export function describeIssues(error: z.ZodError, root?: string): string {
  const parts = error.issues.slice(0, 3).map((issue) => describeIssue(issue, root))
  if (error.issues.length > 3) parts.push(`and ${error.issues.length - 3} more`)
  return parts.join('; ')
}

function describeIssue(issue: z.core.$ZodIssue, root?: string): string {
  const path = formatPath([...(root ? [root] : []), ...issue.path])
  let message = issue.message
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ')
    message = `unknown field${issue.keys.length === 1 ? '' : 's'} ${keys}`
  } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    message = `is required (expected ${issue.expected})`
  } else {
    message = message.replace(/^Invalid input: /, '')
  }
  return path ? `${path}: ${message}` : message
}

/** `['items', 0, 'amount']` → `items[0].amount`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out ? `.${String(part)}` : String(part)
  }
  return out
}
