// Marketplaces: registered for routing now; handlers to come (each answers 501 emulator_pending).
// Records: store.marketplaces (seeded).
import { pendingRoute } from '../route.js'

export const routes = [pendingRoute('GET', '/marketplaces/{marketplaceId}'), pendingRoute('POST', '/marketplaces/customer')]
