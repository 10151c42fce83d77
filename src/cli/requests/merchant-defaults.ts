// What a command takes from the merchant in context when the user leaves it out: the merchant
// itself (the profile's or context's Merchant-Id, or the one merchant a merchant credential sees)
// and, for month-end and payouts, the merchant's only currency (read from its balances). A
// merchant with several currencies is a usage error listing them: payfac never guesses.
import type { PayfacClient } from '../../client/index.js'
import { formatMinorUnits, formatMoney, parseCurrency } from '../../client/money.js'
import { RefusedError, UsageError } from '../errors/index.js'
import { payoutMerchant } from '../safety/payout-checks.js'
import { checkNonEmpty } from '../validate/index.js'
import { payoutBody } from './money.js'

type Loose = Record<string, unknown>

/** What a command knows of whom it acts for: the Merchant-Id context and the credential's kind. */
export interface ActingFor {
  context: { merchantId?: string | undefined }
  credentialKind: string
}

/** Credentials that act for one merchant: the only ones whose merchant payfac may look up. */
const MERCHANT_KINDS = new Set(['merchant-secret-key', 'merchant-public-key', 'merchant-jwt'])

/**
 * The Merchant-Id in context, or undefined when the credential's own merchant may be looked up;
 * another credential (marketplace, platform …) without one acts for no one merchant: a usage
 * error before anything is sent.
 */
function contextOrLookup(acting: ActingFor, what: string, hint: string): string | undefined {
  if (acting.context.merchantId || MERCHANT_KINDS.has(acting.credentialKind)) return acting.context.merchantId
  throw new UsageError(`${what}: a ${acting.credentialKind} credential acts for no one merchant`, hint)
}

/** The merchant in context, or a usage error saying how to name one. */
export async function merchantInContext(client: PayfacClient, acting: ActingFor): Promise<string> {
  const contextMerchantId = contextOrLookup(acting, 'Give the merchant', 'Give the merchant id (mcht_…) or --merchant-id')
  const merchantId = await payoutMerchant(client, contextMerchantId)
  if (merchantId) return merchantId
  throw new UsageError(
    'No merchant is in context: the profile has no merchant id and the credential sees more than one merchant',
    'Give the merchant id (mcht_…), or --merchant-id, or set one on the profile (payfac profiles add … --merchant-id)',
  )
}

/** One line of a merchant's balances, as far as choosing a currency needs it. */
interface BalanceLine {
  currency: string
  /** Its available amount in minor units, when the line shows one. */
  available: unknown
}

/**
 * A merchant's balance lines, in the order the service gave them, or a usage error when the
 * answer cannot be trusted to choose a currency or an amount: a line without an ISO 4217 code,
 * a code twice, an available amount in another currency than its line. payfac never guesses
 * from such an answer (the error names no text of it: it could drive the terminal).
 */
async function balanceLines(client: PayfacClient, merchantId: string): Promise<BalanceLine[]> {
  const answer = (await client.merchants.balances(merchantId)) as Loose
  const lines = Array.isArray(answer.balances) ? (answer.balances as unknown[]) : []
  const seen: BalanceLine[] = []
  const unreadable = (why: string) =>
    new UsageError(`--currency is needed: the balances of ${merchantId} cannot be read to choose one (${why})`, 'Give --currency, for example --currency AUD')
  for (const [index, raw] of lines.entries()) {
    const line = (typeof raw === 'object' && raw !== null ? raw : {}) as Loose
    const code = typeof line.currency === 'string' ? line.currency : undefined
    if (!code || !isCurrencyCode(code)) throw unreadable(`line ${index + 1} has no ISO 4217 currency code`)
    const currency = code.toUpperCase()
    if (seen.some((other) => other.currency === currency)) throw unreadable(`${currency} is listed twice`)
    const available = line.available as Loose | undefined
    const of = available?.currency
    if (of !== undefined && (typeof of !== 'string' || of.toUpperCase() !== currency))
      throw unreadable(`the available amount of ${currency} is in another currency`)
    seen.push({ currency, available: available?.minorCurrencyUnits })
  }
  return seen
}

function isCurrencyCode(code: string): boolean {
  try {
    return parseCurrency(code) === code.toUpperCase()
  } catch {
    return false
  }
}

/** The currencies of a merchant's balances, in the order the service gave them. */
export async function merchantCurrencies(client: PayfacClient, merchantId: string): Promise<string[]> {
  return (await balanceLines(client, merchantId)).map((line) => line.currency)
}

/** The merchant's only currency; several (or none) is a usage error naming them. */
export async function onlyCurrency(client: PayfacClient, acting: ActingFor): Promise<{ merchantId: string; currency: string }> {
  const hint = 'Give --currency, for example --currency AUD'
  const contextMerchantId = contextOrLookup(acting, '--currency is needed', hint)
  const merchantId = await payoutMerchant(client, contextMerchantId)
  if (!merchantId) throw new UsageError('--currency is needed: no one merchant is in context to take its currency from', hint)
  const currencies = await merchantCurrencies(client, merchantId)
  if (currencies.length === 1) return { merchantId, currency: currencies[0]! }
  if (currencies.length === 0)
    throw new UsageError(`--currency is needed: ${merchantId} has no balances to take its currency from`, 'Give --currency, for example --currency AUD')
  throw new UsageError(`--currency is needed: ${merchantId} holds ${currencies.join(', ')}`, `Give one of them, for example --currency ${currencies[0]}`)
}

/**
 * The flags with `--currency` filled in when it is missing and `needed` (a range is asked for, not
 * a payout): the merchant's only currency, said on stderr.
 */
export async function withOnlyCurrency<F extends { currency?: string | undefined }>(
  f: F,
  needed: boolean,
  client: PayfacClient,
  acting: ActingFor,
  stderr: { write(text: string): unknown } = process.stderr,
): Promise<F> {
  if (f.currency || !needed) return f
  const { merchantId, currency } = await onlyCurrency(client, acting)
  stderr.write(`Currency ${currency}: the only currency of ${merchantId} (--currency chooses another).\n`)
  return { ...f, currency }
}

/** Whether month-end flags ask for a range (so a currency is needed) rather than one payout. */
export function asksForRange(f: {
  payout?: string | undefined
  from?: string | undefined
  to?: string | undefined
  last?: string | undefined
  month?: string | undefined
  'last-month'?: boolean | undefined
}): boolean {
  return !f.payout && Boolean(f.last || f.month || f['last-month'] || (f.from && f.to))
}

export interface PayoutFlagValues {
  amount?: string | undefined
  currency?: string | undefined
  description?: string | undefined
  available?: boolean | undefined
}

/**
 * The body of `payouts request` from its flags: `--amount` (in `--currency`, or the merchant's only
 * one), or `--available`: the whole available balance of the currency, read from the merchant's
 * balances just before (said on stderr). Nothing available is exit 6, nothing sent.
 */
export async function payoutBodyFor(f: PayoutFlagValues, client: PayfacClient, acting: ActingFor, stderr: { write(text: string): unknown } = process.stderr) {
  if (!f.available) {
    if (f.amount === undefined)
      throw new UsageError(
        'A payout needs --amount, or --available for the whole available balance (or the whole body with --data)',
        'For example --amount 250 or --available',
      )
    return payoutBody(await withOnlyCurrency(f, true, client, acting, stderr))
  }
  const merchantId = await merchantInContext(client, acting)
  const lines = await balanceLines(client, merchantId)
  const currencies = lines.map((line) => line.currency)
  const currency = f.currency === undefined ? (currencies.length === 1 ? currencies[0] : undefined) : parseCurrency(f.currency)
  if (!currency) {
    throw new UsageError(
      `--currency is needed: ${merchantId} holds ${currencies.join(', ') || 'no balances'}`,
      currencies[0] ? `Give one of them, for example --currency ${currencies[0]}` : 'Give --currency, for example --currency AUD',
    )
  }
  const available = lines.find((line) => line.currency === currency)?.available
  if (typeof available !== 'number' || !Number.isSafeInteger(available))
    throw new RefusedError(`Payout not sent: ${merchantId} shows no available balance in ${currency}`)
  const amount = { minorCurrencyUnits: available, currency }
  // Nothing available is refused by the command's check (payout-checks.ts), which runs after an
  // earlier lost request of this currency is looked up: the payout it made emptied the balance.
  if (available > 0) stderr.write(`Paying out the whole available balance of ${merchantId}: ${formatMoney(amount)}.\n`)
  return { amount, ...(f.description === undefined ? {} : { description: checkNonEmpty(f.description, '--description') }) }
}

/**
 * Balances with each amount's decimal beside its minor units:
 * `{"minorCurrencyUnits": 1250, "currency": "AUD", "decimal": "12.50"}` (exact, by the currency's
 * exponent; a string, so no floating point). Everything else is kept as the service sent it.
 */
export function balancesWithDecimals<T>(answer: T): T {
  const record = answer as Loose
  if (!Array.isArray(record.balances)) return answer
  const balances = record.balances.map((line: unknown) => {
    if (typeof line !== 'object' || line === null || Array.isArray(line)) return line
    const entries = Object.entries(line as Loose).map(([key, value]) => {
      const money = value as Loose | null
      const isMoney = typeof money === 'object' && money !== null && Number.isSafeInteger(money.minorCurrencyUnits) && typeof money.currency === 'string'
      return [key, isMoney ? { ...money, decimal: formatMinorUnits(money.minorCurrencyUnits as number, money.currency as string) } : value]
    })
    return Object.fromEntries(entries)
  })
  return { ...record, balances } as T
}
