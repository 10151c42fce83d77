// Money moves at most once across processes: for each kind of journaled money command, five
// spawned payfac processes with the same operation and one config folder are released together
// by a barrier. The emulator's records show one movement; the other processes wait for the first
// (saying so) and exit 6 naming what it made, or (payto pay) exit 6 naming the payment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type Runners, runnersFor } from '../helpers/command-harness.js'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { activeAgreement, paidByPayTo } from '../helpers/flows.js'
import { race } from '../helpers/race.js'
import type { SpawnResult } from '../helpers/spawn-cli.js'

const N = 5
let env: EmulatorEnv
let merchant: Runners
/** What each race starts from, made one after the other before the races (in-process commands are not re-entrant). */
const given: { refund?: string; lost?: string; transfer?: string; pay?: { orderId: string; token: string } } = {}

beforeAll(async () => {
  env = await startEmulatorEnv()
  merchant = runnersFor(() => env.env)
  given.refund = (await paidByPayTo(merchant.json, '20.00', 'race-refund')).transactionId
  given.transfer = (await paidByPayTo(merchant.json, '20.00', 'race-transfer')).transactionId
  given.lost = (await paidByPayTo(merchant.json, '20.00', 'race-lost')).transactionId
  const agreement = await activeAgreement(merchant.json, { oneOff: 900 })
  const token = await merchant.json('tokens', 'create', '--payto', '--agreement', agreement, '--amount', '9.00', '--currency', 'AUD')
  const order = await merchant.json('orders', 'create', '--amount', '9.00', '--currency', 'AUD', '--reference', 'race-pay')
  given.pay = { orderId: order.orderId, token: token.paymentTokenId }
  const funds = { IncomingBankTransfer: { merchantId: env.emulator.ids.merchantId, amount: { minorCurrencyUnits: 100_000, currency: 'AUD' } } }
  await merchant.json('api', 'POST', '/simulation', '--data', JSON.stringify(funds))
}, 60_000)

afterAll(async () => {
  await env?.close()
})

/** One process exits 0; the others exit 6, naming what the first made, after saying they waited. */
function expectOneMade(results: SpawnResult[]): SpawnResult {
  const codes = results.map((r) => r.code).sort()
  expect(codes, results.map((r) => r.stderr).join('\n---\n')).toEqual([0, ...Array(N - 1).fill(6)])
  const made = results.find((r) => r.code === 0) as SpawnResult
  for (const other of results.filter((r) => r.code === 6)) {
    // --json: the error object is one line on stderr; stdout never carries an error
    expect(other.stdout).toBe('')
    const errorLine = other.stderr.split('\n').find((line) => line.startsWith('{"error"')) ?? '{}'
    expect(JSON.parse(errorLine).error).toMatchObject({ code: 6 })
    expect(other.stderr).toMatch(/already made|while this one (waited|was starting)/)
    expect(other.stderr).toContain('nothing was sent')
  }
  // At least one of the others ran at the same time as the first: it found the lock held, or found
  // the first's record written after it started (it took the lock just after the first released it).
  expect(
    results.some((r) => r.stderr.includes('is in flight; waiting for it to finish') || /while this one (waited|was starting)/.test(r.stderr)),
    results.map((r) => r.stderr).join('\n---\n'),
  ).toBe(true)
  return made
}

const store = () => env.emulator.app.store

describe.concurrent('identical money commands started together move money once', { timeout: 90_000 }, () => {
  it('transactions refund', async () => {
    const id = given.refund as string
    const results = await race(N, ['transactions', 'refund', id, '--amount', '5.00', '--json'], env.env)
    expectOneMade(results)
    expect(
      store()
        .refunds.all()
        .filter((r) => r.transactionId === id),
    ).toHaveLength(1)
  })

  it('transactions refund --again: a racer that waited on a run whose answer was lost looks on the service, it does not repeat it', async () => {
    const id = given.lost as string
    // Every refund of this transaction is applied, then its answer lost (held back first, so the others wait on the lock).
    await merchant.json('emulator', 'faults', '--add', 'latency=1500, drop-after-commit', '--method', 'PATCH', '--path', `/transactions/${id}`)
    const results = await race(N, ['transactions', 'refund', id, '--amount', '5.00', '--again', '--json'], env.env)
    const said = results.map((r) => `${r.code}: ${r.stderr}`).join('\n---\n')
    expect(
      store()
        .refunds.all()
        .filter((r) => r.transactionId === id),
      said,
    ).toHaveLength(1)
    expect(
      results.filter((r) => r.code === 7),
      said,
    ).toHaveLength(1)
    expect(
      results.some((r) => r.stderr.includes('It happened')),
      said,
    ).toBe(true)
  })

  it('payouts request', async () => {
    const before = store().payouts.all().length
    const results = await race(N, ['payouts', 'request', '--amount', '11.00', '--currency', 'AUD', '--json'], env.env)
    expectOneMade(results)
    expect(store().payouts.all().length).toBe(before + 1)
  })

  it('transactions transfer', async () => {
    const id = given.transfer as string
    const args = ['transactions', 'transfer', id, '--to', env.emulator.ids.subMerchantId, '--amount', '2.50', '--json']
    const results = await race(N, args, env.envWith(env.emulator.credentials.marketplaceApiKey))
    expectOneMade(results)
    expect(store().transactions.get(id)?.transfers).toHaveLength(1)
  })

  it('orders pay', async () => {
    const { orderId, token } = given.pay as { orderId: string; token: string }
    const results = await race(N, ['orders', 'pay', orderId, '--token', token, '--json'], env.env)
    expectOneMade(results)
    expect(
      store()
        .transactions.all()
        .filter((t) => t.orderId === orderId),
    ).toHaveLength(1)
  })

  it('orders create --reference (the others name the order made)', async () => {
    const results = await race(N, ['orders', 'create', '--amount', '3.00', '--currency', 'AUD', '--reference', 'race-create', '--json'], env.env)
    const made = JSON.parse(expectOneMade(results).stdout)
    expect(
      store()
        .orders.all()
        .filter((o) => o.referenceOrderId === 'race-create'),
    ).toHaveLength(1)
    for (const other of results.filter((r) => r.code === 6)) expect(other.stderr).toContain(made.orderId)
  })

  it('payto pay --reference (none is told to --restart)', async () => {
    const args = [
      'payto',
      'pay',
      '--name',
      'Race Payer',
      '--bban',
      '062-000 12345678',
      '--amount',
      '4.00',
      '--currency',
      'AUD',
      '--reference',
      'race-payto',
      '--approve',
      '--interval',
      '100ms',
      '--json',
    ]
    const results = await race(N, args, env.env)
    const made = JSON.parse(expectOneMade(results).stdout)
    for (const r of results) expect(r.stderr).not.toContain('--restart')
    for (const other of results.filter((r) => r.code === 6)) expect(other.stderr).toContain(made.purchaseDetails.transactionId)
    const orders = store()
      .orders.all()
      .filter((o) => o.referenceOrderId === 'race-payto')
    expect(orders).toHaveLength(1)
    expect(
      store()
        .agreements.all()
        .filter((a) => a.customerName === 'Race Payer'),
    ).toHaveLength(1)
    expect(
      store()
        .transactions.all()
        .filter((t) => t.orderId === orders[0]?.orderId),
    ).toHaveLength(1)
  })
})
