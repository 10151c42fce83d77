// The last races on one machine and one config folder (issue 34), each a regression test that
// moved money twice before: N spawned payfac processes released together by a barrier.
//   - a deliberate repeat (--again) made while another identical run is in flight is the same
//     repeat: after one refund, N `--again` at once make exactly one more;
//   - `orders create --reference R --if-exists create` N at once make exactly one more order;
//   - the same refund with and without a customer context, or with a marketplace's key and the
//     merchant's own key, is one operation (one lock, one record);
//   - every loser exits 6 naming the winner's id (payto charge too).
// Needs the built CLI: `npm run build`.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type Runners, runnersFor } from '../helpers/command-harness.js'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { newCustomer, paidByPayTo } from '../helpers/flows.js'
import { race } from '../helpers/race.js'
import { spawnCli, type SpawnResult } from '../helpers/spawn-cli.js'
import { makeTempConfigDir } from '../helpers/tmp-config.js'

const N = 4
let env: EmulatorEnv
let merchant: Runners
const given: { again?: string; split?: string; splitKeys?: string; agreement?: string; customer?: string } = {}

beforeAll(async () => {
  env = await startEmulatorEnv()
  merchant = runnersFor(() => env.env)
  given.again = (await paidByPayTo(merchant.json, '20.00', 'again')).transactionId
  given.split = (await paidByPayTo(merchant.json, '20.00', 'split')).transactionId
  given.splitKeys = (await paidByPayTo(merchant.json, '20.00', 'split-keys')).transactionId
  given.customer = await newCustomer(merchant.json)
  const sent = await merchant.json('payto', 'agree', '--name', 'Race Charge', '--bban', '062-000 12345678', '--open')
  await merchant.json('simulate', 'SetPayToAgreementStatus', '--data', JSON.stringify({ token: sent.token, status: 'Active' }))
  given.agreement = sent.token
  // The refund --again races from one refund already made.
  const first = await merchant.payfac('transactions', 'refund', given.again, '--amount', '3.00')
  expect(first.code, first.stderr).toBe(0)
  const order = await merchant.payfac('orders', 'create', '--amount', '3.00', '--currency', 'AUD', '--reference', 'race-if-exists')
  expect(order.code, order.stderr).toBe(0)
}, 60_000)

afterAll(async () => {
  await env?.close()
})

const said = (results: SpawnResult[]) => results.map((r) => `${r.code}: ${r.stderr}`).join('\n---\n')
const store = () => env.emulator.app.store
const refundsOf = (id: string) =>
  store()
    .refunds.all()
    .filter((r) => r.transactionId === id)

/** One winner (exit 0); every other exits 6 naming `winnerId(winner)`. */
function expectOneWinner(results: SpawnResult[], winnerId: (winner: SpawnResult) => string): string {
  expect(results.map((r) => r.code).sort(), said(results)).toEqual([0, ...Array(results.length - 1).fill(6)])
  const id = winnerId(results.find((r) => r.code === 0) as SpawnResult)
  expect(id).toMatch(/^[a-z]+_/)
  for (const loser of results.filter((r) => r.code === 6)) {
    expect(loser.stderr, said(results)).toContain(id)
    expect(loser.stderr).toMatch(/nothing was sent/i)
  }
  return id
}

describe.concurrent('the last local races move money once', { timeout: 90_000 }, () => {
  it('transactions refund --again, N at once after one refund: exactly one more, the others name it', async () => {
    const id = given.again as string
    const results = await race(N, ['transactions', 'refund', id, '--amount', '3.00', '--again', '--json'], env.env)
    expect(refundsOf(id), said(results)).toHaveLength(2)
    expectOneWinner(results, (w) => JSON.parse(w.stdout).purchaseDetails.refundIds.at(-1))
  })

  it('orders create --reference R --if-exists create, N at once: exactly one more order, the others name it', async () => {
    const args = ['orders', 'create', '--amount', '3.00', '--currency', 'AUD', '--reference', 'race-if-exists', '--if-exists', 'create', '--json']
    const results = await race(N, args, env.env)
    const orders = store()
      .orders.all()
      .filter((o) => o.referenceOrderId === 'race-if-exists')
    expect(orders, said(results)).toHaveLength(2)
    expectOneWinner(results, (w) => JSON.parse(w.stdout).orderId)
  })

  it('the same refund with and without a customer context is one operation', async () => {
    const id = given.split as string
    const customer = { ...env.env, PAYFAC_CUSTOMER_ID: given.customer }
    const results = await race(N, ['transactions', 'refund', id, '--amount', '4.00', '--json'], (i) => (i % 2 ? customer : env.env))
    expect(refundsOf(id), said(results)).toHaveLength(1)
    expectOneWinner(results, (w) => JSON.parse(w.stdout).purchaseDetails.refundIds.at(-1))
  })

  it("the same refund by a marketplace's key and by the merchant's own key is one operation", async () => {
    const id = given.splitKeys as string
    const viaMarketplace = env.envWith(env.emulator.credentials.marketplaceApiKey)
    const results = await race(N, ['transactions', 'refund', id, '--amount', '4.00', '--json'], (i) => (i % 2 ? viaMarketplace : env.env))
    expect(refundsOf(id), said(results)).toHaveLength(1)
    expectOneWinner(results, (w) => JSON.parse(w.stdout).purchaseDetails.refundIds.at(-1))
  })

  it('payto charge, N at once with one reference: one payment, every other exits 6 naming it', async () => {
    const args = ['payto', 'charge', given.agreement as string, '--amount', '2.00', '--currency', 'AUD', '--reference', 'race-charge', '--json']
    const results = await race(N, args, env.env)
    const orders = store()
      .orders.all()
      .filter((o) => o.referenceOrderId === 'race-charge')
    expect(orders, said(results)).toHaveLength(1)
    expect(
      store()
        .transactions.all()
        .filter((t) => t.orderId === orders[0]?.orderId),
    ).toHaveLength(1)
    expectOneWinner(results, (w) => JSON.parse(w.stdout).purchaseDetails.transactionId)
  })

  it('payto charge from separate config folders: no loser exits 0 with the winner’s payment', async () => {
    // Without a shared journal, runners that share nothing can each pay at the same moment (docs/cli.md,
    // "Where it ends"); what must hold is that none reports another's payment as its own: every exit 0
    // is a payment of its own, and every exit 6 names a payment that was made.
    const folders = Array.from({ length: N }, () => makeTempConfigDir('payfac-charge-'))
    try {
      const args = ['payto', 'charge', given.agreement as string, '--amount', '2.50', '--currency', 'AUD', '--reference', 'race-charge-apart', '--json']
      const results = await race(N, args, (i) => ({ ...env.env, PAYFAC_CONFIG_DIR: folders[i]?.dir }))
      const orders = store()
        .orders.all()
        .filter((o) => o.referenceOrderId === 'race-charge-apart')
      const paid = store()
        .transactions.all()
        .filter((t) => orders.some((o) => o.orderId === t.orderId))
        .map((t) => t.transactionId)
      const winners = results.filter((r) => r.code === 0).map((r) => JSON.parse(r.stdout).purchaseDetails.transactionId as string)
      expect(new Set(winners).size, said(results)).toBe(winners.length)
      expect([...winners].sort(), said(results)).toEqual([...paid].sort())
      for (const loser of results.filter((r) => r.code !== 0)) {
        expect(loser.code, said(results)).toBe(6)
        expect(
          paid.some((id) => loser.stderr.includes(id)),
          said(results),
        ).toBe(true)
      }
    } finally {
      for (const folder of folders) folder.cleanup()
    }
  })
})

describe('the operations folder', () => {
  it('a regular file where the operations folder should be is exit 3 with a hint, nothing sent', async () => {
    const config = makeTempConfigDir('payfac-opsfile-')
    try {
      mkdirSync(config.dir, { recursive: true, mode: 0o700 })
      writeFileSync(join(config.dir, 'operations'), 'not a folder\n', { mode: 0o600 })
      const id = given.again as string
      const before = refundsOf(id).length
      const result = await spawnCli(['transactions', 'refund', id, '--amount', '1.00', '--again'], { env: { ...env.env, PAYFAC_CONFIG_DIR: config.dir } })
      expect(result.code, result.stderr).toBe(3)
      expect(result.stderr).toContain(join(config.dir, 'operations'))
      expect(result.stderr).toMatch(/not a folder/i)
      expect(result.stderr).toMatch(/hint|move it aside|PAYFAC_CONFIG_DIR/i)
      expect(refundsOf(id)).toHaveLength(before)
    } finally {
      config.cleanup()
    }
  })
})
