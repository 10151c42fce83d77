// Webhook subscriptions: registered for routing now; handlers to come (each answers 501
// emulator_pending). Events to deliver are in store.events (events.ts).
import { pendingRoute } from '../route.js'

export const routes = [
  pendingRoute('GET', '/webhooks'),
  pendingRoute('POST', '/webhooks'),
  pendingRoute('GET', '/webhooks/{id}'),
  pendingRoute('PATCH', '/webhooks/{id}'),
]
