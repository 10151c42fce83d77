// The emulator's web pages (issue 21): each page's first render at 100 000 orders (quick:
// 10 000), and the inspector with 1 000 000 logged requests (quick: 100 000) — its shell, the
// newest page of the log, a page from the middle, one request whole, the overview, a page of
// the orders collection from the middle, one record. Each figure is the median time to the last
// byte of the page's HTML or JSON over one keep-alive connection, against 50 ms; the baseline is
// the same request against a fresh namespace of the same emulator (a handful of records).
// The log is filled directly (its entries as the front door writes them), not by a million
// requests: what is measured is reading it.
import { fmt, medianMs, timed } from './lib/child.mjs'

const GOAL_MS = 50
const NS = 'bench-pages-small'

async function api(url, path, body, headers = {}) {
  const r = await timed(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', body, headers, keep: true })
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`)
  return JSON.parse(r.text)
}

/** The pages of one namespace: a pay-by-link order, a 3DS challenge, a PayTo agreement. */
async function pagesOf(url, headers) {
  const aud = (m) => ({ minorCurrencyUnits: m, currency: 'AUD' })
  const link = await api(
    url,
    '/orders',
    { CreatePayByLink: { amount: aud(1250), description: 'Bench order', items: [{ amount: aud(1250), description: 'Thing', quantity: 1 }] } },
    headers,
  )
  const customer = await api(url, '/customers', { UpsertConsumerCustomer: { emailAddress: 'bench@example.com', givenName: 'B', familyName: 'C' } }, headers)
  const source = await api(
    url,
    '/sources',
    { CreateCardPaymentSource: { cardNumber: '4000000000003220', expiryMonth: 12, expiryYear: 2099, cvc: '123' } },
    { ...headers, 'Customer-Id': customer.customerId },
  )
  const token = await api(url, '/tokens', { CreateSavedPaymentSourceToken: { paymentSourceId: source.paymentSourceId, amount: aud(900) } }, headers)
  const order = await api(url, '/orders', { CreateOnlineOrder: { amount: aud(900) } }, headers)
  const asked = await api(
    url,
    `/orders/${order.OnlineOrder.order.orderId}/pay`,
    { PayByCard: { paymentTokenId: token.SavedPaymentSourceToken.paymentTokenId } },
    headers,
  )
  const agreement = await api(
    url,
    '/payto/agreement',
    { customerName: 'No Answer Test', customerAccIdentifier: { Bban: { value: '062-000 12345678' } }, terms: { AgreementRequestTermsOpen: {} } },
    headers,
  )
  const q = headers['Emulator-Namespace'] ? `?namespace=${headers['Emulator-Namespace']}` : ''
  return {
    checkout: new URL(link.PayByLinkOrder.payByLinkUrl).pathname + q,
    threeDS: new URL(asked.ThreeDSAuthorisationRequired.challengeUrl).pathname + q,
    payTo: `/checkout/payto/${agreement.token}${q}`,
    orderId: link.PayByLinkOrder.order.orderId,
    q,
  }
}

export default async function bench(ctx) {
  const orders = ctx.quick ? 10_000 : 100_000
  const logged = ctx.quick ? 100_000 : 1_000_000
  const runs = ctx.quick ? 5 : 15
  const { startEmulator } = await import('../dist/emulator/index.js')
  const emulator = await startEmulator({ port: 0, integrators: { requestLogCapacity: logged } })
  try {
    const url = emulator.url
    ctx.log(`pages: seeding ${orders} orders and logging ${logged} requests …`)
    await api(url, '/__emulator/seed', { orders, days: 30 })
    const log = emulator.app.namespaces.root.requests
    const headers = { host: '127.0.0.1', authorization: 'Bearer sandbox_sk_…0001', accept: 'application/json' }
    for (let i = 0; i < logged; i++) {
      log.add({
        requestId: `req_bench${String(i).padStart(11, '0')}`,
        at: Date.now(),
        method: 'GET',
        url: `/orders?page=${i % 500}`,
        status: 200,
        durationMs: 0.5,
        fault: null,
        requestHeaders: headers,
        requestBody: null,
        responseBody: '[{"orderId":"ordr_x"}]',
        warning: null,
      })
    }
    const big = await pagesOf(url, {})
    const small = await pagesOf(url, { 'Emulator-Namespace': NS })
    const middle = Math.floor(log.latestSeq / 2)
    const figure = async (name, bigPath, smallPath) => {
      const measured = await medianMs(`${url}${bigPath}`, runs, {})
      const baseline = await medianMs(`${url}${smallPath}`, runs, {})
      return {
        figure: name,
        goal: `≤ ${GOAL_MS} ms`,
        measured: `${fmt(measured, 2)} ms`,
        baseline: `${fmt(baseline, 2)} ms (a fresh namespace)`,
        ratio: Number((measured / baseline).toFixed(2)),
        pass: measured <= GOAL_MS,
      }
    }
    const o = orders.toLocaleString('en')
    const n = logged.toLocaleString('en')
    const sq = small.q ? `&${small.q.slice(1)}` : ''
    return [
      await figure(`pay-by-link page at ${o} orders`, big.checkout, small.checkout),
      await figure(`3DS challenge page at ${o} orders`, big.threeDS, small.threeDS),
      await figure(`PayTo approval page at ${o} orders`, big.payTo, small.payTo),
      await figure(`inspector page with ${n} logged requests`, '/__emulator/ui', `/__emulator/ui${small.q}`),
      await figure(`inspector: newest 50 of ${n} requests`, '/__emulator/ui/api/requests', `/__emulator/ui/api/requests${small.q}`),
      await figure(
        `inspector: 50 from the middle of ${n} requests`,
        `/__emulator/ui/api/requests?before=${middle}`,
        `/__emulator/ui/api/requests?before=3${sq}`,
      ),
      await figure(`inspector: one request of ${n}, whole`, `/__emulator/ui/api/requests/${middle}`, `/__emulator/ui/api/requests/1${small.q}`),
      await figure(`inspector: overview at ${o} orders`, '/__emulator/ui/api/overview', `/__emulator/ui/api/overview${small.q}`),
      await figure(
        `inspector: orders ${Math.floor(orders / 2)}–${Math.floor(orders / 2) + 50} of ${o}`,
        `/__emulator/ui/api/state/orders?offset=${Math.floor(orders / 2)}`,
        `/__emulator/ui/api/state/orders${small.q}`,
      ),
      await figure(
        `inspector: one order with its links at ${o} orders`,
        `/__emulator/ui/api/record/${big.orderId}`,
        `/__emulator/ui/api/record/${small.orderId}${small.q}`,
      ),
    ]
  } finally {
    await emulator.close()
  }
}
