// The commit-then-status fault: the request is applied in full, then answered with the chosen
// status instead of its result; a request the emulator refuses keeps its own answer.
import { describe, expect, it } from 'vitest'

import { createEmulatorApp } from '../../src/emulator/app.js'
import { parseFault } from '../../src/emulator/faults.js'

describe('commit-then-status', () => {
  it.each([500, 502, 503, 504])('reads commit-then-status=%i', (status) => {
    expect(parseFault(`commit-then-status=${status}`).action).toEqual({ kind: 'commit-then-status', status })
  })

  it.each(['commit-then-status=418', 'commit-then-status=', 'commit-then-status=503, drop-after-commit'])('refuses %s', (text) => {
    expect(() => parseFault(text)).toThrow(/Invalid Emulator-Fault/)
  })

  it('applies the request, then answers the status; a refused request keeps its own answer', () => {
    const app = createEmulatorApp()
    const key = 'sandbox_sk_emulatorMerchantSecret0001'
    const body = { CreateOnlineOrder: { referenceOrderId: 'commit-1', amount: { minorCurrencyUnits: 500, currency: 'AUD' } } }
    const answered = app.handle({
      method: 'POST',
      url: '/orders',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'emulator-fault': 'commit-then-status=503' },
      body: JSON.stringify(body),
    })
    expect(answered.status).toBe(503)
    expect(JSON.parse(String(answered.body))).toMatchObject({ errorCode: 'service_unavailable', message: expect.stringContaining('the request was applied') })
    const listed = app.handle({ method: 'GET', url: '/orders?referenceOrderId=commit-1', headers: { authorization: `Bearer ${key}` }, body: '' })
    expect(JSON.parse(String(listed.body))).toHaveLength(1)

    const refused = app.handle({
      method: 'POST',
      url: '/orders',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'emulator-fault': 'commit-then-status=503' },
      body: JSON.stringify({ CreateOnlineOrder: { amount: { minorCurrencyUnits: -1, currency: 'AUD' } } }),
    })
    expect(refused.status).toBe(400)
    app.close()
  })
})
