// Money moves at most once across processes: for each kind of journaled money command, five
// spawned payfac processes with the same operation and one config folder are released together
// by a barrier. The emulator's records show one movement; the other processes wait for the first
// (saying so) and exit 6 naming what it made, or (payto pay) exit 6 naming the payment.
//
// The race is arranged by events, not by time: the racers talk to the emulator through a proxy
// (test/helpers/gate-proxy.ts) that holds the first write until every other racer has said it is
// waiting for the one in flight, so that a slow, busy machine only makes the race slower.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type Runners, runnersFor } from '../helpers/command-harness.js'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { activeAgreement, paidByPayTo } from '../helpers/flows.js'
import { gateProxy } from '../helpers/gate-proxy.js'
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
  // The others found the lock held: the first write was held until they all said so.
  expect(
    results.filter((r) => r.stderr.includes(WAITING)),
    results.map((r) => r.stderr).join('\n---\n'),
  ).toHaveLength(N - 1)
  return made
}

const store = () => env.emulator.app.store

const WAITING = 'is in flight; waiting for it to finish'
/** A race's hang guard: far beyond what a race takes on a busy machine; only a hang reaches it. */
const HANG_GUARD_MS = 600_000

/**
 * Races `args` in N processes through a proxy that holds their first write (any method but GET)
 * until the other N-1 have said they wait for it; then lets it through.
 */
async function raceHeld(args: string[], raceEnv: Record<string, string | undefined>): Promise<SpawnResult[]> {
  const proxy = await gateProxy(String(raceEnv.PAYFAC_BASE_URL), (method) => method !== 'GET')
  const waiting = new Set<number>()
  try {
    return await race(
      N,
      args,
      { ...raceEnv, PAYFAC_BASE_URL: proxy.url },
      {
        killAfterMs: HANG_GUARD_MS,
        onStderr: (stderr, racer) => {
          if (stderr.includes(WAITING)) waiting.add(racer)
          if (waiting.size === N - 1) proxy.open()
        },
      },
    )
  } finally {
    await proxy.close()
  }
}

describe.concurrent('identical money commands started together move money once', { timeout: HANG_GUARD_MS }, () => {
  it('transactions refund', async () => {
    const id = given.refund as string
    const results = await raceHeld(['transactions', 'refund', id, '--amount', '5.00', '--json'], env.env)
    expectOneMade(results)
    expect(
      store()
        .refunds.all()
        .filter((r) => r.transactionId === id),
    ).toHaveLength(1)
  })

  it('transactions refund --again: a racer that waited on a run whose answer was lost looks on the service, it does not repeat it', async () => {
    const id = given.lost as string
    // Every refund of this transaction is applied, then its answer lost (held at the gate first, so the others wait on the lock).
    await merchant.json('emulator', 'faults', '--add', 'drop-after-commit', '--method', 'PATCH', '--path', `/transactions/${id}`)
    const results = await raceHeld(['transactions', 'refund', id, '--amount', '5.00', '--again', '--json'], env.env)
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
    const results = await raceHeld(['payouts', 'request', '--amount', '11.00', '--currency', 'AUD', '--json'], env.env)
    expectOneMade(results)
    expect(store().payouts.all().length).toBe(before + 1)
  })

  it('transactions transfer', async () => {
    const id = given.transfer as string
    const args = ['transactions', 'transfer', id, '--to', env.emulator.ids.subMerchantId, '--amount', '2.50', '--json']
    const results = await raceHeld(args, env.envWith(env.emulator.credentials.marketplaceApiKey))
    expectOneMade(results)
    expect(store().transactions.get(id)?.transfers).toHaveLength(1)
  })

  it('orders pay', async () => {
    const { orderId, token } = given.pay as { orderId: string; token: string }
    const results = await raceHeld(['orders', 'pay', orderId, '--token', token, '--json'], env.env)
    expectOneMade(results)
    expect(
      store()
        .transactions.all()
        .filter((t) => t.orderId === orderId),
    ).toHaveLength(1)
  })

  it('orders create --reference (the others name the order made)', async () => {
    const results = await raceHeld(['orders', 'create', '--amount', '3.00', '--currency', 'AUD', '--reference', 'race-create', '--json'], env.env)
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
    const results = await raceHeld(args, env.env)
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
