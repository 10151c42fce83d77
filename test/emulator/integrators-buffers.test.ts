// The request and delivery logs are ring buffers: their length stays at their capacity however
// many requests go through. Driven in-process (no sockets) so 100 000 requests stay quick; the
// assertions are on lengths and sequence numbers, never on timings.
import { describe, expect, it } from 'vitest'
import { createEmulatorApp } from '../../src/emulator/app.js'
import { fakeClock } from '../../src/emulator/clock.js'
import { DELIVERY_LOG_CAPACITY, type SendResult } from '../../src/emulator/deliveries.js'
import { seededIds } from '../../src/emulator/ids.js'
import { REQUEST_LOG_CAPACITY } from '../../src/emulator/namespaces.js'
import { RingBuffer } from '../../src/emulator/ring-buffer.js'
import { aud } from './integrators-helpers.js'

describe('RingBuffer', () => {
  it('keeps the newest entries, numbered, and answers after a cursor', () => {
    const ring = new RingBuffer<{ seq: number; n: number }>(3)
    for (let n = 1; n <= 5; n++) ring.push({ n })
    expect(ring.length).toBe(3)
    expect(ring.toArray().map((e) => [e.seq, e.n])).toEqual([
      [3, 3],
      [4, 4],
      [5, 5],
    ])
    expect(ring.after(3).map((e) => e.n)).toEqual([4, 5])
    expect(ring.after(0, 1).map((e) => e.n)).toEqual([3])
    expect(ring.last(2).map((e) => e.n)).toEqual([4, 5])
    expect(ring.findLast((e) => e.n < 5)?.n).toBe(4)
    ring.clear()
    expect(ring.length).toBe(0)
    expect(ring.push({ n: 6 }).seq).toBe(6)
    expect(() => new RingBuffer(0)).toThrow()
  })

  it('turns an entry into its view the first time it is read, and only once', () => {
    let views = 0
    const ring = new RingBuffer<{ seq: number; n: number; seen?: boolean }>(2, (e) => {
      if (e.seen) return e
      views++
      return { ...e, n: e.n * 10, seen: true }
    })
    ring.push({ n: 1 })
    ring.push({ n: 2 })
    expect(views).toBe(0)
    expect(ring.last(1).map((e) => e.n)).toEqual([20])
    expect(views).toBe(1)
    expect(ring.toArray().map((e) => e.n)).toEqual([10, 20])
    expect(ring.after(0).map((e) => e.n)).toEqual([10, 20])
    expect(views).toBe(2)
  })
})

describe('the request log', () => {
  it('keeps requests as received and hands them out masked', () => {
    const app = createEmulatorApp({ clock: fakeClock(), ids: seededIds() })
    app.request('GET', '/orders?note=sandbox_sk_leakedKey12345678', { headers: { 'x-extra': 'sandbox_api_anotherKey00009999' } })
    const [entry] = app.namespaces.root.requests.last(1)
    expect(entry?.url).toBe('/orders?note=sandbox_sk_…5678')
    expect(entry?.requestHeaders['x-extra']).toBe('sandbox_api_…9999')
    expect(entry?.requestHeaders.authorization).toBe('Bearer sandbox_sk_…0001')
    expect(JSON.stringify(app.request('GET', '/__emulator/requests?limit=5', { credential: null }).body)).not.toMatch(/leakedKey|anotherKey|MerchantSecret/)
  })
})

describe('bounded logs under 100 000 requests', () => {
  it('the request log keeps its last 1000 requests and the delivery log its last 2000 attempts', async () => {
    let sent = 0
    const send = async (): Promise<SendResult> => {
      sent++
      return { status: 200, body: 'ok' }
    }
    const app = createEmulatorApp({ clock: fakeClock(), ids: seededIds('ring'), integrators: { send } })
    const drained = async () => {
      while (app.namespaces.root.deliveries.pendingCount > 0) await new Promise((resolve) => setImmediate(resolve))
    }
    app.request('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { url: 'https://hooks.example.com/x', events: ['Ping'] } } })
    const orderId = app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: 'ring' } } }).body.OnlineOrder.order
      .orderId
    const total = 100_000
    let contract = 2
    let triggered = 0
    for (let i = 0; i < total; i++) {
      const kind = i % 5
      if (kind === 0) {
        app.request('POST', '/__emulator/trigger', { credential: null, body: { eventType: 'Ping', data: { i } } })
        triggered++
        continue
      }
      contract++
      if (kind === 1) app.request('GET', `/orders/${orderId}`)
      else if (kind === 2) app.request('GET', '/orders/ordr_AAAAAAAAAAAAAAAA')
      else if (kind === 3) app.request('POST', '/orders', { headers: { 'Emulator-Fault': '503' }, body: { CreateOnlineOrder: { amount: aud(100) } } })
      else app.request('GET', '/payto/alias?aliasType=Phone&value=%2B61412345678', { credential: 'nobody' })
      // Let the background sender catch up now and then, as the event loop would between requests.
      if (i % 1000 === 999) await drained()
    }
    await drained()

    const requests = app.namespaces.root.requests
    expect(REQUEST_LOG_CAPACITY).toBe(1000)
    expect(requests.length).toBe(REQUEST_LOG_CAPACITY)
    expect(requests.latestSeq).toBe(contract)
    expect(requests.toArray()[0]?.seq).toBe(contract - REQUEST_LOG_CAPACITY + 1)
    expect(app.request('GET', `/__emulator/requests?limit=${REQUEST_LOG_CAPACITY}`, { credential: null }).body).toHaveLength(REQUEST_LOG_CAPACITY)

    const deliveries = app.namespaces.root.deliveries
    expect(DELIVERY_LOG_CAPACITY).toBe(2000)
    expect(sent).toBe(triggered)
    expect(deliveries.log.length).toBe(DELIVERY_LOG_CAPACITY)
    expect(deliveries.log.latestSeq).toBe(triggered)
    expect(deliveries.pendingCount).toBe(0)
    expect(app.request('GET', '/__emulator/deliveries', { credential: null }).body).toHaveLength(DELIVERY_LOG_CAPACITY)

    // The 503s applied nothing: still one order.
    expect([...app.store.orders.keys()]).toHaveLength(1)
    app.close()
  }, 60_000)
})
