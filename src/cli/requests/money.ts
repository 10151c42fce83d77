// Builds payout, settlement and refund-list requests from parsed flags. Pure: no I/O, no client.
import { UsageError } from '../errors/index.js'
import { moneyFrom } from '../flags/index.js'
import { splitMs } from '../flags/range.js'
import { type DateRange, resolveRange, splitRange } from '../range/range.js'
import { checkNonEmpty } from '../validate/index.js'
import { amountFilter } from './transactions.js'

/** A manual payout (body not shown by the contract): the amount, and a description when given. */
export function payoutBody(f: { amount?: string | undefined; currency?: string | undefined; description?: string | undefined }) {
  if (!f.amount || !f.currency) throw new UsageError('A payout needs --amount and --currency (or the whole body with --data)')
  return { amount: moneyFrom(f.amount, f.currency), ...(f.description === undefined ? {} : { description: checkNonEmpty(f.description, '--description') }) }
}

export interface SettlementFlagValues {
  payout?: string | undefined
  currency?: string | undefined
  from?: string | undefined
  to?: string | undefined
  last?: string | undefined
  month?: string | undefined
  'last-month'?: boolean | undefined
  split?: string | undefined
  type?: string[] | undefined
  'transaction-id'?: string[] | undefined
}

/**
 * The settlement query: `--payout`, or all of `--currency`, `--from` and `--to` (the contract's
 * rule, refused here before anything is sent).
 */
export function settlementQuery(f: SettlementFlagValues, now = new Date()) {
  return settlementSelection(f, now).query
}

/**
 * The settlement query and the parts of its range: one part, unless --split cuts it (--payout
 * has no range). `--last` gives the range up to `now`; a reversed range is refused.
 */
export function settlementSelection(f: SettlementFlagValues, now: Date): { query: ReturnType<typeof settlementBase>; parts: DateRange[] } {
  const query = settlementBase(f)
  const range = resolveRange(f, now)
  if (!range) return { query, parts: [] }
  if (f.payout) throw new UsageError('--payout selects the entries of one payout; leave out --from, --to, --last and --month')
  const ranged = { ...query, createdAfter: range.fromText, createdBefore: range.toText }
  return { query: ranged, parts: splitRange(range, splitMs(f.split), f.split) }
}

function settlementBase(f: SettlementFlagValues) {
  if (!f.payout) {
    const ranged = Boolean(f.last) || Boolean(f.month) || Boolean(f['last-month']) || Boolean(f.from && f.to)
    const missing = [!f.currency && '--currency', !ranged && (f.from ? '--to' : f.to ? '--from' : 'a range')].filter(Boolean)
    if (missing.length > 0) {
      throw new UsageError(
        `Settlement entries are chosen by --payout, or by --currency and a range given as --last or as --from and --to (missing ${missing.join(' and ')})`,
        'For example --currency AUD --last 30d, --currency AUD --month 2026-11 (or --last-month), --currency AUD --from 2026-11-01 --to 2026-12-01, or --payout <payout id>',
      )
    }
  }
  return {
    payoutId: f.payout === undefined ? undefined : checkNonEmpty(f.payout, '--payout').trim(),
    currency: f.currency,
    createdAfter: f.from,
    createdBefore: f.to,
    type: f.type,
    transactionId: f['transaction-id'],
  }
}

export interface RefundListFlags {
  'created-after'?: string | undefined
  'created-before'?: string | undefined
  amount?: string | undefined
  currency?: string | undefined
  reference?: string | undefined
  'order-id'?: string[] | undefined
  customer?: string[] | undefined
  'transaction-id'?: string[] | undefined
}

/** The `GET /transactions/refunds` query (filters of the field notes). */
export function refundQuery(f: RefundListFlags, merchantIds: string[] | undefined) {
  return {
    createdAfter: f['created-after'],
    createdBefore: f['created-before'],
    amount: amountFilter(f.amount, f.currency),
    referenceOrderId: f.reference,
    orderId: f['order-id'],
    customerId: f.customer,
    merchantId: merchantIds,
    transactionId: f['transaction-id'],
  }
}
