// Checks of flags against a transaction read from the service.
import type { Transaction } from '../../client/schemas/transactions.js'
import { UsageError } from '../errors/index.js'

/** The transaction's currency, or the one given, which must be the same. */
export function currencyOf(txn: Transaction, given: string | undefined): string {
  const own = txn.purchaseDetails?.amount?.currency?.toUpperCase()
  if (given && own && given.toUpperCase() !== own) {
    throw new UsageError(`--currency ${given} is not the transaction's currency (${own})`, `Leave --currency out, or give ${own}`)
  }
  const currency = given ?? own
  if (!currency) throw new UsageError("The transaction's currency is not known", 'Give --currency')
  return currency
}
