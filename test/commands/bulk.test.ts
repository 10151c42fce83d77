// `--from-file` (src/cli/bulk): every row checked before the first is sent, the dry run, the
// results file, each row at most once across runs killed with SIGKILL, 429s from the service,
// and the production guard. payfac is spawned (bin/run.js) against an emulator in this process.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { useBulkEnv } from '../helpers/bulk-env.js'
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { BIN, spawnCli } from '../helpers/spawn-cli.js'

const bulk = useBulkEnv('bulk')
const { payfac, control, paid, csv, refundsOf } = bulk

const patches = () => bulk.ctx.emulator.app.namespaces.root.requests.last(5000).filter((r: { method: string }) => r.method === 'PATCH').length

describe('transactions refund --from-file', () => {
  it('checks every row before sending: a bad row is exit 2 naming its line and value, and nothing is sent', async () => {
    const ids = await paid(2)
    const file = csv('bad.csv', [
      'transactionId,amount,currency',
      `${ids[0]},1.00,AUD`,
      `${ids[1]},1.00,AUD`,
      `${ids[1]},abc,AUD`,
      `ordr_NotATransaction1,1.00,AUD`,
    ])
    const before = patches()
    const result = await payfac('transactions', 'refund', '--from-file', file)
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(/line 4: .*"abc"/)
    expect(result.stderr).toContain('2 bad rows in all (lines 4, 5)')
    expect(result.stdout).toBe('')
    expect(patches()).toBe(before)
    expect(refundsOf(ids)).toEqual([0, 0])
  })

  it('refuses an unknown column and a row flag also given on the command line (exit 2)', async () => {
    const unknown = await payfac('transactions', 'refund', '--from-file', csv('col.csv', ['transactionId,amout', 'tran_ZqCNoNcm_22WeZ-j,1.00']))
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('"amout" is not a column of this command')
    const both = await payfac(
      'transactions',
      'refund',
      '--from-file',
      csv('both.csv', ['transactionId,amount', 'tran_ZqCNoNcm_22WeZ-j,1.00']),
      '--currency',
      'AUD',
    )
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--currency is a column of the file with --from-file')
  })

  it("--dry-run checks every row, prints the first row's request and sends nothing", async () => {
    const ids = await paid(2)
    const file = csv('dry.csv', ['transactionId,amount,currency', `${ids[0]},1.25,AUD`, `${ids[1]},2.00,AUD`])
    const before = patches()
    const result = await payfac('transactions', 'refund', '--from-file', file, '--dry-run')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain('Checked 2 rows')
    expect(result.stderr).toContain('3.25 AUD')
    const printed = JSON.parse(result.stdout)
    expect(printed).toMatchObject({ dryRun: true, sent: false, request: { method: 'PATCH', body: { CreateRefund: { refundAmount: 125 } } } })
    expect(printed.request.url).toContain(ids[0])
    expect(patches()).toBe(before)
  })

  it('writes the results file at the end (no .partial left), exit 6 when a row fails; a re-run skips the rows done', async () => {
    const ids = await paid(3)
    const file = csv('results.csv', ['transactionId,amount,currency', `${ids[0]},1.00,AUD`, `${ids[1]},2.00,AUD`, `${ids[2]},11.00,AUD`])
    const out = join(bulk.files, 'results-out.csv')
    const first = await payfac('transactions', 'refund', '--from-file', file, '--out', out)
    expect(first.code, first.stderr).toBe(6)
    expect(first.stdout).toBe('')
    expect(existsSync(`${out}.partial`)).toBe(false)
    const lines = readFileSync(out, 'utf8').trim().split('\n')
    expect(lines[0]).toBe('line,status,id,errorCode,message')
    expect(lines[1]).toMatch(/^2,done,rfnd_\S+,,$/)
    expect(lines[2]).toMatch(/^3,done,rfnd_\S+,,$/)
    expect(lines[3]).toMatch(/^4,failed,,exit-6,.*more than what remains/)
    const again = await payfac('transactions', 'refund', '--from-file', file, '--out', out)
    expect(again.code).toBe(6)
    const rerun = readFileSync(out, 'utf8').trim().split('\n')
    expect(rerun[1]).toBe(lines[1]?.replace(',done,', ',skipped-already-done,'))
    expect(rerun[2]).toBe(lines[2]?.replace(',done,', ',skipped-already-done,'))
    expect(refundsOf(ids)).toEqual([1, 1, 0])
  })

  it('killed with SIGKILL at several points and run again, refunds every row exactly once', async () => {
    const ids = await paid(30)
    const file = csv('killed.csv', ['transactionId,amount,currency', ...ids.map((id) => `${id},2.00,AUD`)])
    // Each refund is applied at once and answered 250 ms later: a kill lands while answers are outstanding.
    await control('POST', '/faults', { method: 'PATCH', pathPattern: '/transactions/*', fault: 'latency=250' })
    const earlier = intentsJournaled()
    for (const intents of [2, 9, 17, 26].map((n) => earlier + n)) {
      const child = spawn(process.execPath, [BIN, 'transactions', 'refund', '--from-file', file, '--concurrency', '4'], { env: definedEnv(), stdio: 'ignore' })
      let closed = false
      const exited = new Promise((resolve) => child.on('close', (_code, signal) => resolve(signal))).finally(() => (closed = true))
      while (intentsJournaled() < intents && !closed) await sleep(10)
      child.kill('SIGKILL')
      expect(await exited).toBe('SIGKILL')
      ageLocks()
    }
    await control('DELETE', '/faults')
    const last = await payfac('transactions', 'refund', '--from-file', file)
    expect(last.code, last.stderr).toBe(0)
    expect(last.stderr).toMatch(/an earlier run's refund of 2\.00 AUD .* ended without an answer/)
    expect(refundsOf(ids)).toEqual(ids.map(() => 1))
    const statuses = last.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[1])
    expect(statuses.every((s) => s === 'done' || s === 'skipped-already-done')).toBe(true)
    const once = await payfac('transactions', 'refund', '--from-file', file)
    expect(once.code).toBe(0)
    expect(once.stderr).toContain('0 done, 30 skipped (done before)')
    expect(refundsOf(ids)).toEqual(ids.map(() => 1))
  }, 40_000)

  it('slows every worker on 429s and still refunds each row once (exit 0)', async () => {
    const ids = await paid(12)
    const file = csv(
      'limited.jsonl',
      ids.map((id) => JSON.stringify({ transactionId: id, amount: '1.50', currency: 'AUD' })),
    )
    await control('POST', '/faults', { method: 'PATCH', pathPattern: '/transactions/*', probability: 0.3, fault: '429;retry-after=1' })
    const result = await payfac('transactions', 'refund', '--from-file', `${file}`, '--concurrency', '6', '--json')
    expect(result.code, result.stderr).toBe(0)
    const limited = bulk.ctx.emulator.app.namespaces.root.requests
      .last(5000)
      .filter((r: { status: number; method: string }) => r.method === 'PATCH' && r.status === 429)
    expect(limited.length).toBeGreaterThan(0)
    const rows = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'done'))
    expect(refundsOf(ids)).toEqual(ids.map(() => 1))
  }, 30_000)
})

describe('the production guard', () => {
  let server: RecordingServer
  beforeAll(async () => {
    server = await startRecordingServer((r) =>
      r.method === 'POST'
        ? { status: 200, body: { customerId: 'cust_ProdBulkCustomer1' } }
        : { status: 404, body: { statusCode: 404, errorCode: 'not_found', message: 'Not here' } },
    )
  })
  afterAll(() => server.close())
  const production = () => ({
    ...bulk.ctx.env,
    PAYFAC_BASE_URL: server.url,
    PAYFAC_API_KEY: 'live_sk_bulkProductionKey0001',
    PAYFAC_MERCHANT_ID: 'mcht_ProdBulkMerchant1',
  })

  it('without a terminal and without --yes sends nothing (exit 3); with --yes every row is sent', async () => {
    const file = csv('customers.csv', ['email,given-name,verified', 'jo@example.com,Jo,true', 'al@example.com,Al,no'])
    server.requests.length = 0
    const refused = await spawnCli(['customers', 'upsert', '--from-file', file], { env: production() })
    expect(refused.code, refused.stderr).toBe(3)
    expect(refused.stderr).toContain('Checked 2 rows')
    expect(refused.stderr).toMatch(/needs confirmation, and there is no terminal to ask: nothing was sent/)
    expect(server.requests).toEqual([])
    const refunds = await spawnCli(['transactions', 'refund', '--from-file', csv('prod-refunds.csv', ['transactionId,amount', 'tran_ZqCNoNcm_22WeZ-j,1.00'])], {
      env: production(),
    })
    expect(refunds.code).toBe(3)
    expect(server.requests).toEqual([])
    const confirmed = await spawnCli(['customers', 'upsert', '--from-file', file, '--yes'], { env: production() })
    expect(confirmed.code, confirmed.stderr).toBe(0)
    expect(server.requests.map((r) => r.json)).toEqual([
      { UpsertConsumerCustomer: { emailAddress: 'jo@example.com', givenName: 'Jo', isVerified: true } },
      { UpsertConsumerCustomer: { emailAddress: 'al@example.com', givenName: 'Al', isVerified: false } },
    ])
  })
})

function definedEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, ...bulk.ctx.env })) if (value !== undefined) env[key] = value
  return env
}

/**
 * Intents written to the bulk journals so far: each run's file sits in its service's folder
 * (operations/<identity>/), read alone, since the rows' lock folders beside it come and go.
 */
function intentsJournaled(): number {
  const root = join(bulk.ctx.env.PAYFAC_CONFIG_DIR as string, 'operations')
  if (!existsSync(root)) return 0
  let count = 0
  for (const service of readdirSync(root, { withFileTypes: true })) {
    if (!service.isDirectory()) continue
    for (const name of readdirSync(join(root, service.name))) {
      if (!/^bulk-transactions-refund-.*\.jsonl$/.test(name)) continue
      count += (readFileSync(join(root, service.name, name), 'utf8').match(/"state":"sending"/g) ?? []).length
    }
  }
  return count
}

/** Moves the time of every lock folder a minute back: as if its holder died long ago. */
function ageLocks(): void {
  const root = join(bulk.ctx.env.PAYFAC_CONFIG_DIR as string, 'operations')
  const old = new Date(Date.now() - 60_000)
  for (const entry of readdirSync(root, { recursive: true }) as string[]) if (entry.endsWith('.lock')) utimesSync(join(root, entry), old, old)
}
