// Opening and closing balance of the reconciled period, per currency, from what the contract gives
// (issue 36). The contract has no balance at a past date: `GET /merchants/{id}/balances` gives a
// merchant's balance now (total = every settlement entry so far, the emulator's and the field
// notes' reading), and the settlement report gives the entries of any range. So, for merchant M,
// currency C and the period [from, to):
//
//   opening  = the entries of M in C created before `from`, added up (the settlement report from
//              M's `createdAt`, when the merchant record gives one, else from 2000-01-01);
//   movements= the entries of the period (those reconcile read: the `net` total);
//   closing  = M's balance now (`total`, as of the answer's `asOf`) less the entries created since
//              `to` (the settlement report of [to, asOf)).
//
// opening + movements = closing is then a real check: the ledger's history, the period's entries
// and the balance the service keeps, three readings of the same money. A difference is a
// `balance-mismatch` (exit 6). Where the contract cannot give a balance (one payout has no period;
// a credential that sees every merchant has no one balance; the merchant lists no balance in C)
// the balance rows say so, with no amount.
import type { CallOptions, PayfacClient } from '../../client/index.js'
import { formatMinorUnits } from '../../client/money.js'
import { AnswerShapeError } from '../files/download-checks.js'
import type { DateRange } from '../range/range.js'
import { REPORT_PATH, reportEntries, reportStream } from '../range/settlement.js'
import type { Reconciler } from './engine.js'
import { type ReconcileRecord, makeRecord, recordMoney } from './records.js'

type Loose = Record<string, unknown>

/** Where the ledger's history is read from when the merchant record names no `createdAt`. */
export const HISTORY_START = '2000-01-01T00:00:00.000Z'

/** Whose balance, or why there is none. */
export type BalanceOwner = { merchantId: string } | { none: string }

export interface BalanceScope {
  currency: string
  from?: Date | undefined
  to?: Date | undefined
}

const minorIn = (money: unknown, currency: string): number | undefined => {
  const m = money as Loose | undefined
  return typeof m?.minorCurrencyUnits === 'number' && Number.isSafeInteger(m.minorCurrencyUnits) && m.currency === currency ? m.minorCurrencyUnits : undefined
}

/** The entries of M in C created in [from, to), added up from the JSON settlement report (memory stays flat). */
async function entriesSum(client: PayfacClient, currency: string, from: Date, to: Date, timeoutMs: number, call: CallOptions | undefined) {
  const part: DateRange = { from, to, fromText: from.toISOString(), toText: to.toISOString() }
  const query = { currency, createdAfter: part.fromText, createdBefore: part.toText }
  const stream = await reportStream(client, query, [part], 'json', timeoutMs, call)
  let amount = 0
  let count = 0
  // What the report holds is the service's: an entry it cannot give (too deep, too long, not JSON,
  // no amount) is exit 7, as for every answer; a plain Error here was exit 1, "a bug in payfac".
  for await (const entry of reportEntries(stream)) {
    const minor = minorIn(entry.amount, currency)
    if (minor === undefined)
      throw new AnswerShapeError(
        { method: 'GET', path: REPORT_PATH },
        `a settlement entry of ${from.toISOString()} to ${to.toISOString()} has no amount in ${currency}`,
      )
    amount += minor
    count += 1
  }
  return { amount, count }
}

/**
 * The balance rows of one run: opening, movements and closing in the scope's currency (with
 * `matched` saying whether opening + movements = closing), and a `balance-mismatch` difference
 * before them when it does not hold.
 */
export async function balanceRecords(
  client: PayfacClient,
  engine: Reconciler,
  scope: BalanceScope,
  owner: BalanceOwner,
  timeoutMs: number,
  call?: CallOptions,
): Promise<ReconcileRecord[]> {
  const currency = scope.currency
  const merchantId = 'merchantId' in owner ? owner.merchantId : null
  const row = (kind: string, amount: number | null, detail: string, extra: Partial<ReconcileRecord> = {}) =>
    makeRecord({ record: 'balance', kind, merchantId, currency: currency || null, amount: recordMoney(amount, currency), detail, ...extra })
  const movements = engine.totals.movements(currency)
  const moved = row('movements', movements.amount, 'every settlement entry of the period (the net total)', { count: movements.count })
  if (!scope.from || !scope.to) {
    const why = 'not given: one payout has no period (reconcile a range for opening and closing balances)'
    return [row('opening', null, why), row('closing', null, why)]
  }
  if ('none' in owner) return [row('opening', null, `not given: ${owner.none}`), moved, row('closing', null, `not given: ${owner.none}`)]
  const m = (n: number) => `${formatMinorUnits(n, currency)} ${currency}`
  const asked = new Date()
  const answer = (await client.merchants.balances(owner.merchantId, call)) as Loose
  const line = (Array.isArray(answer.balances) ? (answer.balances as Loose[]) : []).find((b) => b && b.currency === currency)
  const total = minorIn(line?.total, currency)
  const asOfTime = typeof answer.asOf === 'string' ? Date.parse(answer.asOf) : Number.NaN
  const asOf = Number.isNaN(asOfTime) ? asked : new Date(asOfTime)

  const merchant = (await client.merchants.get(owner.merchantId, call)) as Loose
  const createdTime = typeof merchant.createdAt === 'string' ? Date.parse(merchant.createdAt) : Number.NaN
  const start = Number.isNaN(createdTime) || createdTime > scope.from.getTime() ? new Date(HISTORY_START) : new Date(createdTime)
  const history = await entriesSum(client, currency, start, scope.from, timeoutMs, call)
  const opening = row(
    'opening',
    history.amount,
    `the ${history.count} settlement entries created before ${scope.from.toISOString()} (since ${start.toISOString()}${Number.isNaN(createdTime) ? '' : `, when ${owner.merchantId} was made`})`,
    { count: history.count },
  )
  if (total === undefined) {
    const why = `not given: the balances of ${owner.merchantId} show no total in ${currency}`
    return [opening, moved, row('closing', null, why)]
  }
  const tail = asOf.getTime() > scope.to.getTime() ? await entriesSum(client, currency, scope.to, asOf, timeoutMs, call) : { amount: 0, count: 0 }
  const closingAmount = total - tail.amount
  const computed = history.amount + movements.amount
  const balanced = computed === closingAmount
  const check = balanced ? 'opening + movements = closing' : `opening + movements = ${m(computed)}, not the closing balance`
  const closing = row(
    'closing',
    closingAmount,
    `the balance of ${m(total)} at ${asOf.toISOString()} less the ${tail.count} entries created since ${scope.to.toISOString()} (${m(tail.amount)}); ${check}`,
    { count: tail.count, matched: balanced },
  )
  const rows = [opening, moved, closing]
  if (!balanced)
    rows.unshift(
      engine.balanceMismatch(
        owner.merchantId,
        currency,
        closingAmount,
        computed,
        `opening ${m(history.amount)} + movements ${m(movements.amount)} ≠ closing ${m(closingAmount)}`,
      ),
    )
  return rows
}
