// What a refund did, read from the transaction before and after it.
import type { Transaction } from '../client/index.js'
import type { RefundOutcome } from '../output/views/transactions.js'

export function refundOutcome(before: Transaction, after: Transaction, refundAmount: number): RefundOutcome {
  const known = new Set(before.purchaseDetails?.refundIds ?? [])
  const added = (after.purchaseDetails?.refundIds ?? []).filter((id) => !known.has(id))
  const amount = after.purchaseDetails?.amount
  const currency = amount?.currency
  const refundedSoFar = after.purchaseDetails?.refundedAmount
  return {
    refundId: added.at(-1),
    refunded: currency ? { minorCurrencyUnits: refundAmount, currency } : undefined,
    remaining: amount && typeof refundedSoFar === 'number' ? { minorCurrencyUnits: amount.minorCurrencyUnits - refundedSoFar, currency: amount.currency } : undefined,
    transaction: after,
  }
}
