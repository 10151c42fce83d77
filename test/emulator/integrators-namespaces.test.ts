// Emulator-Namespace: each namespace has its own store, clock, faults and logs; reset applies to
// one namespace; the control plane honours the header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulatorApp } from '../../src/emulator/app.js'
import { fakeClock } from '../../src/emulator/clock.js'
import type { RunningEmulator } from '../../src/emulator/index.js'
import { MAX_NAMESPACES } from '../../src/emulator/namespaces.js'
import { MERCHANT } from './helpers.js'
import { aud, call, startTestEmulator } from './integrators-helpers.js'

let emulator: RunningEmulator
const inNs =
  (ns: string | undefined) =>
  (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
    call(emulator.url, method, path, { ...options, headers: { ...options.headers, ...(ns ? { 'Emulator-Namespace': ns } : {}) } })

beforeAll(async () => {
  emulator = await startTestEmulator()
})
afterAll(async () => emulator.close())

const order = (reference: string) => ({ body: { CreateOnlineOrder: { amount: aud(700), referenceOrderId: reference } } })

describe('namespaces', () => {
  it('keep separate orders, clocks and logs when used at once', async () => {
    const a = inNs('ci-run-a')
    const b = inNs('ci-run-b')
    await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => a('POST', '/orders', order(`a-${i}`))),
      ...Array.from({ length: 3 }, (_, i) => b('POST', '/orders', order(`b-${i}`))),
      a('POST', '/simulation', { body: { AdvanceClock: { seconds: 3600 } } }),
    ])
    const aOrders = (await a('GET', '/orders?limit=100')).body as any[]
    const bOrders = (await b('GET', '/orders?limit=100')).body as any[]
    expect(aOrders.map((o) => o.referenceOrderId).sort()).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'a-4'])
    expect(bOrders.map((o) => o.referenceOrderId).sort()).toEqual(['b-0', 'b-1', 'b-2'])
    expect((await inNs(undefined)('GET', '/orders?limit=100')).body).toEqual([])

    const aClock = (await a('GET', '/__emulator/clock', { credential: null })).body
    const bClock = (await b('GET', '/__emulator/clock', { credential: null })).body
    expect(aClock).toMatchObject({ namespace: 'ci-run-a', offsetMs: 3_600_000 })
    expect(bClock).toMatchObject({ namespace: 'ci-run-b', offsetMs: 0 })
    expect(Date.parse(aClock.now) - Date.parse(bClock.now)).toBe(3_600_000)

    const aLog = (await a('GET', '/__emulator/requests?limit=100', { credential: null })).body as any[]
    const bLog = (await b('GET', '/__emulator/requests?limit=100', { credential: null })).body as any[]
    expect(aLog.filter((r) => r.method === 'POST')).toHaveLength(6)
    expect(bLog.filter((r) => r.method === 'POST')).toHaveLength(3)
    expect(bLog.every((r) => r.requestHeaders['emulator-namespace'] === 'ci-run-b')).toBe(true)
  })

  it('keep separate fault rules', async () => {
    const a = inNs('faulty')
    const b = inNs('healthy')
    await a('POST', '/__emulator/faults', { credential: null, body: { pathPattern: '/orders', fault: '503' } })
    expect((await a('GET', '/orders')).status).toBe(503)
    expect((await b('GET', '/orders')).status).toBe(200)
    expect((await b('GET', '/__emulator/faults', { credential: null })).body.rules).toEqual([])
  })

  it('reset one namespace only, back to the seed', async () => {
    const a = inNs('reset-a')
    const b = inNs('reset-b')
    await a('POST', '/orders', order('keep-a'))
    await b('POST', '/orders', order('keep-b'))
    const reset = await a('POST', '/__emulator/reset', { credential: null })
    expect(reset.body).toMatchObject({ namespace: 'reset-a', reset: true })
    expect((await a('GET', '/orders')).body).toEqual([])
    expect(((await b('GET', '/orders')).body as any[]).map((o) => o.referenceOrderId)).toEqual(['keep-b'])
    // The seed is back: the well-known merchant and keys work.
    expect((await a('GET', `/merchants/${MERCHANT}`)).status).toBe(200)
    // The log was cleared too: only the two GETs since.
    expect(((await a('GET', '/__emulator/requests', { credential: null })).body as any[]).map((r) => r.url)).toEqual(['/orders', `/merchants/${MERCHANT}`])
  })

  it('refuse a name that is not one, and list those in use', async () => {
    const bad = await inNs('no spaces please')('GET', '/orders')
    expect(bad.status).toBe(400)
    expect(bad.body.errorCode).toBe('invalid_namespace')
    const listed = (await call(emulator.url, 'GET', '/__emulator/namespaces', { credential: null })).body as any[]
    expect(listed.map((n) => n.name)).toEqual(expect.arrayContaining(['default', 'ci-run-a', 'ci-run-b']))
    expect(listed[0].name).toBe('default')
  })

  it('start each namespace clock at the base time, and drop the least recently used beyond the limit', () => {
    const app = createEmulatorApp({ clock: fakeClock('2025-06-01T00:00:00.000Z') })
    app.clock.advance(60)
    const fresh = app.request('GET', '/__emulator/clock', { credential: null, headers: { 'Emulator-Namespace': 'late' } }).body
    expect(fresh).toMatchObject({ now: '2025-06-01T00:00:00.000Z', offsetMs: 0 })
    for (let i = 0; i < MAX_NAMESPACES + 5; i++) app.request('GET', '/orders', { headers: { 'Emulator-Namespace': `ns-${i}` } })
    expect(app.namespaces.list()).toHaveLength(MAX_NAMESPACES)
    expect(app.namespaces.list()[0]?.name).toBe('default')
    app.close()
  })
})
