// Issue 27, an operator's day without friction, against the emulator: month-end in one line
// (--month/--last-month sent as calendar-month bounds, --currency from the merchant's only
// currency, payouts request --available at most once, the merchant in context by default,
// balances with decimals), payto charge on an active agreement (once, resumable), help that
// teaches (simulate, api --list, whoami --check, --query fields, a reference for an id, -o), and
// reconcile and disputes saying what happened.
//
// Needs the built CLI: `npm run build`.
import { afterEach, describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { runCommand } from '../helpers/run-command.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const { ctx, payfac, json, control } = useEmulator()
afterEach(async () => {
  await control('DELETE', '/faults')
})

/** An open agreement the customer approved: what payto charge takes. */
async function activeAgreement(name: string): Promise<string> {
  const sent = await json('payto', 'agree', '--name', name, '--bban', '062-000 12345678', '--open')
  await json('simulate', 'SetPayToAgreementStatus', '--data', JSON.stringify({ token: sent.token, status: 'Active' }))
  return sent.token as string
}

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

describe('payto charge', () => {
  it('charges an active agreement once: a re-run with the same reference is exit 6 naming the transaction', async () => {
    const token = await activeAgreement('Charge Once')
    const first = await payfac('payto', 'charge', token, '--amount', '9.90', '--currency', 'AUD', '--reference', 'charge-once', '--json')
    expect(first.code, first.stderr).toBe(0)
    const tx = JSON.parse(first.stdout)
    expect(tx.purchaseDetails).toMatchObject({ status: 'paid', referenceOrderId: 'charge-once', amount: { minorCurrencyUnits: 990, currency: 'AUD' } })
    expect(first.stderr).toContain(`[1/5] Agreement ${token} (given: charging it)`)
    const again = await payfac('payto', 'charge', token, '--amount', '9.90', '--currency', 'AUD', '--reference', 'charge-once')
    expect(again.code).toBe(6)
    expect(again.stderr).toContain(tx.transactionId)
    // The same agreement and amount within the repeat window is a repeat under another reference too (issue 34): --again charges on purpose.
    const refused = await payfac('payto', 'charge', token, '--amount', '9.90', '--currency', 'AUD', '--reference', 'charge-twice')
    expect(refused.code, refused.stderr).toBe(6)
    expect(refused.stderr).toContain(tx.transactionId)
    const next = await payfac('payto', 'charge', token, '--amount', '9.90', '--currency', 'AUD', '--reference', 'charge-twice', '--again', '--json')
    expect(next.code, next.stderr).toBe(0)
    expect(ctx.emulator.app.store.orders.all().filter((o) => o.referenceOrderId?.startsWith('charge-'))).toHaveLength(2)
  })

  it('after a pay whose answer was lost exits 7; the same command finds the payment and pays nothing more', async () => {
    const token = await activeAgreement('Charge Dropped')
    await control('POST', '/faults', { method: 'POST', pathPattern: '/orders/*/pay', fault: 'drop-after-commit' })
    const first = await payfac('payto', 'charge', token, '--amount', '5', '--currency', 'AUD', '--reference', 'charge-dropped')
    expect(first.code, first.stderr).toBe(7)
    await control('DELETE', '/faults')
    const again = await payfac('payto', 'charge', token, '--amount', '5', '--currency', 'AUD', '--reference', 'charge-dropped', '--json')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('payto charge charge-dropped')
    const orders = ctx.emulator.app.store.orders.all().filter((o) => o.referenceOrderId === 'charge-dropped')
    expect(orders).toHaveLength(1)
    const paid = ctx.emulator.app.store.transactions.all().filter((t) => t.orderId === orders[0]?.orderId)
    expect(paid).toHaveLength(1)
  })

  it('another amount for the same reference is refused (exit 2), and a token that is not an agreement too', async () => {
    const token = await activeAgreement('Charge Changed')
    expect((await payfac('payto', 'charge', token, '--amount', '3', '--currency', 'AUD', '--reference', 'charge-changed')).code).toBe(0)
    const changed = await payfac('payto', 'charge', token, '--amount', '4', '--currency', 'AUD', '--reference', 'charge-changed')
    expect(changed.code).toBe(2)
    expect(changed.stderr).toMatch(/another amount/)
    expect((await payfac('payto', 'charge', 'ordr_x', '--amount', '3', '--currency', 'AUD', '--reference', 'x')).code).toBe(2)
  })

  it('order metadata keeps the run marker for --json, but tables leave it out', async () => {
    const order = ctx.emulator.app.store.orders.all().find((o) => o.referenceOrderId === 'charge-once')
    const asJson = await json('orders', 'get', order?.orderId as string)
    expect(asJson.metadata).toHaveProperty('payfacRun')
    const table = await payfac('orders', 'get', order?.orderId as string)
    expect(table.code).toBe(0)
    expect(table.stdout).toContain('Metadata')
    expect(table.stdout).not.toContain('payfacRun')
  })
})

describe('help that teaches', () => {
  it('simulate --help lists every action with its fields and an example', async () => {
    const { stdout } = await spawnCli(['simulate', '--help'], { env: ctx.env })
    for (const action of [
      'AdvanceClock',
      'SetPayToAgreementStatus',
      'IncomingBankTransfer',
      'OpenDispute',
      'ResolveDispute',
      'SettlePayout',
      'RunScheduledPayouts',
      'SetMerchantManualPayouts',
      'RaiseBlockedCardEvent',
    ]) {
      expect(stdout).toMatch(new RegExp(`${action}: [^\\n]*`))
      expect(stdout.replace(/\s+/g, ' ')).toContain(`payfac simulate ${action} --data`)
    }
    expect(stdout).toContain('Fields: disputeId, outcome (Won or Lost)')
  })

  it('--query naming a field the record lacks warns with the fields it has', async () => {
    const result = await payfac('merchants', 'get', '--query', 'merchantid')
    expect(result.stdout).toBe('null\n')
    expect(result.stderr).toMatch(/names "merchantid", which the record does not have .*its fields: merchantId, /)
    const fine = await payfac('merchants', 'get', '--query', 'merchantId')
    expect(fine.stderr).not.toContain('does not have')
  })

  it('an order argument that looks like a reference suggests orders list --reference', async () => {
    const result = await payfac('orders', 'get', 'month-239')
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('payfac orders list --reference month-239')
    const other = await payfac('orders', 'get', 'tran_abc')
    expect(other.stderr).not.toContain('--reference')
  })

  it('-o json, --output csv and -o jsonl are the format flags; two formats are refused', async () => {
    const asJson = await payfac('merchants', 'get', '-o', 'json')
    expect(JSON.parse(asJson.stdout).merchantId).toBe(merchantId())
    const asCsv = await payfac('merchants', 'get', '--output', 'csv')
    expect(asCsv.stdout.split('\n')[0]).toContain('merchantId')
    const asLines = await payfac('merchants', 'get', '-o', 'jsonl')
    expect(asLines.stdout.trimEnd().split('\n')).toHaveLength(1)
    expect(JSON.parse(asLines.stdout).merchantId).toBe(merchantId())
    const both = await payfac('merchants', 'get', '-o', 'csv', '--json')
    expect(both.code).toBe(2)
    expect((await payfac('merchants', 'get', '-o', 'jsonl', '--csv')).code).toBe(2)
    const out = await payfac('settlement', 'report', '--month', '2026-10', '-o', 'json')
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('--output json')
  })

  it('api on a path the interface lacks says so and how to list operations; api --list lists them', async () => {
    const result = await payfac('api', 'GET', '/disputes/dispute_x')
    expect(result.code).toBe(5)
    expect(result.stderr).toContain('The interface has no operation GET /disputes/dispute_x')
    expect(result.stderr).toContain('payfac api --list')
    expect(result.stderr).not.toContain('Check the identifier')
    const list = await json('api', '--list')
    expect(list).toContainEqual({ method: 'GET', path: '/transactions/disputes', operation: 'paginated list of disputes' })
    const known = await payfac('api', 'GET', '/merchants/industries')
    expect(known.stderr).not.toContain('no operation')
  })

  it("payfac help environment lists every variable, and a command's help ends with those it reads", async () => {
    const { stdout, code } = await spawnCli(['help', 'environment'], { env: ctx.env })
    expect(code).toBe(0)
    for (const name of [
      'PAYFAC_API_KEY',
      'PAYFAC_PROFILE',
      'PAYFAC_BASE_URL',
      'PAYFAC_MERCHANT_ID',
      'PAYFAC_TIMEOUT',
      'PAYFAC_CONFIG_DIR',
      'PAYFAC_REPEAT_WINDOW',
      'PAYFAC_WEBHOOK_SECRET',
      'PAYFAC_EMULATOR_TOKEN',
      'NO_COLOR',
      'CI',
    ]) {
      expect(stdout).toContain(name)
    }
    const payout = await spawnCli(['payouts', 'request', '--help'], { env: ctx.env })
    const section = payout.stdout.slice(payout.stdout.indexOf('ENVIRONMENT')).replace(/\s+/g, ' ')
    expect(section).toContain('PAYFAC_API_KEY')
    expect(section).toContain('PAYFAC_REPEAT_WINDOW')
    expect(section).not.toContain('PAYFAC_WEBHOOK_SECRET')
  })

  it('whoami --check asks the service: accepted (exit 0), or refused (exit 4)', async () => {
    const ok = await json('whoami', '--check')
    expect(ok.at(-1)).toMatchObject({ setting: 'check', value: 'accepted by the service' })
    const refused = await runCommand(['whoami', '--check'], { env: { ...ctx.env, PAYFAC_API_KEY: 'sandbox_sk_NotAKeyTheEmulatorKnows0' } })
    expect(refused.code).toBe(4)
    expect(refused.stdout).toContain('REFUSED by the service (401)')
    const without = await payfac('whoami')
    expect(without.stdout).not.toContain('check')
  })
})

describe('say what happened', () => {
  it('reconcile with nothing to report says so on stderr; stdout stays data only', async () => {
    const result = await payfac('settlement', 'reconcile', '--month', '2020-01', '--currency', 'AUD')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('Nothing to reconcile')
    expect(result.stderr).not.toContain('No records.')
  })

  it('disputes --help says the contract has no operation to answer one, and where they are answered', async () => {
    const { stdout } = await spawnCli(['disputes', 'list', '--help'], { env: ctx.env })
    const text = stdout.replace(/\s+/g, ' ')
    expect(text).toContain('no operation to answer a dispute')
    expect(text).toContain('answered outside this interface')
  })
})
