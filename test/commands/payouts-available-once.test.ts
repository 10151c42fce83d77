// payouts request --available under attack: a re-run after a lost answer finds the payout (in its own
// currency) instead of paying out again; and --currency taken from the merchant's balances, where a
// garbage answer never chooses a currency.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { runCommand } from '../helpers/run-command.js'
import { makeTempConfigDir } from '../helpers/tmp-config.js'
import { commandEnv } from '../helpers/emulator-env.js'

const { ctx, payfac, json, control } = useEmulator()
afterEach(async () => {
  await control('DELETE', '/faults')
})

/** Money available at once on the seeded merchant (an incoming bank transfer). */
async function fund(minor: number): Promise<void> {
  await json(
    'simulate',
    'IncomingBankTransfer',
    '--data',
    JSON.stringify({ merchantId: ctx.emulator.ids.merchantId, amount: { minorCurrencyUnits: minor, currency: 'AUD' } }),
  )
}

const payoutsOf = (currency: string) =>
  ctx.emulator.app.store.payouts.all().filter((p) => p.merchantId === ctx.emulator.ids.merchantId && p.amount.currency === currency)

describe('payouts request --available under attack', () => {
  it('after a lost answer, the re-run finds the payout made (exit 0, printed) although nothing is left, and sends nothing', async () => {
    await fund(10_000)
    const before = payoutsOf('AUD').length
    await control('POST', '/faults', { method: 'POST', pathPattern: '/transactions/payouts', fault: 'drop-after-commit' })
    const first = await payfac('payouts', 'request', '--available', '--currency', 'AUD')
    expect(first.code, first.stderr).toBe(7)
    await control('DELETE', '/faults')
    // Was: "Payout not sent: nothing is available in AUD" (exit 6), the journal left unknown.
    const again = await payfac('payouts', 'request', '--available', '--currency', 'AUD', '--json')
    expect(again.code, again.stderr).toBe(0)
    const made = payoutsOf('AUD')
    expect(made).toHaveLength(before + 1)
    expect(JSON.parse(again.stdout).payoutId).toBe(made.at(-1)?.payoutId)
    // With nothing left and the lost request found, a third run is the repeat rule's exit 6.
    const third = await payfac('payouts', 'request', '--available', '--currency', 'AUD')
    expect(third.code, third.stderr).toBe(6)
    expect(payoutsOf('AUD')).toHaveLength(before + 1)
  })

  it('nothing available is still exit 6 with nothing sent, and says so', async () => {
    await fund(1_000)
    expect((await payfac('payouts', 'request', '--available', '--currency', 'AUD', '--again')).code).toBe(0)
    const before = payoutsOf('AUD').length
    const empty = await payfac('payouts', 'request', '--available', '--currency', 'AUD', '--again')
    expect(empty.code, empty.stderr).toBe(6)
    expect(empty.stderr).toMatch(/nothing is available in AUD/)
    expect(empty.stderr).not.toMatch(/Paying out/)
    expect(payoutsOf('AUD')).toHaveLength(before)
  })

  it('a lost --available of one currency is not "found" by a payout of another currency made since', async () => {
    await fund(2_000)
    await json(
      'simulate',
      'IncomingBankTransfer',
      '--data',
      JSON.stringify({ merchantId: ctx.emulator.ids.merchantId, amount: { minorCurrencyUnits: 700, currency: 'USD' } }),
    )
    // The USD request dies before the service applies it: an unknown outcome that made nothing.
    await control('POST', '/faults', { method: 'POST', pathPattern: '/transactions/payouts', fault: 'reset' })
    const lost = await payfac('payouts', 'request', '--available', '--currency', 'USD')
    expect(lost.code, lost.stderr).toBe(7)
    await control('DELETE', '/faults')
    expect((await payfac('payouts', 'request', '--available', '--currency', 'AUD', '--again')).code).toBe(0)
    expect(payoutsOf('USD')).toHaveLength(0)
    // Was: exit 0 printing the AUD payout as the USD one; the USD balance never left.
    const again = await payfac('payouts', 'request', '--available', '--currency', 'USD', '--json')
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout).amount).toEqual({ minorCurrencyUnits: 700, currency: 'USD' })
    expect(payoutsOf('USD')).toHaveLength(1)
  })
})

describe('--currency from the merchant: garbage balances never choose a currency', () => {
  const MERCHANT = 'mcht_GarbageBalance001'
  let server: RecordingServer
  let balances: unknown
  const config = makeTempConfigDir('payfac-garbage-balances-')
  beforeAll(async () => {
    server = await startRecordingServer((r) => {
      if (r.method === 'GET' && r.path === '/merchants')
        return { status: 200, body: [{ merchantId: MERCHANT, name: 'Garbage Pty Ltd' }], headers: { 'Page-Count': '1', 'Total-Record-Count': '1' } }
      if (r.method === 'GET' && r.path === `/merchants/${MERCHANT}`)
        return { status: 200, body: { merchantId: MERCHANT, manualPayoutsEnabled: true, currency: 'AUD' } }
      if (r.method === 'GET' && r.path === `/merchants/${MERCHANT}/balances`) return { status: 200, body: balances }
      if (r.method === 'GET') return { status: 200, body: [], headers: { 'Page-Count': '0', 'Total-Record-Count': '0' } }
      return { status: 500, body: { statusCode: 500, errorCode: 'internal_error', message: 'must not be reached' } }
    })
  })
  afterAll(async () => {
    await server.close()
    config.cleanup()
  })
  const line = (currency: unknown, minor = 5_000) => ({
    currency,
    available: { minorCurrencyUnits: minor, currency },
    pending: { minorCurrencyUnits: 0, currency },
    total: { minorCurrencyUnits: minor, currency },
  })
  const run = (...argv: string[]) => runCommand(argv, { env: commandEnv(config.dir, server.url, 'sandbox_sk_garbageBalances00001') })
  const writes = () => server.requests.filter((r) => r.method !== 'GET')

  it.each([
    ['a line without a currency beside AUD', { balances: [line('AUD'), line(null)] }],
    ['a line whose currency is a number', { balances: [line('AUD'), line(36)] }],
    ['a currency that is not an ISO 4217 code', { balances: [line('AUD\u001b]0;owned\u0007')] }],
    ['one currency written twice with two balances', { balances: [line('AUD', 100), line('AUD', 900_000)] }],
    ['an available amount in another currency than its line', { balances: [{ ...line('AUD'), available: { minorCurrencyUnits: 5_000, currency: 'USD' } }] }],
  ])('%s: exit 2 naming --currency, nothing sent, no control character on stderr', async (_what, answer) => {
    balances = answer
    for (const argv of [
      ['payouts', 'request', '--amount', '10'],
      ['payouts', 'request', '--available'],
      ['payto', 'charge', 'ptagr_GarbageAgreement01', '--amount', '10', '--reference', 'garbage-1'],
    ]) {
      server.requests.length = 0
      const result = await run(...argv)
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(2)
      expect(result.stderr).toMatch(/--currency/)
      expect(result.stderr).not.toMatch(/\u001b|\u0007/)
      expect(writes(), argv.join(' ')).toEqual([])
    }
  })
})
