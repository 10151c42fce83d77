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

describe('the month fixture for a calendar month', () => {
  it('fills exactly that month in UTC (every record and entry inside it), then brings the clock back to the present', () => {
    const app = newApp()
    const { status, body } = control(app, 'POST', '/fixtures/month', { month: '2026-02', transactions: 90, mismatch: ['missing-entry', 'fee-off-by-cent'] })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({ month: '2026-02', from: '2026-02-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z', transactions: 90 })
    const inside = (at: string) => at >= '2026-02-01T00:00:00.000Z' && at < '2026-03-01T00:00:00.000Z'
    const entries = app.store.settlementEntries.all()
    expect(entries.length).toBeGreaterThan(180)
    expect(entries.filter((e) => !inside(e.createdAt))).toEqual([])
    expect([...app.store.refunds.values()].filter((r) => !inside(r.createdAt))).toEqual([])
    expect(new Set(entries.map((e) => e.createdAt.slice(0, 10))).size).toBeGreaterThanOrEqual(27)
    expect(entries.some((e) => e.createdAt.startsWith('2026-02-28'))).toBe(true)
    expect(app.store.payouts.all().length).toBeGreaterThanOrEqual(3 * 4)
    expect(app.store.payouts.all().every((p) => inside(p.createdAt))).toBe(true)
    // Two seeded differences, each on a transaction of its own.
    expect(body.mismatches.map((m: { kind: string }) => m.kind)).toEqual(['missing-entry', 'fee-off-by-cent'])
    expect(new Set(body.mismatches.map((m: { transactionId: string }) => m.transactionId)).size).toBe(2)
    // The clock is back at the present, not at the end of February.
    expect(Math.abs(app.clock.now().getTime() - Date.parse(START))).toBeLessThan(5_000)
  })

  it.each([
    ['the current month', { month: '2026-06' }, /2026-06 is not over yet/],
    ['a later month', { month: '2027-01' }, /not over yet/],
    ['a month before the seeded merchants', { month: '2024-12' }, /starts at 2025-01/],
    ['a month and days', { month: '2026-02', days: 10 }, /month or days, not both/],
    ['a month that is not one', { month: '2026-13' }, /YYYY-MM/],
    ['six mismatches', { mismatch: Array(6).fill('missing-entry') }, /mismatch/],
  ])('refuses %s (400, nothing changed)', (_name, body, message) => {
    const app = newApp()
    const answer = control(app, 'POST', '/fixtures/month', body)
    expect(answer.status).toBe(400)
    expect(answer.body.message).toMatch(message)
    expect(app.store.settlementEntries.all()).toHaveLength(0)
  })
})
