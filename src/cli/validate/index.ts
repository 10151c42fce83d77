// Checks of single values given on the command line. Each returns the value (normalised) or
// throws a UsageError that names the flag and says how to fix it.
import { UsageError } from '../errors/index.js'
import { sanitizeLine } from '../../output/sanitize.js'

export function checkEmail(input: string, flag: string): string {
  const value = input.trim()
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new UsageError(`${flag} must be an e-mail address (got "${input}")`)
  return value
}

/** E.164: a plus sign, then 8 to 15 digits, the first not zero. Spaces and dashes are removed. */
export function checkPhone(input: string, flag: string): string {
  const value = input.replace(/[\s-]/g, '')
  if (!/^\+[1-9]\d{7,14}$/.test(value)) {
    throw new UsageError(`${flag} must be a phone number in E.164 form (got "${input}")`, 'For example +61401234567')
  }
  return value
}

export function checkCountry(input: string, flag: string): string {
  const value = input.trim().toUpperCase()
  if (!/^[A-Z]{2}$/.test(value)) throw new UsageError(`${flag}: the country must be a two-letter code such as AU (got "${input}")`)
  return value
}

/**
 * An identifier whose format the contract does not give (invoices, payouts, loan statements …):
 * letters, digits and `_ - . :` only, so that it can never change the path it is put in
 * (no `/`, `?`, `#`, `%` or spaces). Never a length: that is the service's to judge.
 */
export function checkIdText(input: string, what: string): string {
  const value = input.trim()
  if (!value) throw new UsageError(`${what} must not be empty`)
  if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(value)) {
    throw new UsageError(`${what} may hold only letters, digits, _ - . and : (got "${input}")`, 'Copy the id from a list or get command')
  }
  return value
}

export function checkNonEmpty(input: string, flag: string): string {
  if (!input.trim()) throw new UsageError(`${flag} must not be empty`)
  return input
}

/**
 * A reference payfac looks orders up by (`orders create`, `payto pay|charge`): not empty, and
 * without a comma, which the service's list filter may read as several references (the emulator
 * does), so that the order could not be found again by it: a re-run from another folder would
 * then make a second one.
 */
export function checkReference(input: string, flag: string): string {
  const text = checkNonEmpty(input, flag).trim()
  if (text.includes(',')) {
    throw new UsageError(
      `${flag} must not contain a comma (got "${text}"): the service's reference filter may read it as several references, and payfac could not find the order by it again`,
      'Use another character, such as - or _',
    )
  }
  return text
}

/** Field names of the previous generation of the interface, with their version 3.0 names. */
export const PREVIOUS_GENERATION_FIELDS: Readonly<Record<string, string>> = {
  internalOrderId: 'referenceOrderId',
  internalCustomerId: 'referenceCustomerId',
  email: 'emailAddress',
  phoneno: 'phoneNumber',
  firstName: 'givenName',
  lastName: 'familyName',
  platform: 'marketplace',
}

/** Finds previous-generation field names anywhere in a body: `[path, oldName, newName]`. */
export function findPreviousGenerationFields(body: unknown, path = ''): Array<[string, string, string]> {
  if (!body || typeof body !== 'object') return []
  const found: Array<[string, string, string]> = []
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const here = path ? `${path}.${key}` : key
    const replacement = PREVIOUS_GENERATION_FIELDS[key]
    if (replacement) found.push([sanitizeLine(here), key, replacement])
    found.push(...findPreviousGenerationFields(value, here))
  }
  return found
}

/** Refuses a body that uses previous-generation field names (for operations whose shape the contract shows). */
export function refusePreviousGenerationFields(body: unknown, flag = '--data'): void {
  const [first] = findPreviousGenerationFields(body)
  if (first) {
    const [path, old, now] = first
    throw new UsageError(`${flag} uses "${old}" (at ${path}), a field of the previous interface generation`, `Version 3.0 calls it "${now}"`)
  }
}
