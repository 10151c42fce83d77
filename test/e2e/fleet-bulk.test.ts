// Bulk rows across a fleet (issue 34): two runners with config folders of their own and one
// shared journal in PostgreSQL run two copies of one file of refunds at once: every row is made
// once (before, two copies of one 190-row file from two runners made 338 refunds). And a bulk dry
// run says how many rows of the file are already done.
//
// Needs the built CLI (`npm run build`) and PostgreSQL's binaries (Debian's postgresql package).
import { spawn } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { useBulkEnv } from '../helpers/bulk-env.js'
import { type PgCluster, startPostgres } from '../helpers/postgres.js'
import { race } from '../helpers/race.js'
import { BIN, spawnCli } from '../helpers/spawn-cli.js'
import { makeTempConfigDir, type TempConfigDir } from '../helpers/tmp-config.js'

const bulk = useBulkEnv('fleet-bulk')
let pg: PgCluster
const folders: TempConfigDir[] = []

beforeAll(async () => {
  pg = await startPostgres()
}, 60_000)
afterAll(() => {
  pg?.close()
  for (const folder of folders) folder.cleanup()
})

function runner(): Record<string, string | undefined> {
  const folder = makeTempConfigDir('payfac-bulk-runner-')
  folders.push(folder)
  return { ...bulk.ctx.env, PAYFAC_CONFIG_DIR: folder.dir, PAYFAC_JOURNAL_URL: pg.url }
}

describe('two copies of one bulk file from two config folders, one shared journal', () => {
  it('make every row once', { timeout: 180_000 }, async () => {
    const ids = await bulk.paid(40)
    const file = bulk.csv('refunds.csv', ['transactionId,amount', ...ids.map((id) => `${id},1.00`)])
    const copy = join(bulk.files, 'refunds-copy.csv')
    copyFileSync(file, copy)
    const envs = [runner(), runner()]
    const results = await race(
      2,
      (i) => ['transactions', 'refund', '--from-file', i === 0 ? file : copy, '--concurrency', '8', '--json'],
      (i) => envs[i] ?? {},
      { killAfterMs: 150_000 },
    )
    const said = results.map((r) => `${r.code}: ${r.stderr.slice(-2000)}`).join('\n---\n')
    expect(bulk.refundsOf(ids), said).toEqual(ids.map(() => 1))
    expect(results.map((r) => r.code).sort(), said).toEqual([0, 0])
    // Each row is reported once as made, once as done before (by whichever runner made it).
    const lines = results.flatMap((r) =>
      r.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { line: number; status: string }),
    )
    expect(lines.filter((l) => l.status === 'done')).toHaveLength(40)
    expect(lines.filter((l) => l.status === 'skipped-already-done')).toHaveLength(40)

    // A dry run of the same file, from a third folder, says the 40 rows are already done.
    const dry = await spawnCli(['transactions', 'refund', '--from-file', file, '--dry-run'], { env: runner(), timeoutMs: 60_000 })
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stderr).toContain('40 of 40 rows are already done')
  })
})

describe('the database stopped in the middle of a bulk run', () => {
  it('stops the run: rows made are unknown (never failed), none is sent twice, and the re-run finishes every row once', { timeout: 180_000 }, async () => {
    const ids = await bulk.paid(20)
    const file = bulk.csv('stopped.csv', ['transactionId,amount', ...ids.map((id) => `${id},1.00`)])
    // Each refund's answer is held back a little, so that the database stops with rows in flight.
    await bulk.control('POST', '/faults', { fault: 'latency=400', pathPattern: '/transactions/*', method: 'PATCH' })
    const env = runner()
    const defined = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter((e): e is [string, string] => e[1] !== undefined))
    const child = spawn(process.execPath, [BIN, 'transactions', 'refund', '--from-file', file, '--concurrency', '4'], {
      env: defined,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
    // The event: a few refunds were applied.
    while (bulk.refundsOf(ids).reduce((a, b) => a + b, 0) < 4) await new Promise((resolve) => setImmediate(resolve))
    pg.stop('immediate')
    try {
      const code = await closed
      expect([3, 7], stderr).toContain(code)
      expect(stderr).toMatch(/Stopped: /)
      expect(Math.max(...bulk.refundsOf(ids)), stderr).toBe(1)
    } finally {
      pg.start()
    }
    await bulk.control('DELETE', '/faults')
    const again = await spawnCli(['transactions', 'refund', '--from-file', file, '--concurrency', '4'], { env, timeoutMs: 120_000 })
    expect(again.code, again.stderr).toBe(0)
    expect(bulk.refundsOf(ids)).toEqual(ids.map(() => 1))
  })
})
