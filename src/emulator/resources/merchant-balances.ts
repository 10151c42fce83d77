// A merchant's balances, read from the ledger (`GET /merchants/{merchantId}/balances`, and the
// simulation's balance check).
import { ledgerTotal } from '../ledger.js'
import type { MerchantRecord, Store } from '../store.js'

export interface CurrencyBalance {
  currency: string
  available: { minorCurrencyUnits: number; currency: string }
  pending: { minorCurrencyUnits: number; currency: string }
  total: { minorCurrencyUnits: number; currency: string }
}

/**
 * A merchant's balances per currency, from the ledger: entries available by today (`availableOn`
 * on or before the emulator's date) are available, later ones pending. The merchant's own currency
 * is always listed; other currencies when the ledger has entries in them.
 */
export function merchantBalances(store: Store, merchant: MerchantRecord, now: Date): CurrencyBalance[] {
  const currencies = [merchant.currency]
  for (const e of store.settlementEntries) {
    if (e.merchantId === merchant.merchantId && !currencies.includes(e.amount.currency)) currencies.push(e.amount.currency)
  }
  return currencies.map((currency) => {
    const total = ledgerTotal(store.settlementEntries, merchant.merchantId, currency)
    const available = ledgerTotal(store.settlementEntries, merchant.merchantId, currency, now)
    return {
      currency,
      available: { minorCurrencyUnits: available, currency },
      pending: { minorCurrencyUnits: total - available, currency },
      total: { minorCurrencyUnits: total, currency },
    }
  })
}
