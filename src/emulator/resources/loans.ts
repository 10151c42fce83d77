// Loans and loan statements: registered for routing now; handlers to come (each answers 501
// emulator_pending).
import { pendingRoute } from '../route.js'

export const routes = [
  pendingRoute('GET', '/loans'),
  pendingRoute('GET', '/loans/statements'),
  pendingRoute('GET', '/loans/statements/{loanStatementId}'),
  pendingRoute('GET', '/loans/statements/entries'),
  pendingRoute('GET', '/loans/statements/entries/report'),
  pendingRoute('GET', '/loans/enterprise/statements/{loanStatementId}/download'),
]
