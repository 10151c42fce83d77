// The month-end flags against the emulator: --month and --last-month sent as calendar-month bounds
// (UTC), --currency from the merchant's only currency, payouts request --available at most once,
// the merchant in context by default, balances with decimals.
import { afterEach, describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'

const { ctx, payfac, json, control } = useEmulator()
afterEach(async () => {
  await control('DELETE', '/faults')
})

const merchantId = () => ctx.emulator.ids.merchantId

describe('month-end in one line', () => {
  it('--month and --last-month send the calendar month in UTC as createdAfter/createdBefore', async () => {
    const month = await payfac('orders', 'list', '--month', '2026-02', '--debug')
    expect(month.code, month.stderr).toBe(0)
    expect(month.stderr).toContain('createdAfter=2026-02-01T00%3A00%3A00.000Z&createdBefore=2026-03-01T00%3A00%3A00.000Z')
    const now = new Date()
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10)
    const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10)
    const last = await payfac('transactions', 'list', '--last-month', '--debug')
    expect(last.code, last.stderr).toBe(0)
    expect(last.stderr).toContain(`createdAfter=${previous}T00%3A00%3A00.000Z&createdBefore=${first}T00%3A00%3A00.000Z`)
  })

  it('refuses a month that is not one, and a month with --created-after, before sending (exit 2)', async () => {
    const bad = await payfac('orders', 'list', '--month', '2026-13')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--month takes a calendar month as YYYY-MM/)
    const both = await payfac('orders', 'list', '--month', '2026-10', '--created-after', '2026-10-01')
    expect(both.code).toBe(2)
  })

  it("settlement list takes --month and the merchant's only currency, saying so on stderr", async () => {
    const result = await payfac('settlement', 'list', '--month', '2026-10', '--debug')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain(`Currency AUD: the only currency of ${merchantId()}`)
    expect(result.stderr).toMatch(/settlement\?[^ ]*currency=AUD/)
    expect(result.stderr).toContain('createdAfter=2026-10-01T00%3A00%3A00.000Z')
    expect(result.stderr).toContain('createdBefore=2026-11-01T00%3A00%3A00.000Z')
  })

  it('loan entries take --month for their --from/--to', async () => {
    const result = await payfac('loans', 'entries', 'list', '--month', '2026-10', '--debug')
    expect(result.stderr).toContain('createdAfter=2026-10-01T00%3A00%3A00.000Z&createdBefore=2026-11-01T00%3A00%3A00.000Z')
  })

  it('merchants balances uses the merchant in context and carries the decimal beside minor units', async () => {
    const balances = await json('merchants', 'balances')
    expect(balances.merchantId).toBe(merchantId())
    for (const line of balances.balances) {
      for (const kind of ['available', 'pending', 'total']) {
        const money = line[kind]
        expect(typeof money.minorCurrencyUnits).toBe('number')
        expect(money.decimal).toBe((money.minorCurrencyUnits / 100).toFixed(2))
      }
    }
    const merchant = await json('merchants', 'get')
    expect(merchant.merchantId).toBe(merchantId())
  })

  it('payouts request --available pays out the whole available balance once; a second run finds nothing left (exit 6)', async () => {
    await json(
      'simulate',
      'IncomingBankTransfer',
      '--data',
      JSON.stringify({ merchantId: merchantId(), amount: { minorCurrencyUnits: 12_345, currency: 'AUD' } }),
    )
    const before = await json('merchants', 'balances')
    const available = before.balances.find((b: { currency: string }) => b.currency === 'AUD').available.minorCurrencyUnits
    expect(available).toBeGreaterThan(0)
    const paid = await payfac('payouts', 'request', '--available', '--json')
    expect(paid.code, paid.stderr).toBe(0)
    expect(JSON.parse(paid.stdout).amount).toEqual({ minorCurrencyUnits: available, currency: 'AUD' })
    expect(paid.stderr).toContain('Paying out the whole available balance')
    const again = await payfac('payouts', 'request', '--available')
    // The journal answers first (exit 6 naming the payout made), before the empty balance would.
    expect(again.code).toBe(6)
    expect(again.stderr).toMatch(/payout of the whole available AUD balance was already made \(payout_/)
    const payouts = ctx.emulator.app.store.payouts.all().filter((p) => p.amount.minorCurrencyUnits === available)
    expect(payouts).toHaveLength(1)
  })

  it('a merchant with two currencies is asked which one, listing them (exit 2, nothing sent)', async () => {
    await json('simulate', 'IncomingBankTransfer', '--data', JSON.stringify({ merchantId: merchantId(), amount: { minorCurrencyUnits: 500, currency: 'NZD' } }))
    const result = await payfac('settlement', 'reconcile', '--last-month')
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--currency is needed: mcht_\S+ holds AUD, NZD/)
    const payout = await payfac('payouts', 'request', '--amount', '1')
    expect(payout.code).toBe(2)
    expect(payout.stderr).toMatch(/holds AUD, NZD/)
  })
})
