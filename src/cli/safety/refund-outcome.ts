// What a refund did, read from the transaction the service answered with: the refund it made
// (the service appends its id to refundIds) and what remains refundable.
import { toMinorUnits } from '../../client/money.js'
import type { Transaction } from '../../client/index.js'
import type { RefundOutcome } from '../../output/views/transactions.js'

export function refundOutcome(after: Transaction, amount: string): RefundOutcome {
  const details = after.purchaseDetails
  const total = details?.amount
  const refundedSoFar = details?.refundedAmount
  return {
    refundId: details?.refundIds?.at(-1),
    refunded: total ? { minorCurrencyUnits: toMinorUnits(amount, total.currency), currency: total.currency } : undefined,
    remaining:
      total && typeof refundedSoFar === 'number' ? { minorCurrencyUnits: total.minorCurrencyUnits - refundedSoFar, currency: total.currency } : undefined,
    transaction: after,
  }
}
