// Payouts, merchant invoices, settlement entries, disputes and the refund list: the money side
// of /transactions, read from the ledger (store.settlementEntries) and store.refunds. Registered
// for routing now; handlers to come (each answers 501 emulator_pending).
import { pendingRoute } from '../route.js'

export const routes = [
  pendingRoute('POST', '/transactions/payouts'),
  pendingRoute('GET', '/transactions/payouts'),
  pendingRoute('GET', '/transactions/payouts/{payoutId}'),
  pendingRoute('GET', '/transactions/invoices'),
  pendingRoute('GET', '/transactions/invoices/{invoiceId}'),
  pendingRoute('GET', '/transactions/invoices/{invoiceId}/pdf'),
  pendingRoute('GET', '/transactions/settlement'),
  pendingRoute('GET', '/transactions/settlement/report'),
  pendingRoute('GET', '/transactions/disputes'),
  pendingRoute('GET', '/transactions/refunds'),
]
