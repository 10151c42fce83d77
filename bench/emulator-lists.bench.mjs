// Emulator lists cost the page, not the store (issue 13, item 3): GET /orders pages, one-orderId
// filters, one-hour windows and an arbitrary sort at 1 000 000 seeded orders (quick: 100 000);
// the same requests at 1 000 orders in another namespace of the same emulator are the baseline.
// The settlement list's one-hour window is timed over 1 000 000 entries (quick: 100 000), and so
// is the invoice list (invoices are derived from the ledger's ServiceFee entries; the first read
// fills the emulator's invoice book once, timed on its own row), against 1 000 entries. The
// webhook subscription list of one merchant is timed beside many subscriptions of another merchant
// of the marketplace (10 000; quick: 1 000), against none.
// Each figure is the median of runs over one keep-alive connection, as the emulator's own time
// (its request log: routing, handler, JSON) against the goal, with the HTTP round trip beside it
// (on a busy machine the socket alone costs milliseconds).
import { emulatorMedianMs, fmt, medianMs, startChild, timed } from './lib/child.mjs'

const NS = { 'Emulator-Namespace': 'bench-small' }
// The marketplace key and its sub-merchant of the emulator's well-known seed.
const MARKETPLACE_KEY = 'sandbox_api_emulatorMarketplaceKey0001'
const SUB_MERCHANT = 'mcht_LocalSubMerch001'

/** `count` webhook subscriptions of the sub-merchant, and one of the well-known merchant (in the namespace of `headers`). */
async function subscriptions(url, count, headers = {}) {
  const create = async (body, extra) => {
    const r = await timed(`${url}/webhooks`, { method: 'POST', body, headers: { ...headers, ...extra }, keep: true })
    if (r.status !== 200 && r.status !== 201) throw new Error(`webhook: ${r.status} ${r.text}`)
  }
  const sub = { authorization: `Bearer ${MARKETPLACE_KEY}`, 'Merchant-Id': SUB_MERCHANT }
  for (let i = 0; i < count; i++)
    await create({ CreateWebhookMerchantSubscription: { url: `https://sub.example/hooks/${i}`, events: ['TransactionPaid'] } }, sub)
  await create({ CreateWebhookMerchantSubscription: { url: 'https://merchant.example/hooks', events: ['TransactionPaid'] } }, {})
}

async function seed(url, body, headers = {}) {
  const r = await timed(`${url}/__emulator/seed`, { method: 'POST', body, headers, keep: true })
  if (r.status !== 200) throw new Error(`seed: ${r.status} ${r.text}`)
  return JSON.parse(r.text)
}

async function firstOrder(url, query, headers = {}) {
  const r = await timed(`${url}/orders?limit=1&${query}`, { headers, keep: true })
  return JSON.parse(r.text)[0]
}

export default async function bench(ctx) {
  const big = ctx.quick ? 100_000 : 1_000_000
  const runs = ctx.quick ? 5 : 15
  const child = await startChild('emulator', { heapMb: 4096 })
  try {
    ctx.log(`emulator-lists: seeding ${big} orders and ${big} settlement entries …`)
    const seeded = await seed(child.url, { orders: big, settlementEntries: big, days: 30 })
    await seed(child.url, { orders: 1000, settlementEntries: 1000, days: 30 }, NS)
    const hooks = ctx.quick ? 1_000 : 10_000
    await subscriptions(child.url, hooks)
    await subscriptions(child.url, 0, NS)
    ctx.log(`emulator-lists: seeded in ${seeded.durationMs} ms`)
    const middle = new Date((Date.parse(seeded.from) + Date.parse(seeded.to)) / 2)
    const hour = `createdAfter=${middle.toISOString()}&createdBefore=${new Date(middle.getTime() + 3_600_000).toISOString()}`
    const bigOne = (await firstOrder(child.url, `page=${Math.floor(big / 2)}`)).orderId
    const smallOne = (await firstOrder(child.url, 'page=500', NS)).orderId
    // The small namespace's figure: its request is sent first, so that the emulator's own timing is of a warm path.
    const warmedMedian = async (url) => {
      await medianMs(url, runs, { headers: NS })
      return emulatorMedianMs(child.url, runs, NS)
    }
    const figure = async (name, goalMs, bigPath, smallPath, goalText, baselineOf = 'at 1 000') => {
      const http = await medianMs(`${child.url}${bigPath}`, runs, {})
      const measured = await emulatorMedianMs(child.url, runs)
      const baseline = smallPath === null ? null : await warmedMedian(`${child.url}${smallPath}`)
      return {
        figure: name,
        goal: goalText ?? `≤ ${goalMs} ms`,
        measured: `${fmt(measured, 2)} ms (HTTP ${fmt(http)} ms)`,
        baseline: baseline === null ? '-' : `${fmt(baseline, 2)} ms ${baselineOf}`,
        ratio: baseline === null ? null : Number((measured / baseline).toFixed(2)),
        pass: goalMs === null ? null : measured <= goalMs,
      }
    }
    const n = big.toLocaleString('en')
    const lastPage = Math.ceil(big / 500)
    const sort = 'sort=-amount,referenceOrderId&limit=500'
    // The first sorted page sorts the store once (then cached until the store changes).
    await timed(`${child.url}/orders?${sort}&page=2`)
    const sortOnce = await emulatorMedianMs(child.url, 1)
    // The first invoice read fills the invoice book from the ledger (once; later entries are added as written).
    await timed(`${child.url}/transactions/invoices?limit=10`, { keep: true })
    const bookOnce = await emulatorMedianMs(child.url, 1)
    const rows = [
      await figure(`GET /orders?limit=500 (page 1) at ${n} orders`, 20, '/orders?limit=500', '/orders?limit=500'),
      await figure(
        `GET /orders?limit=500 (page ${Math.floor(lastPage / 2)}) at ${n}`,
        20,
        `/orders?limit=500&page=${Math.floor(lastPage / 2)}`,
        '/orders?limit=500&page=1',
      ),
      await figure(`GET /orders?limit=500 (last page, ${lastPage}) at ${n}`, 20, `/orders?limit=500&page=${lastPage}`, '/orders?limit=500&page=2'),
      await figure(`GET /orders?orderId=<one> at ${n}`, 2, `/orders?orderId=${bigOne}`, `/orders?orderId=${smallOne}`),
      await figure(`GET /orders one-hour window, limit=500, at ${n}`, 20, `/orders?limit=500&${hour}`, `/orders?limit=500&${hour}`),
      await figure(
        `GET /orders?status=cancelled&limit=500 (page 10) at ${n}`,
        20,
        '/orders?status=cancelled&limit=500&page=10',
        '/orders?status=cancelled&limit=500',
      ),
      {
        figure: `GET /orders?${sort}: first sorted page at ${n} (sorts once)`,
        goal: 'O(n log n) once',
        measured: `${fmt(sortOnce)} ms`,
        baseline: '-',
        ratio: null,
        pass: null,
      },
      await figure(`GET /orders?${sort}: next pages (cached)`, 20, `/orders?${sort}&page=3`, `/orders?${sort}&page=1`),
      await figure(
        `GET /transactions/settlement one-hour window at ${n} entries`,
        20,
        `/transactions/settlement?currency=AUD&${hour}&limit=500`,
        null,
        '≤ 20 ms (was 30 ms at 1M)',
      ),
      {
        figure: `GET /transactions/invoices: first read at ${n} entries (fills the invoice book once)`,
        goal: 'O(n) once',
        measured: `${fmt(bookOnce)} ms`,
        baseline: '-',
        ratio: null,
        pass: null,
      },
      await figure(
        `GET /transactions/invoices?limit=10 at ${n} entries`,
        20,
        '/transactions/invoices?limit=10',
        '/transactions/invoices?limit=10',
        '≤ 20 ms (was 378–1 380 ms at 1.2M)',
      ),
      await figure(
        `GET /webhooks (one merchant's) beside ${hooks.toLocaleString('en')} of another merchant`,
        2,
        '/webhooks',
        '/webhooks',
        undefined,
        'beside none',
      ),
    ]
    return rows
  } finally {
    await child.close()
  }
}
