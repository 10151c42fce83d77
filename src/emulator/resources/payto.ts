// PayTo: agreements sent to a customer's bank account (by BBAN or by alias), their status over
// time, and alias look-up.
//
// Status: an agreement starts `Pending` and, by default, becomes `Active` 2 seconds later in
// emulator time. The status is computed from the clock each time it is read (`agreementStatus`),
// from a schedule fixed when the agreement is sent; test values (TEST_ACCOUNTS, TEST_NAMES)
// script other outcomes, and the `SetPayToAgreementStatus` simulation overrides the schedule.
import { createHash } from 'node:crypto'
import type { SendAgreement } from '../../client/schemas/payto.js'
import { badRequest, notFound, unprocessable } from '../api-error.js'
import { ANY_CREDENTIAL, requireMerchant, visibleOr404 } from '../auth.js'
import { addSeconds, timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { route, type HandlerContext } from '../route.js'
import type { AgreementRecord, AgreementStatus } from '../store.js'

/** Seconds between sending an agreement and the customer's (simulated) answer. */
export const APPROVAL_DELAY_SECONDS = 2
/** Seconds an agreement stays Active before a scripted suspension or cancellation. */
export const SCRIPTED_CHANGE_AFTER_SECONDS = 60
/** Seconds before a "slow approval" test value becomes Active. */
export const SLOW_APPROVAL_SECONDS = 30

export const AGREEMENT_STATUSES: readonly AgreementStatus[] = ['Pending', 'Active', 'Declined', 'Suspended', 'Cancelled', 'Expired']

type Behaviour = 'approve' | 'decline' | 'no_answer' | 'suspend_later' | 'cancel_later' | 'insufficient_funds' | 'slow_approval'

/** Test values by BBAN account number (the digits after the BSB). */
export const TEST_ACCOUNTS: Readonly<Record<string, Behaviour>> = {
  '11111111': 'decline',
  '22222222': 'no_answer',
  '33333333': 'suspend_later',
  '44444444': 'cancel_later',
  '55555555': 'insufficient_funds',
  '66666666': 'slow_approval',
}

/** Test values by `customerName` (any identifier; compared without case or surrounding spaces). */
export const TEST_NAMES: Readonly<Record<string, Behaviour>> = {
  'decline test': 'decline',
  'no answer test': 'no_answer',
  'suspend test': 'suspend_later',
  'cancel test': 'cancel_later',
  'insufficient funds test': 'insufficient_funds',
  'slow approval test': 'slow_approval',
}

/** Aliases that resolve to nobody: alias look-up answers 404, and sending an agreement to one is refused. */
export const UNKNOWN_ALIASES: Readonly<Record<string, string>> = {
  // A number of the range set aside for fiction (0491 570 006), so that an everyday test number
  // such as 0400 000 000 reaches an account.
  Phone: '+61491570006',
  Email: 'nobody@example.com',
  ABN: '10000000000',
  ACN: '000000019',
  ARBN: '000000019',
  ARSN: '000000019',
  OrgId: 'UNKNOWN',
}

export const ALIAS_TYPES = ['Phone', 'Email', 'ABN', 'ACN', 'ARBN', 'ARSN', 'OrgId'] as const
export type AliasType = (typeof ALIAS_TYPES)[number]

// ---------------------------------------------------------------------------------------------
// Identifier rules

/** BSB (6 digits) + account number (5 to 9 digits); spaces and hyphens between digits are ignored. */
export function parseBban(value: string): { bsb: string; account: string } | undefined {
  const text = value.trim()
  if (!/^\d[\d -]*\d$/.test(text)) return undefined
  const digits = text.replace(/[ -]/g, '')
  if (digits.length < 11 || digits.length > 15) return undefined
  return { bsb: digits.slice(0, 6), account: digits.slice(6) }
}

/** ABN: 11 digits; subtract 1 from the first, weight by 10,1,3,…,19; the sum divides by 89. */
export function isValidAbn(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]
  const digits = [...value].map(Number)
  digits[0] = (digits[0] as number) - 1
  return digits.reduce((sum, d, i) => sum + d * (weights[i] as number), 0) % 89 === 0
}

/** ACN (also ARBN and ARSN): 9 digits; weights 8…1 on the first 8; check digit = (10 - sum mod 10) mod 10. */
export function isValidAcn(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false
  const digits = [...value].map(Number)
  const sum = digits.slice(0, 8).reduce((s, d, i) => s + d * (8 - i), 0)
  return (10 - (sum % 10)) % 10 === digits[8]
}

/**
 * An Australian telephone number in E.164 form (+61 and 9 digits), from that form or the national
 * one (0 and 9 digits), `61…` without the plus, or `+61 0…`; spaces, hyphens, dots and brackets
 * are ignored. Undefined when it is none of these.
 */
export function australianPhone(text: string): string | undefined {
  const compact = text.replace(/[\s().-]/g, '')
  const national = /^(?:\+?61|0)?0?(\d{9})$/.exec(compact)
  if (!national || !/^(?:\+61|61|0)/.test(compact)) return undefined
  return `+61${national[1] as string}`
}

/** The alias in canonical form, or a 400 that says what is wrong. */
export function normaliseAlias(aliasType: string, value: string): { aliasType: AliasType; value: string } {
  const text = value.trim()
  const bad = (why: string) => badRequest('invalid_alias', `Invalid ${aliasType} alias: ${why}`)
  switch (aliasType) {
    case 'Phone': {
      const e164 = australianPhone(text)
      if (e164 === undefined) throw bad('expected an Australian number, such as 0412 345 678 or +61412345678')
      return { aliasType, value: e164 }
    }
    case 'Email':
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) || text.length > 256) throw bad('expected an e-mail address')
      return { aliasType, value: text.toLowerCase() }
    case 'ABN': {
      const digits = text.replace(/ /g, '')
      if (!isValidAbn(digits)) throw bad('expected 11 digits that pass the ABN check')
      return { aliasType, value: digits }
    }
    case 'ACN':
    case 'ARBN':
    case 'ARSN': {
      const digits = text.replace(/ /g, '')
      if (!isValidAcn(digits)) throw bad(`expected 9 digits that pass the ${aliasType} check digit`)
      return { aliasType, value: digits }
    }
    case 'OrgId':
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/.test(text)) throw bad('expected 1 to 256 letters, digits, dots, hyphens or underscores')
      return { aliasType, value: text }
    default:
      throw badRequest('invalid_alias', `Unknown aliasType "${aliasType}"; expected one of ${ALIAS_TYPES.join(', ')}`)
  }
}

/** Masked identifier: the last three characters of the account stay visible. */
export function maskIdentifier(kind: 'Bban' | AliasType, value: string): string {
  const tail = (s: string, keep: number) => `${'*'.repeat(Math.max(s.length - keep, 0))}${s.slice(-keep)}`
  switch (kind) {
    case 'Bban': {
      const parsed = parseBban(value)
      return parsed ? `${parsed.bsb.slice(0, 3)}-${parsed.bsb.slice(3)} ${tail(parsed.account, 3)}` : tail(value, 3)
    }
    case 'Phone':
      return `+61${tail(value.slice(3), 3)}`
    case 'Email': {
      const [local = '', domain = ''] = value.split('@')
      return `${local.slice(0, 1)}***@${domain}`
    }
    case 'OrgId':
      return `${value.slice(0, 2)}***`
    default:
      return tail(value, 3)
  }
}

const GIVEN = ['Alex', 'Sam', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Riley', 'Jamie', 'Charlie', 'Avery']
const FAMILY = ['Citizen', 'Nguyen', 'Smith', 'Williams', 'Brown', 'Wilson', 'Chen', 'Patel', 'Kelly', 'Jones']
const WORDS = ['Harbour', 'Wattle', 'Southern', 'Coastal', 'Redgum', 'Summit', 'Banksia', 'Outback', 'Meridian', 'Kestrel']
const TRADES = ['Trading', 'Supplies', 'Holdings', 'Services', 'Logistics', 'Foods', 'Partners', 'Industries', 'Digital', 'Works']

/** The display name an alias resolves to: derived from the alias, so always the same. */
export function aliasDisplayName(aliasType: AliasType, value: string): string {
  const h = createHash('sha256').update(`${aliasType}:${value}`).digest()
  const pick = (list: string[], byte: number) => list[(h[byte] as number) % list.length] as string
  if (aliasType === 'Phone' || aliasType === 'Email') return `${pick(GIVEN, 0)} ${pick(FAMILY, 1)}`
  return `${pick(WORDS, 2)} ${pick(TRADES, 3)} Pty Ltd`
}

// ---------------------------------------------------------------------------------------------
// Status over time

/** The status of an agreement at `now`. */
export function agreementStatus(agreement: AgreementRecord, now: Date): AgreementStatus {
  const at = timestamp(now)
  let status: AgreementStatus = 'Pending'
  for (const entry of agreement.schedule) if (entry.at <= at) status = entry.status
  return status
}

/** When the status last changed, at or before `now`. */
function statusSince(agreement: AgreementRecord, now: Date): string {
  const at = timestamp(now)
  let since = agreement.createdAt
  for (const entry of agreement.schedule) if (entry.at <= at) since = entry.at
  return since
}

/** Sets the status from now on, discarding scripted changes still to come. */
export function overrideAgreementStatus(agreement: AgreementRecord, status: AgreementStatus, now: Date): void {
  const at = timestamp(now)
  agreement.schedule = agreement.schedule.filter((e) => e.at <= at)
  agreement.schedule.push({ status, at })
}

function scheduleFor(behaviour: Behaviour, created: Date): AgreementRecord['schedule'] {
  const at = (seconds: number) => timestamp(addSeconds(created, seconds))
  const schedule: AgreementRecord['schedule'] = [{ status: 'Pending', at: timestamp(created) }]
  switch (behaviour) {
    case 'no_answer':
      return schedule
    case 'decline':
      return [...schedule, { status: 'Declined', at: at(APPROVAL_DELAY_SECONDS) }]
    case 'slow_approval':
      return [...schedule, { status: 'Active', at: at(SLOW_APPROVAL_SECONDS) }]
    case 'suspend_later':
    case 'cancel_later':
      return [
        ...schedule,
        { status: 'Active', at: at(APPROVAL_DELAY_SECONDS) },
        { status: behaviour === 'suspend_later' ? 'Suspended' : 'Cancelled', at: at(APPROVAL_DELAY_SECONDS + SCRIPTED_CHANGE_AFTER_SECONDS) },
      ]
    default:
      return [...schedule, { status: 'Active', at: at(APPROVAL_DELAY_SECONDS) }]
  }
}

/** The agreement as `GET /payto/agreement` shows it. */
export function agreementView(agreement: AgreementRecord, now: Date) {
  return {
    token: agreement.token,
    status: agreementStatus(agreement, now),
    agreementUid: agreement.agreementUid,
    agreementType: agreement.agreementType,
    amount: agreement.amount,
    customerName: agreement.customerName,
    accountIdentifierHint: agreement.accountIdentifierHint,
    purpose: agreement.purpose,
    merchantId: agreement.merchantId,
    createdAt: agreement.createdAt,
    updatedAt: statusSince(agreement, now),
  }
}

/** An agreement the request may use, by token (404 when unknown or another merchant's). */
export function visibleAgreement(ctx: HandlerContext, token: string): AgreementRecord {
  return visibleOr404(ctx, ctx.store.agreements, token, 'PayTo agreement')
}

// ---------------------------------------------------------------------------------------------
// Routes

export function sendAgreement(ctx: HandlerContext, body: SendAgreement) {
  const merchant = requireMerchant(ctx.store, ctx.scope)
  const now = ctx.clock.now()
  let identifierType: 'Bban' | 'Alias'
  let aliasType: AliasType | null = null
  let identifierValue: string
  let behaviour: Behaviour = 'approve'
  const id = body.customerAccIdentifier
  if ('Bban' in id) {
    const parsed = parseBban(id.Bban.value)
    if (!parsed) {
      throw badRequest('invalid_bban', 'Invalid BBAN: expected a 6-digit BSB and a 5- to 9-digit account number, such as "062-000 12345678"')
    }
    identifierType = 'Bban'
    identifierValue = `${parsed.bsb}${parsed.account}`
    behaviour = TEST_ACCOUNTS[parsed.account] ?? behaviour
  } else {
    const alias = normaliseAlias(id.Alias.aliasType, id.Alias.value)
    if (UNKNOWN_ALIASES[alias.aliasType] === alias.value) {
      throw unprocessable('unknown_alias', `No account is registered for the ${alias.aliasType} alias ${alias.value}`)
    }
    identifierType = 'Alias'
    aliasType = alias.aliasType
    identifierValue = alias.value
  }
  behaviour = TEST_NAMES[body.customerName.trim().toLowerCase()] ?? behaviour

  let amount: AgreementRecord['amount'] = null
  if ('AgreementRequestTermsOneOff' in body.terms) {
    const terms = body.terms.AgreementRequestTermsOneOff.amount
    if (terms.currency !== 'AUD') throw unprocessable('unsupported_currency', `PayTo agreements are in AUD; got ${terms.currency}`)
    amount = { minorCurrencyUnits: terms.amount, currency: terms.currency }
  }

  const agreement: AgreementRecord = {
    token: ctx.ids.next('ptagr'),
    agreementUid: ctx.ids.uuid(),
    merchantId: merchant.merchantId,
    customerName: body.customerName,
    identifierType,
    aliasType,
    identifierValue,
    accountIdentifierHint: maskIdentifier(aliasType ?? 'Bban', identifierValue),
    agreementType: amount === null ? 'Open' : 'OneOff',
    amount,
    purpose: body.purpose ?? '',
    schedule: scheduleFor(behaviour, now),
    paymentOutcome: behaviour === 'insufficient_funds' ? 'insufficient_funds' : 'approve',
    usedAt: null,
    createdAt: timestamp(now),
    customerId: ctx.scope.customerId,
  }
  ctx.store.agreements.set(agreement.token, agreement)
  emitEvent(ctx, 'PayToAgreementCreated', merchant.merchantId, {
    token: agreement.token,
    agreementType: agreement.agreementType,
    agreement: agreementView(agreement, now),
  })
  return { token: agreement.token, status: agreementStatus(agreement, now) }
}

export const routes = [
  route<SendAgreement>({
    method: 'POST',
    path: '/payto/agreement',
    allow: ANY_CREDENTIAL,
    // Validated by the shared `SendAgreement` schema (client/schemas/actions.ts BODIES).
    bodyRequired: true,
    handle: (ctx, req) => sendAgreement(ctx, req.body),
  }),
  route({
    method: 'GET',
    path: '/payto/agreement',
    allow: ANY_CREDENTIAL,
    handle: (ctx, req) => {
      const tokens = req.query.getAll('token')
      if (tokens.length !== 1 || !tokens[0]?.trim()) throw badRequest('invalid_query', 'Give the agreement as exactly one "token" query parameter')
      return agreementView(visibleAgreement(ctx, (tokens[0] as string).trim()), ctx.clock.now())
    },
  }),
  route({
    method: 'GET',
    path: '/payto/alias',
    allow: ANY_CREDENTIAL,
    handle: (_ctx, req) => {
      const aliasType = req.query.get('aliasType')?.trim()
      const value = req.query.get('value')?.trim()
      if (!aliasType || !value) throw badRequest('invalid_query', 'Give both "aliasType" and "value" query parameters')
      const alias = normaliseAlias(aliasType, value)
      if (UNKNOWN_ALIASES[alias.aliasType] === alias.value) throw notFound(`${alias.aliasType} alias`, alias.value)
      return {
        aliasType: alias.aliasType,
        value: alias.value,
        displayName: aliasDisplayName(alias.aliasType, alias.value),
        accountIdentifierHint: maskIdentifier(alias.aliasType, alias.value),
      }
    },
  }),
]
