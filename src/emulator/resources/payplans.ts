// Pay plans: registered for routing now; handlers to come (each answers 501 emulator_pending).
import { pendingRoute } from '../route.js'

export const routes = [
  pendingRoute('POST', '/payplans/offer'),
  pendingRoute('GET', '/payplans'),
  pendingRoute('POST', '/payplans'),
  pendingRoute('GET', '/payplans/{payPlanId}'),
  pendingRoute('POST', '/payplans/max'),
  pendingRoute('POST', '/payplans/parameters'),
]
