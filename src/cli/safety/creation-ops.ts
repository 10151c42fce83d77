// Creations that move money or make what moves it, at most once: a payout request (looked up
// among the payouts after a lost answer; before sending, the second witness looks among the
// merchant's recent payouts for an identical one: witness.ts) and a payment token (a lost one
// is harmless: it moves no money by itself and expires unused, so a re-run makes a new one).
import type { PayfacClient } from '../../client/client.js'
import { formatMoney } from '../../client/money.js'
import type { TokenResult } from '../../client/resources/tokens.js'
import type { Payout } from '../../client/schemas/transactions.js'
import { readForDryRun } from './dry-run.js'
import { runOperation } from './journal-ops.js'
import type { SafetySession } from './session.js'
import { bodyHash } from './transaction-ops.js'
import { NEWEST_FIRST, repeatWindowMs, witnessPayout } from './witness.js'

const payoutIdOf = (p: Payout): string | undefined => (typeof p.payoutId === 'string' ? p.payoutId : undefined)

/** Ids of the newest payouts (asked for newest first: the contract does not say the order without `sort`). */
async function recentPayouts(client: PayfacClient): Promise<string[]> {
  return idsOf(await client.transactions.payouts.list({ limit: 100, sort: NEWEST_FIRST }))
}

const idsOf = (page: { items: Payout[] }): string[] => page.items.map(payoutIdOf).filter((id): id is string => id !== undefined)

export interface PayoutOptions {
  /** `--repeat-window`: how far back the merchant's payouts are searched for an identical one. */
  repeatWindow?: string | undefined
  /** The merchant acted for, when known: another merchant's payout is not a repeat. */
  merchantId?: string | undefined
  /**
   * `--available`: the amount was read from the balance just before, so a re-run reads another
   * one. The operation is then known by its currency alone, and an earlier lost request counts as
   * made when any new payout appeared since (the balance itself keeps money from leaving twice).
   */
  wholeBalance?: boolean | undefined
}

/**
 * A payout request at most once. `check` is the command's pre-check from the service's state
 * (manual payouts enabled, enough balance): run after an earlier lost request is looked up, so
 * that the payout it made does not read as a missing balance.
 */
export async function payoutOperation(
  session: SafetySession,
  client: PayfacClient,
  body: Record<string, unknown>,
  check?: () => Promise<void>,
  options: PayoutOptions = {},
): Promise<Payout> {
  const amount = body.amount as { minorCurrencyUnits?: unknown; currency?: unknown } | undefined
  const money =
    typeof amount?.minorCurrencyUnits === 'number' && typeof amount.currency === 'string'
      ? { minorCurrencyUnits: amount.minorCurrencyUnits, currency: amount.currency }
      : undefined
  // A payout of "all that is available" names no amount: nothing to compare, so no witness.
  const currency = money?.currency ?? (typeof body.currency === 'string' ? body.currency : undefined)
  const windowMs = repeatWindowMs('payout', options.repeatWindow)
  let seenIds: string[] | undefined
  return runOperation<Payout, string[]>(session, {
    key: options.wholeBalance
      ? { kind: 'payout', target: '', amount: undefined, reference: bodyHash({ wholeBalance: money?.currency ?? body.currency }) }
      : { kind: 'payout', target: '', amount: money, reference: bodyHash(body) },
    // --available names no amount of its own: the amount read changes from run to run.
    action: options.wholeBalance
      ? `payout of the whole available ${currency ?? ''} balance`.replace('  ', ' ')
      : `payout request${money ? ` of ${formatMoney(money)}` : ''}`,
    check: `${session.bin} payouts list`,
    before: async () => seenIds ?? (await recentPayouts(client)),
    reconcile: async (before) => {
      const page = await client.transactions.payouts.list({ limit: 100, sort: NEWEST_FIRST })
      const made = page.items.find((p) => {
        const id = payoutIdOf(p)
        const paid = p.amount as { minorCurrencyUnits?: unknown; currency?: unknown } | undefined
        // A payout in another currency is never this one: `--available` of AUD is not found by a
        // USD payout made since (the whole-balance rule counts any payout of its own currency).
        const sameCurrency = !currency || typeof paid?.currency !== 'string' || paid.currency.toUpperCase() === currency.toUpperCase()
        const same = sameCurrency && (!money || options.wholeBalance || paid?.minorCurrencyUnits === money.minorCurrencyUnits)
        return id !== undefined && !(before ?? []).includes(id) && same
      })
      return made ? { found: made, note: `payout ${payoutIdOf(made)} was made` } : 'absent'
    },
    guard: check ? () => readForDryRun(session.dryRun, 'the merchant and its balances', check).then(() => undefined) : undefined,
    send: () => client.transactions.payouts.request(body),
    resultId: payoutIdOf,
    witness:
      money && windowMs > 0
        ? async () => {
            const read = await witnessPayout(client, money, options.merchantId, windowMs)
            seenIds = idsOf(read.firstPage)
            return read.seen
          }
        : undefined,
  })
}

export async function tokenOperation(session: SafetySession, client: PayfacClient, envelope: Record<string, unknown>): Promise<TokenResult> {
  return runOperation<TokenResult>(session, {
    key: { kind: 'token', target: '', reference: bodyHash(envelope) },
    action: 'creation of a payment token',
    check: 'nothing to check: a payment token moves no money by itself, and one left unused expires; run the command again for a new one',
    reconcile: async () => 'absent',
    repeatable: true,
    send: () => client.tokens.create(envelope as never),
  })
}
