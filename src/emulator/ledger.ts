// The money ledger: one signed entry per movement of a merchant's money (credit positive).
// Payments, refunds, fees and transfers write here; balances, payouts, invoices and settlement
// reports are all read from it. Entries are never changed once written, except that a payout
// sets `payoutId` on the entries it pays out.
import type { Money } from '../client/money.js'
import { addDays, isoDate, timestamp } from './clock.js'
import type { Clock } from './clock.js'
import type { Collection } from './collection.js'
import type { IdGenerator } from './ids.js'

/** What writing to the ledger needs (a handler's context has it). */
export interface LedgerContext {
  store: { settlementEntries: Collection<SettlementEntry> }
  clock: Clock
  ids: IdGenerator
}

export type SettlementEntryType =
  | 'Payment'
  | 'Refund'
  | 'ServiceFee'
  | 'Transfer'
  | 'TransferReversal'
  | 'Payout'
  | 'BankTransfer'
  | 'DisputeDebit'
  | 'DisputeCredit'

export interface SettlementEntry {
  settlementEntryId: string
  merchantId: string
  type: SettlementEntryType
  /** Signed: a credit to the merchant is positive, a debit negative. */
  amount: Money
  transactionId: string | null
  orderId: string | null
  refundId: string | null
  payoutId: string | null
  createdAt: string
  /** Date (YYYY-MM-DD) from which the entry counts towards the available balance. */
  availableOn: string
  description: string
}

/**
 * Days after which an entry becomes available for payout (the emulator's own rule): money coming
 * in (payments, incoming transfers, bank transfers, dispute credits) waits this long; debits
 * (fees, refunds, outgoing transfers, payouts, dispute debits) count at once.
 */
export const AVAILABILITY_DELAY_DAYS = 2

export interface LedgerInput {
  merchantId: string
  type: SettlementEntryType
  amount: Money
  description: string
  transactionId?: string | null
  orderId?: string | null
  refundId?: string | null
  payoutId?: string | null
  /** Overrides the default availability rule. */
  availableOn?: string
}

/** Appends one entry to `store.settlementEntries` and returns it. */
export function appendLedger(ctx: LedgerContext, input: LedgerInput): SettlementEntry {
  const now = ctx.clock.now()
  const delayed = input.amount.minorCurrencyUnits > 0 && input.type !== 'TransferReversal' && input.type !== 'Refund'
  const entry: SettlementEntry = {
    settlementEntryId: ctx.ids.next('stl'),
    merchantId: input.merchantId,
    type: input.type,
    amount: { minorCurrencyUnits: input.amount.minorCurrencyUnits, currency: input.amount.currency },
    transactionId: input.transactionId ?? null,
    orderId: input.orderId ?? null,
    refundId: input.refundId ?? null,
    payoutId: input.payoutId ?? null,
    createdAt: timestamp(now),
    availableOn: input.availableOn ?? isoDate(delayed ? addDays(now, AVAILABILITY_DELAY_DAYS) : now),
    description: input.description,
  }
  ctx.store.settlementEntries.set(entry.settlementEntryId, entry)
  return entry
}

/** Sum of a merchant's entries in one currency; `availableAt` (a Date) counts only entries available by then. */
export function ledgerTotal(entries: Iterable<SettlementEntry>, merchantId: string, currency: string, availableAt?: Date): number {
  const day = availableAt ? isoDate(availableAt) : undefined
  let total = 0
  for (const e of entries) {
    if (e.merchantId !== merchantId || e.amount.currency !== currency) continue
    if (day !== undefined && e.availableOn > day) continue
    total += e.amount.minorCurrencyUnits
  }
  return total
}
