// Builds PayTo requests from parsed flags: alias look-ups and agreement bodies. Pure: no I/O,
// no client. `agreementBodyFromFlags()` is shared by every command that sends an agreement.
import type { SendAgreement } from '../../client/schemas/payto.js'
import { UsageError } from '../errors/index.js'
import { minorUnitsFrom } from '../flags/index.js'
import { checkNonEmpty, checkEmail, checkPhone } from '../validate/index.js'
import { checkAbn, checkAcn, checkBban } from '../validate/au.js'

/** Alias types, spelled as the service takes them in `aliasType`. */
export const ALIAS_TYPES = ['Phone', 'Email', 'ABN', 'ACN', 'ARBN', 'ARSN', 'OrgId'] as const
export type AliasType = (typeof ALIAS_TYPES)[number]

/** Checks an alias by its type (E.164 phone, e-mail, ABN/ACN/ARBN/ARSN check digits) and normalises it. */
export function checkAlias(aliasType: AliasType, input: string, flag: string): string {
  switch (aliasType) {
    case 'Phone':
      return checkPhone(input, flag)
    case 'Email':
      return checkEmail(input, flag)
    case 'ABN':
      return checkAbn(input, flag)
    case 'ACN':
    case 'ARBN':
    case 'ARSN':
      return checkAcn(input, flag, aliasType)
    case 'OrgId': {
      const value = checkNonEmpty(input, flag).trim()
      if (/\s/.test(value)) throw new UsageError(`${flag}: an organisation identifier has no spaces (got "${input}")`)
      return value
    }
  }
}

/** The query of `GET /payto/alias`. */
export function aliasQuery(aliasType: AliasType, value: string) {
  return { aliasType, value: checkAlias(aliasType, value, 'The alias') }
}

/** Account identifier flags of `payto agree`, and the alias type each one sends. */
export const IDENTIFIER_FLAGS = {
  phone: 'Phone',
  email: 'Email',
  abn: 'ABN',
  acn: 'ACN',
  arbn: 'ARBN',
  arsn: 'ARSN',
  'org-id': 'OrgId',
} as const satisfies Record<string, AliasType>

export interface AgreementFlagValues {
  name?: string | undefined
  bban?: string | undefined
  phone?: string | undefined
  email?: string | undefined
  abn?: string | undefined
  acn?: string | undefined
  arbn?: string | undefined
  arsn?: string | undefined
  'org-id'?: string | undefined
  amount?: string | undefined
  currency?: string | undefined
  open?: boolean | undefined
  purpose?: string | undefined
}

/** `customerAccIdentifier` from exactly one of --bban or an alias flag. */
export function accountIdentifierFromFlags(f: AgreementFlagValues): SendAgreement['customerAccIdentifier'] {
  const aliases = (Object.keys(IDENTIFIER_FLAGS) as Array<keyof typeof IDENTIFIER_FLAGS>).filter((flag) => f[flag] !== undefined)
  const given = [...(f.bban === undefined ? [] : ['bban']), ...aliases]
  if (given.length !== 1) {
    throw new UsageError(
      given.length === 0
        ? "An agreement needs the customer's account: one of --bban, --phone, --email, --abn, --acn, --arbn, --arsn or --org-id"
        : `Give exactly one account identifier (got ${given.map((g) => `--${g}`).join(', ')})`,
      'For example --bban "062-000 12345678" or --phone +61412345678',
    )
  }
  if (f.bban !== undefined) return { Bban: { value: checkBban(f.bban, '--bban').value } }
  const flag = aliases[0] as keyof typeof IDENTIFIER_FLAGS
  const aliasType = IDENTIFIER_FLAGS[flag]
  return { Alias: { aliasType, value: checkAlias(aliasType, f[flag] as string, `--${flag}`) } }
}

/** `terms` from exactly one of --amount with --currency (one-off) or --open. */
export function termsFromFlags(f: AgreementFlagValues): SendAgreement['terms'] {
  const oneOff = f.amount !== undefined || f.currency !== undefined
  if (oneOff === Boolean(f.open)) {
    throw new UsageError(
      'An agreement is either one-off (--amount with --currency) or open (--open): give exactly one',
      'For example --amount 12.50 --currency AUD, or --open',
    )
  }
  if (f.open) return { AgreementRequestTermsOpen: {} }
  if (f.amount === undefined || f.currency === undefined) throw new UsageError('A one-off agreement needs both --amount and --currency')
  const currency = f.currency.toUpperCase()
  // PayTo runs on Australia's New Payments Platform: agreements are in Australian dollars only.
  if (currency !== 'AUD')
    throw new UsageError(`A PayTo agreement is in AUD only (got --currency ${f.currency})`, 'PayTo moves Australian dollars between Australian accounts')
  return { AgreementRequestTermsOneOff: { amount: { amount: minorUnitsFrom(f.amount, currency), currency } } }
}

/** The whole `POST /payto/agreement` body from flags. */
export function agreementBodyFromFlags(f: AgreementFlagValues): SendAgreement {
  if (f.name === undefined) throw new UsageError("An agreement needs the customer's name (--name)", 'For example --name "Jo Citizen"')
  const body: SendAgreement = {
    customerName: checkNonEmpty(f.name, '--name').trim(),
    customerAccIdentifier: accountIdentifierFromFlags(f),
    terms: termsFromFlags(f),
  }
  if (f.purpose !== undefined) body.purpose = checkNonEmpty(f.purpose, '--purpose')
  return body
}
