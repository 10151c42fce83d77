// The month fixture of the control plane: built through the emulator's operations, ending at the
// namespace's present, the same for the same seed, its ledger consistent (every payout adds up),
// a seeded mismatch named, and one entry removed on request.
import { describe, expect, it } from 'vitest'

import { createEmulatorApp } from '../../src/emulator/app.js'
import { fakeClock } from '../../src/emulator/clock.js'
import { seededIds } from '../../src/emulator/ids.js'

const START = '2026-06-30T12:00:00.000Z'
const control = (app: ReturnType<typeof createEmulatorApp>, method: string, path: string, body?: unknown) => {
  const answer = app.handle({
    method,
    url: `/__emulator${path}`,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: answer.status, body: JSON.parse(String(answer.body)) }
}
const newApp = () => createEmulatorApp({ clock: fakeClock(START), ids: seededIds('month-test') })

describe('the month fixture', () => {
  it('builds a month of five merchants that ends now, with consistent payouts, the same for the same seed', () => {
    const app = newApp()
    const { status, body } = control(app, 'POST', '/fixtures/month', { transactions: 80, days: 10 })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({ currency: 'AUD', transactions: 80, mismatch: null })
    expect(body.merchantIds).toHaveLength(5)
    expect(Date.parse(body.to) - Date.parse(START)).toBeGreaterThanOrEqual(0)
    expect(Date.parse(body.to) - Date.parse(START)).toBeLessThan(5_000)
    expect(Date.parse(START) - Date.parse(body.from)).toBeGreaterThan(9.9 * 86_400_000)
    expect(body.payouts).toBeGreaterThan(0)

    const store = app.store
    expect(store.settlementEntries.filter((e) => e.type === 'Payment')).toHaveLength(80)
    expect(store.refunds.size).toBe(body.refunds)
    for (const payout of store.payouts.all()) {
      const swept = store.settlementEntries
        .filter((e) => e.payoutId === payout.payoutId && e.type !== 'Payout')
        .reduce((s, e) => s + e.amount.minorCurrencyUnits, 0)
      expect(payout.broughtForward + swept - payout.carriedForward).toBe(payout.amount.minorCurrencyUnits)
    }
    const again = newApp()
    control(again, 'POST', '/fixtures/month', { transactions: 80, days: 10 })
    expect(again.store.settlementEntries.all().map((e) => e.amount.minorCurrencyUnits)).toEqual(
      store.settlementEntries.all().map((e) => e.amount.minorCurrencyUnits),
    )
  })

  it('seeds a named mismatch, removes an entry on request, and refuses bad bodies', () => {
    const app = newApp()
    const seeded = control(app, 'POST', '/fixtures/month', { transactions: 40, days: 5, mismatch: 'duplicate-entry' }).body.mismatch
    expect(seeded.kind).toBe('duplicate-entry')
    const payments = app.store.settlementEntries.filter((e) => e.type === 'Payment' && e.transactionId === seeded.transactionId)
    expect(payments.map((e) => e.settlementEntryId)).toEqual([seeded.settlementEntryId, seeded.duplicateId])

    const removed = control(app, 'DELETE', `/settlement/${seeded.duplicateId}`)
    expect(removed.body.removed.settlementEntryId).toBe(seeded.duplicateId)
    expect(app.store.settlementEntries.some((e) => e.settlementEntryId === seeded.duplicateId)).toBe(false)
    expect(control(app, 'DELETE', `/settlement/${seeded.duplicateId}`).status).toBe(404)
    expect(control(app, 'POST', '/fixtures/month', { mismatch: 'lost-everything' }).status).toBe(400)
    expect(control(app, 'POST', '/fixtures/month', { transactions: 0 }).status).toBe(400)
  })
})
