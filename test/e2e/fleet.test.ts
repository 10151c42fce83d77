// At most once across a fleet of runners (issue 34): runners with config folders of their own
// that share one journal in PostgreSQL (a private cluster, test/helpers/postgres.ts) and one
// emulator. Each runner is a spawned payfac with its own PAYFAC_CONFIG_DIR and the same
// PAYFAC_JOURNAL_URL.
//
// Needs the built CLI (`npm run build`) and PostgreSQL's binaries (Debian's postgresql package).
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type Runners, runnersFor } from '../helpers/command-harness.js'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { paidByPayTo } from '../helpers/flows.js'
import { type PgCluster, startPostgres } from '../helpers/postgres.js'
import { race } from '../helpers/race.js'
import { BIN, type SpawnResult, spawnCli } from '../helpers/spawn-cli.js'
import { makeTempConfigDir, type TempConfigDir } from '../helpers/tmp-config.js'

let pg: PgCluster
let env: EmulatorEnv
let merchant: Runners
const folders: TempConfigDir[] = []

/** A runner: a config folder of its own, the shared journal. */
function runner(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const folder = makeTempConfigDir('payfac-runner-')
  folders.push(folder)
  return { ...env.env, PAYFAC_CONFIG_DIR: folder.dir, PAYFAC_JOURNAL_URL: pg.url, ...extra }
}

beforeAll(async () => {
  pg = await startPostgres()
  env = await startEmulatorEnv()
  merchant = runnersFor(() => env.env)
}, 60_000)

afterAll(async () => {
  await env?.close()
  pg?.close()
  for (const folder of folders) folder.cleanup()
})

const said = (results: SpawnResult[]) => results.map((r) => `${r.code}: ${r.stderr}`).join('\n---\n')
const refundsOf = (id: string) => env.emulator.app.store.refunds.all().filter((r) => r.transactionId === id)

describe('16 runners with 16 config folders and one shared journal', () => {
  it('start the same refund at once: exactly one refund, 15 exit 6 naming it', { timeout: 180_000 }, async () => {
    const { transactionId: id } = await paidByPayTo(merchant.json, '30.00', 'fleet')
    const envs = Array.from({ length: 16 }, () => runner())
    const results = await race(16, ['transactions', 'refund', id, '--amount', '7.00', '--json'], (i) => envs[i] ?? {}, { killAfterMs: 150_000 })
    expect(refundsOf(id), said(results)).toHaveLength(1)
    expect(results.map((r) => r.code).sort(), said(results)).toEqual([0, ...Array(15).fill(6)])
    const made = JSON.parse((results.find((r) => r.code === 0) as SpawnResult).stdout).purchaseDetails.refundIds.at(-1)
    for (const loser of results.filter((r) => r.code === 6)) expect(loser.stderr, said(results)).toContain(made)
    // The journal shows the one record, made by one runner.
    const list = await spawnCli(['journal', 'list', '--json'], { env: runner() })
    expect(list.code, list.stderr).toBe(0)
    const rows = JSON.parse(list.stdout) as Array<{ kind: string; target: string; state: string; resultId: string; runner: string }>
    expect(rows.filter((r) => r.kind === 'refund' && r.target === id)).toMatchObject([{ state: 'done', resultId: made }])
  })
})

describe('payto charge across runners', () => {
  it('one reference from 4 config folders: one payment, the others exit 6 naming it', { timeout: 120_000 }, async () => {
    const sent = await merchant.json('payto', 'agree', '--name', 'Fleet Charge', '--bban', '062-000 12345678', '--open')
    await merchant.json('simulate', 'SetPayToAgreementStatus', '--data', JSON.stringify({ token: sent.token, status: 'Active' }))
    const envs = Array.from({ length: 4 }, () => runner())
    const args = ['payto', 'charge', sent.token, '--amount', '3.00', '--currency', 'AUD', '--reference', 'fleet-charge', '--json']
    const results = await race(4, args, (i) => envs[i] ?? {}, { killAfterMs: 100_000 })
    const orders = env.emulator.app.store.orders.all().filter((o) => o.referenceOrderId === 'fleet-charge')
    expect(
      env.emulator.app.store.transactions.all().filter((t) => orders.some((o) => o.orderId === t.orderId)),
      said(results),
    ).toHaveLength(1)
    expect(results.map((r) => r.code).sort(), said(results)).toEqual([0, 6, 6, 6])
    const made = JSON.parse((results.find((r) => r.code === 0) as SpawnResult).stdout).purchaseDetails.transactionId
    for (const loser of results.filter((r) => r.code === 6)) expect(loser.stderr).toContain(made)
  })
})

describe('the database stopped', () => {
  it('is exit 3 before anything is sent, and the next run after it is back works', { timeout: 60_000 }, async () => {
    const { transactionId: id } = await paidByPayTo(merchant.json, '30.00', 'stopped')
    const one = runner()
    pg.stop()
    try {
      const result = await spawnCli(['transactions', 'refund', id, '--amount', '1.00'], { env: one, timeoutMs: 30_000 })
      expect(result.code, result.stderr).toBe(3)
      expect(result.stderr).toMatch(/shared journal .* cannot be reached/)
      expect(result.stderr).not.toContain('local journal is used')
      expect(refundsOf(id)).toHaveLength(0)
    } finally {
      pg.start()
    }
    const after = await spawnCli(['transactions', 'refund', id, '--amount', '1.00'], { env: one, timeoutMs: 30_000 })
    expect(after.code, after.stderr).toBe(0)
    expect(refundsOf(id)).toHaveLength(1)
  })
})

describe('a runner killed while it holds the reservation', () => {
  it('leaves the record sending: the next runner looks on the service, and never sends blind', { timeout: 90_000 }, async () => {
    const { transactionId: id } = await paidByPayTo(merchant.json, '30.00', 'killed')
    // The refund is applied, then its answer held back: the holder is killed with the request in flight.
    await merchant.json('emulator', 'faults', '--add', 'latency=60000', '--method', 'PATCH', '--path', `/transactions/${id}`)
    const first = spawn(process.execPath, [BIN, 'transactions', 'refund', id, '--amount', '2.00'], {
      env: { ...process.env, ...definedOnly(runner()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    // Wait for the event: the emulator applied the refund (its answer is held back).
    await waitFor(() => refundsOf(id).length === 1)
    first.kill('SIGKILL')
    await new Promise((resolve) => first.once('close', resolve))
    await merchant.json('emulator', 'faults', '--clear')
    const second = await spawnCli(['transactions', 'refund', id, '--amount', '2.00'], { env: runner(), timeoutMs: 60_000 })
    // The refund the killed runner sent was applied: the next runner finds it, and sends nothing.
    expect(refundsOf(id), second.stderr).toHaveLength(1)
    expect(second.stderr).toMatch(/ended without an answer; looking on the service first/)
    expect(second.stderr).toContain('It happened')
    expect(second.code, second.stderr).toBe(0)
  })
})

describe('a shared journal that cannot be used is exit 3, nothing sent', () => {
  it.each([
    ['a database of another schema', () => `CREATE DATABASE other OWNER payfac`, 'other', 'wrong schema'],
    ['a user without permission', () => `CREATE ROLE visitor LOGIN`, 'payfac', 'Permission denied'],
  ])('%s', async (_name, setUp, database, words) => {
    pg.sql(setUp(), 'postgres')
    if (database === 'other')
      pg.sql(`SET ROLE payfac; CREATE TABLE payfac_journal_meta (name text PRIMARY KEY, value text); CREATE TABLE payfac_operations (id int);`, 'other')
    const url = database === 'other' ? pg.urlFor('payfac', 'other') : pg.urlFor('visitor')
    const { transactionId: id } = await paidByPayTo(merchant.json, '30.00', 'refused')
    const result = await spawnCli(['transactions', 'refund', id, '--amount', '1.00'], { env: runner({ PAYFAC_JOURNAL_URL: url }), timeoutMs: 30_000 })
    expect(result.code, result.stderr).toBe(3)
    expect(result.stderr).toContain(words)
    expect(refundsOf(id)).toHaveLength(0)
  })
})

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined))
}

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve))
}

describe('payfac journal init', () => {
  it('makes the tables of an empty database (created: true), then finds them (created: false); without a shared journal it is exit 2', async () => {
    pg.sql('CREATE DATABASE journal_init OWNER payfac;', 'postgres')
    const fresh = runner({ PAYFAC_JOURNAL_URL: pg.urlFor('payfac', 'journal_init') })
    const first = await spawnCli(['journal', 'init', '--json'], { env: fresh })
    expect(first.code, first.stderr).toBe(0)
    expect(JSON.parse(first.stdout)).toMatchObject({ journal: expect.stringContaining('/journal_init'), schemaVersion: 1, created: true })
    expect(first.stderr).toContain("Created the shared journal's tables")
    const again = await spawnCli(['journal', 'init', '--json'], { env: fresh })
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ created: false })
    expect(again.stderr).toContain("Found the shared journal's tables")
    const local = await spawnCli(['journal', 'init'], { env: runner({ PAYFAC_JOURNAL_URL: undefined }) })
    expect(local.code).toBe(2)
    expect(local.stderr).toContain('No shared journal is set')
  })
})
