// Settlement entries changed behind the ledger's back, for reconciliation tests: the control
// plane's `DELETE /__emulator/settlement/{id}` and the month fixture's seeded mismatches. No
// operation of the service does this; these reach into the store on purpose, and only here.
import { badRequest, notFound } from './api-error.js'
import type { IdGenerator } from './ids.js'
import type { SettlementEntry } from './ledger.js'
import type { Store } from './store.js'
import { WELL_KNOWN } from '../well-known.js'

export const MISMATCH_KINDS = ['missing-entry', 'duplicate-entry', 'fee-off-by-cent'] as const
export type MismatchKind = (typeof MISMATCH_KINDS)[number]

export interface SeededMismatch {
  kind: MismatchKind
  settlementEntryId: string
  transactionId: string | null
  /** The copy, for a duplicated entry. */
  duplicateId?: string
}

/** Removes one entry; answers it. */
export function removeSettlementEntry(store: Store, settlementEntryId: string): SettlementEntry {
  const entry = store.settlementEntries.get(settlementEntryId)
  if (!entry) throw notFound('Settlement entry', settlementEntryId)
  store.settlementEntries.delete(settlementEntryId)
  return entry
}

/**
 * Adds one mismatch to the ledger of the month: the Payment entry of a recent transaction removed,
 * or copied under a new id, or its ServiceFee entry one cent off. Recent (not yet paid out), so
 * that the only difference is the one seeded.
 */
export function seedMismatch(
  store: Store,
  ids: IdGenerator,
  kind: MismatchKind,
  transactionIds: readonly string[],
  /** Transactions already given a mismatch: left alone, so that each seeded difference is its own. */
  taken: ReadonlySet<string> = new Set(),
): SeededMismatch {
  const wanted = kind === 'fee-off-by-cent' ? 'ServiceFee' : 'Payment'
  const candidates = new Set(transactionIds)
  // The seeded merchant's when it has one (what the built-in `local` profile sees), else any merchant's.
  let target: SettlementEntry | undefined
  let fallback: SettlementEntry | undefined
  const entries = store.settlementEntries.all()
  for (let i = entries.length - 1; i >= 0 && !target; i--) {
    const e = entries[i] as SettlementEntry
    if (e.type !== wanted || e.payoutId !== null || e.transactionId === null || !candidates.has(e.transactionId) || taken.has(e.transactionId)) continue
    if (e.merchantId === WELL_KNOWN.merchantId) target = e
    else fallback ??= e
  }
  target ??= fallback
  if (!target) throw badRequest('invalid_request', `Invalid request: no ${wanted} entry left to change for ${kind}`)
  const seeded: SeededMismatch = { kind, settlementEntryId: target.settlementEntryId, transactionId: target.transactionId }
  if (kind === 'missing-entry') removeSettlementEntry(store, target.settlementEntryId)
  else if (kind === 'fee-off-by-cent') {
    target.amount.minorCurrencyUnits -= 1
    // Changed in place: what the ledger's watchers derived from it (the invoices) is derived again.
    store.settlementEntries.reindex(target.settlementEntryId)
  } else {
    const copy: SettlementEntry = { ...target, amount: { ...target.amount }, settlementEntryId: ids.next('stl') }
    // Same time as the original, made after it: it follows it in every list and report.
    store.settlementEntries.set(copy.settlementEntryId, copy)
    seeded.duplicateId = copy.settlementEntryId
  }
  return seeded
}
