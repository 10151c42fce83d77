// Heap used by the emulator while 100 000 requests go through it, to show that its logs (the
// request log, 1000 entries; the delivery log, 2000 attempts) keep memory bounded.
//
//   npm run build && node --expose-gc bench/emulator-memory.mjs
//
// Requests are driven in-process (createEmulatorApp().request), with webhook deliveries sent by
// a stub that answers 200 at once, so that the figure is the emulator's and not a socket
// library's. The mix does not grow the store: reads of an order, reads of a missing order,
// order creations refused by an injected 503, unauthenticated calls, and synthetic events
// (POST /__emulator/trigger) each delivered to one subscription.
import { createEmulatorApp } from '../dist/emulator/index.js'

const TOTAL = 100_000
const CHECKPOINTS = [0, 25_000, 50_000, 75_000, 100_000]

const gc = globalThis.gc
if (!gc) process.stderr.write('note: run with node --expose-gc for settled figures\n')

const app = createEmulatorApp({ integrators: { send: async () => ({ status: 200, body: 'ok' }) } })
const drained = async () => {
  while (app.namespaces.root.deliveries.pendingCount > 0) await new Promise((resolve) => setImmediate(resolve))
}
const heapMb = async () => {
  await drained()
  gc?.()
  return process.memoryUsage().heapUsed / (1024 * 1024)
}

app.request('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { url: 'https://hooks.example.com/bench', events: ['BenchPing'] } } })
const orderId = app.request('POST', '/orders', {
  body: { CreateOnlineOrder: { amount: { minorCurrencyUnits: 1000, currency: 'AUD' }, referenceOrderId: 'bench' } },
}).body.OnlineOrder.order.orderId

const rows = []
const started = performance.now()
for (let i = 0; i <= TOTAL; i++) {
  if (CHECKPOINTS.includes(i)) {
    const heap = await heapMb()
    rows.push({
      requests: i,
      heapUsedMb: heap.toFixed(1),
      requestLog: app.namespaces.root.requests.length,
      deliveryLog: app.namespaces.root.deliveries.log.length,
    })
  }
  if (i === TOTAL) break
  switch (i % 5) {
    case 0:
      app.request('POST', '/__emulator/trigger', { credential: null, body: { eventType: 'BenchPing', data: { i } } })
      break
    case 1:
      app.request('GET', `/orders/${orderId}`)
      break
    case 2:
      app.request('GET', '/orders/ordr_AAAAAAAAAAAAAAAA')
      break
    case 3:
      app.request('POST', '/orders', {
        headers: { 'Emulator-Fault': '503' },
        body: { CreateOnlineOrder: { amount: { minorCurrencyUnits: 1000, currency: 'AUD' } } },
      })
      break
    default:
      app.request('GET', '/orders', { credential: null })
  }
  if (i % 1000 === 999) await drained()
}
const seconds = (performance.now() - started) / 1000
app.close()

console.log(`node ${process.version}, ${TOTAL} requests in ${seconds.toFixed(1)} s (${Math.round(TOTAL / seconds)} per second)`)
console.log('requests  heap used (MB)  request log  delivery log')
for (const r of rows)
  console.log(`${String(r.requests).padStart(8)}  ${r.heapUsedMb.padStart(14)}  ${String(r.requestLog).padStart(11)}  ${String(r.deliveryLog).padStart(12)}`)
