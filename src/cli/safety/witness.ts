// The second witness: before a refund, a transfer, a reversal of a transfer or a payout request
// is sent, the service's own records are read for an identical operation made within the repeat
// window. The journal protects one machine; the service's records protect every machine (a fresh
// CI runner, a lost or moved-aside journal). What each kind reads (no extra request where the
// operation already reads it):
//
//   refund            the transaction's timeline: `PaymentRefunded` entries (amount, identifier,
//                     eventTime): the same amount within the window (default 24 h)
//   transfer          the transaction's timeline: `FundsTransferred` entries of the same amount
//                     (and the same destination, when the transaction's transfers show it)
//   reverse-transfer  the transaction's timeline: `FundsTransferReversed` entries of the same
//                     transfer and amount (a reversal of all that is left has no witness: a
//                     repeat finds nothing left to reverse, so it cannot move money twice)
//   payout            the merchant's payouts, newest first, the same amount and currency within
//                     the window (default 1 h: a daily job may repeat on purpose)
//
// "Now" is the service's clock (its Date header) when it gives one, else this machine's: the
// service's times are compared with the service's time. Times are ISO 8601 in UTC (the contract's
// Timestamp); one written without a zone is read as UTC, any fraction of a second is accepted.
// An entry that shows no time (or one that cannot be read) counts as within the window: it cannot
// be shown to be older. `--repeat-window` (else PAYFAC_REPEAT_WINDOW) sets the window of whatever
// the command does; 0 turns the witness off.
import type { PayfacClient } from '../../client/client.js'
import { formatMinorUnits } from '../../client/money.js'
import type { Page } from '../../client/pagination.js'
import type { Payout, TimelineEntry, Transaction } from '../../client/schemas/transactions.js'
import { parseRepeatWindow } from '../validate/durations.js'

export type WitnessKind = 'refund' | 'transfer' | 'reverse-transfer' | 'payout' | 'payto-charge'

const HOUR_MS = 3_600_000

/** The window of each kind when neither --repeat-window nor PAYFAC_REPEAT_WINDOW is set. */
export const DEFAULT_REPEAT_WINDOW_MS: Readonly<Record<WitnessKind, number>> = {
  refund: 24 * HOUR_MS,
  transfer: 24 * HOUR_MS,
  'reverse-transfer': 24 * HOUR_MS,
  payout: HOUR_MS,
  /** A charge of the same agreement and amount under another reference (the journal's record: cli/flows/charge-repeat.ts). */
  'payto-charge': 24 * HOUR_MS,
}

export const REPEAT_WINDOW_ENV = 'PAYFAC_REPEAT_WINDOW'

/** At most this many pages of payouts are read (100 a page): more payouts within the window is not a case to walk. */
export const PAYOUT_PAGES_MAX = 10
const PAYOUT_PAGE_SIZE = 100
/**
 * Newest first, asked for explicitly: the contract leaves a list's order without `sort` as the
 * service's "natural ordering", and the window walk and the look after a lost answer read only
 * the first page(s). Oldest first, a merchant with more than 100 payouts would show none recent.
 */
export const NEWEST_FIRST = '-createdAt'

/** The window for `kind` in ms: the flag's value, else PAYFAC_REPEAT_WINDOW, else the kind's default. 0: off. */
export function repeatWindowMs(kind: WitnessKind, flag: string | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (flag !== undefined) return parseRepeatWindow(flag, '--repeat-window')
  const fromEnv = env[REPEAT_WINDOW_ENV]
  if (fromEnv !== undefined && fromEnv.trim() !== '') return parseRepeatWindow(fromEnv, REPEAT_WINDOW_ENV)
  return DEFAULT_REPEAT_WINDOW_MS[kind]
}

/** "24h", "90m", "45s": a window in words. */
export function formatWindow(ms: number): string {
  if (ms % HOUR_MS === 0) return `${ms / HOUR_MS}h`
  if (ms % 60_000 === 0) return `${ms / 60_000}m`
  if (ms % 1000 === 0) return `${ms / 1000}s`
  return `${ms}ms`
}

/** The contract's Timestamp (ISO 8601): a date, then a time (after `T`, or a space), then a zone or none. */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?(Z|[+-]\d{2}:?\d{2})?$/i

/**
 * A service Timestamp in ms since the epoch; undefined when missing or unreadable. No zone: UTC
 * (the contract's), whatever this machine's time zone, with a `T` or a space before the time.
 * Anything but an ISO 8601 date and time is unreadable (it counts as within the window), never
 * guessed by the local clock's rules: a time read in the local zone east of UTC looks older than
 * it is, and would hide a recent refund or payout from the witness.
 */
export function serviceTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const parts = TIMESTAMP.exec(value.trim())
  if (!parts) return undefined
  const [, date, time, zone] = parts
  const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`
  const ms = Date.parse(`${date}T${time ?? '00:00'}${offset}`)
  return Number.isNaN(ms) ? undefined : ms
}

/**
 * Within the window that ends at `now`: made at most `windowMs` before it (the edge included), or
 * later (a clock ahead). No time: within. A window of 0: nothing is.
 */
export function withinWindow(time: number | undefined, now: number, windowMs: number): boolean {
  if (windowMs <= 0) return false
  if (time === undefined) return true
  return now - time <= windowMs
}

function moneyWords(units: number, currency: string | undefined): string {
  return currency ? `${formatMinorUnits(units, currency)} ${currency.toUpperCase()}` : `${units} minor units`
}

function atWords(raw: unknown, windowMs: number): string {
  const time = typeof raw === 'string' && raw.trim() !== '' ? `at ${raw.trim()}` : 'at a time the service does not show'
  return `${time}, within the ${formatWindow(windowMs)} window`
}

/** The transaction's timeline entries of one type within the window, newest first. */
function recentEntries(t: Transaction, eventType: string, now: number, windowMs: number): TimelineEntry[] {
  return (t.timelines ?? []).filter((e) => e.eventType === eventType && withinWindow(serviceTime(e.eventTime), now, windowMs)).reverse()
}

const transactionCurrency = (t: Transaction): string | undefined => t.purchaseDetails?.amount?.currency?.toUpperCase() ?? undefined

/** An identical refund (same amount, same currency) on the transaction within the window, in words; else undefined. */
export function findRefund(t: Transaction, units: number, currency: string, now: number, windowMs: number): string | undefined {
  const own = transactionCurrency(t)
  if (own !== undefined && own !== currency.toUpperCase()) return undefined
  const entry = recentEntries(t, 'PaymentRefunded', now, windowMs).find((e) => e.amount === units)
  if (!entry) return undefined
  return `refund ${entry.identifier ?? '(no id shown)'} of ${moneyWords(units, currency)} ${atWords(entry.eventTime, windowMs)}`
}

/** The transaction's transfers, as far as the service shows them (their shape is not in the contract). */
function transferShown(t: Transaction, transferId: string | null | undefined): Record<string, unknown> | undefined {
  const list = (t as Record<string, unknown>).transfers
  if (!transferId || !Array.isArray(list)) return undefined
  return list.find((x): x is Record<string, unknown> => typeof x === 'object' && x !== null && (x as Record<string, unknown>).transferId === transferId)
}

/**
 * An identical transfer within the window: the same amount (any, when the request names none),
 * to the same destination when the transaction's transfers show where each went.
 */
export function findTransfer(t: Transaction, units: number | undefined, destination: string | undefined, now: number, windowMs: number): string | undefined {
  const entry = recentEntries(t, 'FundsTransferred', now, windowMs).find((e) => {
    if (units !== undefined && e.amount !== units) return false
    const went = transferShown(t, e.identifier)?.destinationMerchantId
    return destination === undefined || typeof went !== 'string' || went === destination
  })
  if (!entry) return undefined
  const went = transferShown(t, entry.identifier)?.destinationMerchantId
  const to = typeof went === 'string' ? ` to ${went}` : ''
  const amount = typeof entry.amount === 'number' ? ` of ${moneyWords(entry.amount, transactionCurrency(t))}` : ''
  return `transfer ${entry.identifier ?? '(no id shown)'}${amount}${to} ${atWords(entry.eventTime, windowMs)}`
}

/** An identical reversal within the window: of the same transfer and the same amount. */
export function findReversal(t: Transaction, transferId: string, units: number, now: number, windowMs: number): string | undefined {
  const entry = recentEntries(t, 'FundsTransferReversed', now, windowMs).find((e) => e.identifier === transferId && e.amount === units)
  if (!entry) return undefined
  const amount = typeof entry.amount === 'number' ? ` of ${moneyWords(entry.amount, transactionCurrency(t))}` : ''
  return `reversal of transfer ${transferId}${amount} ${atWords(entry.eventTime, windowMs)}`
}

/** A transaction as the service shows it, and the service's clock when it answered (its Date header). */
export interface TimedTransaction {
  transaction: Transaction
  /** ms since the epoch; undefined when the answer had no readable Date header. */
  serviceNow: number | undefined
}

/** `GET /transactions/{id}` (as client.transactions.get) keeping the service's Date header, for the window's "now". */
export async function readTransactionTimed(client: PayfacClient, transactionId: string): Promise<TimedTransaction> {
  // Loaded here, not at the top: the schemas (zod) stay off the start-up path of the commands.
  const [{ parseAnswer, path }, { Transaction }] = await Promise.all([import('../../client/core.js'), import('../../client/schemas/transactions.js')])
  const at = path`/transactions/${transactionId}`
  const answer = await client.request({ method: 'GET', path: at })
  const transaction = parseAnswer(Transaction, answer.body, { method: 'GET', path: at, status: answer.status })
  const date = answer.headers.date === undefined ? Number.NaN : Date.parse(answer.headers.date)
  return { transaction, serviceNow: Number.isNaN(date) ? undefined : date }
}

const payoutMoney = (p: Payout): { units: unknown; currency: unknown } => {
  const amount = p.amount as { minorCurrencyUnits?: unknown; currency?: unknown } | undefined
  return { units: amount?.minorCurrencyUnits, currency: amount?.currency }
}

/**
 * An identical payout among `items` within the window: the same amount and currency (and the
 * same merchant, when both the payout and the command name one), in words; else undefined.
 */
export function findPayout(
  items: readonly Payout[],
  money: { minorCurrencyUnits: number; currency: string },
  merchantId: string | undefined,
  now: number,
  windowMs: number,
): string | undefined {
  const made = items.find((p) => {
    const { units, currency } = payoutMoney(p)
    if (units !== money.minorCurrencyUnits || typeof currency !== 'string' || currency.toUpperCase() !== money.currency.toUpperCase()) return false
    if (merchantId !== undefined && typeof p.merchantId === 'string' && p.merchantId !== merchantId) return false
    return withinWindow(serviceTime(p.createdAt), now, windowMs)
  })
  if (!made) return undefined
  const id = typeof made.payoutId === 'string' ? made.payoutId : '(no id shown)'
  return `payout ${id} of ${moneyWords(money.minorCurrencyUnits, money.currency)} ${atWords(made.createdAt, windowMs)}`
}

/** What the payout witness read: what it found, and the first page (for the journal's snapshot). */
export interface PayoutWitness {
  seen: string | undefined
  firstPage: Page<Payout>
}

/**
 * Reads the merchant's payouts, newest first (the service's order), page by page while every
 * payout on the page is within the window, and looks for an identical one. One read in the usual
 * case; at most PAYOUT_PAGES_MAX.
 */
export async function witnessPayout(
  client: PayfacClient,
  money: { minorCurrencyUnits: number; currency: string },
  merchantId: string | undefined,
  windowMs: number,
): Promise<PayoutWitness> {
  const firstPage = await client.transactions.payouts.list({ limit: PAYOUT_PAGE_SIZE, sort: NEWEST_FIRST })
  const now = firstPage.serverTime ?? Date.now()
  let page = firstPage
  for (let n = 1; ; n++) {
    const seen = findPayout(page.items, money, merchantId, now, windowMs)
    if (seen !== undefined) return { seen, firstPage }
    const allRecent = page.items.length > 0 && page.items.every((p) => withinWindow(serviceTime(p.createdAt), now, windowMs))
    if (!allRecent || n >= page.pageCount || n >= PAYOUT_PAGES_MAX) return { seen: undefined, firstPage }
    page = await client.transactions.payouts.list({ limit: PAYOUT_PAGE_SIZE, page: n + 1, sort: NEWEST_FIRST })
  }
}
