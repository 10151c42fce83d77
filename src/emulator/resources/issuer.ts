// Digital card issuing: registered for routing now; handlers to come (each answers 501
// emulator_pending).
import { pendingRoute } from '../route.js'

export const routes = [pendingRoute('POST', '/issuer/card'), pendingRoute('GET', '/issuer/card')]
