// Creations that move money or make what moves it, at most once: a payout request (looked up
// among the payouts after a lost answer) and a payment token (a lost one is harmless: it moves
// no money by itself and expires unused, so a re-run simply makes a new one).
import type { PayfacClient } from '../../client/client.js'
import { formatMoney } from '../../client/money.js'
import type { TokenResult } from '../../client/resources/tokens.js'
import type { Payout } from '../../client/schemas/transactions.js'
import { readForDryRun } from './dry-run.js'
import { runOperation } from './journal-ops.js'
import type { SafetySession } from './session.js'
import { bodyHash } from './transaction-ops.js'

const payoutIdOf = (p: Payout): string | undefined => (typeof p.payoutId === 'string' ? p.payoutId : undefined)

/** Ids of the newest payouts (the service lists newest first). */
async function recentPayouts(client: PayfacClient): Promise<string[]> {
  const page = await client.transactions.payouts.list({ limit: 100 })
  return page.items.map(payoutIdOf).filter((id): id is string => id !== undefined)
}

/**
 * A payout request at most once. `check` is the command's pre-check from the service's state
 * (manual payouts enabled, enough balance): run after an earlier lost request is looked up, so
 * that the payout it made does not read as a missing balance.
 */
export async function payoutOperation(session: SafetySession, client: PayfacClient, body: Record<string, unknown>, check?: () => Promise<void>): Promise<Payout> {
  const amount = body.amount as { minorCurrencyUnits?: unknown; currency?: unknown } | undefined
  const money = typeof amount?.minorCurrencyUnits === 'number' && typeof amount.currency === 'string' ? { minorCurrencyUnits: amount.minorCurrencyUnits, currency: amount.currency } : undefined
  return runOperation<Payout, string[]>(session, {
    key: { kind: 'payout', target: '', amount: money, reference: bodyHash(body) },
    action: `payout request${money ? ` of ${formatMoney(money)}` : ''}`,
    check: `${session.bin} payouts list`,
    before: () => recentPayouts(client),
    reconcile: async (before) => {
      const page = await client.transactions.payouts.list({ limit: 100 })
      const made = page.items.find((p) => {
        const id = payoutIdOf(p)
        const same = !money || (p.amount as { minorCurrencyUnits?: unknown } | undefined)?.minorCurrencyUnits === money.minorCurrencyUnits
        return id !== undefined && !(before ?? []).includes(id) && same
      })
      return made ? { found: made, note: `payout ${payoutIdOf(made)} was made` } : 'absent'
    },
    guard: check ? () => readForDryRun(session.dryRun, 'the merchant and its balances', check).then(() => undefined) : undefined,
    send: () => client.transactions.payouts.request(body),
    resultId: payoutIdOf,
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
