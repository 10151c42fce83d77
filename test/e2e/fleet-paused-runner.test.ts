// A runner of a fleet paused at the steps where money could move twice: runners, each with a
// config folder of its own and one PostgreSQL journal (test/helpers/postgres.ts), stopped, resumed
// and raced there. Every step is arranged by an event (a
// statement seen on the wire by test/helpers/pg-proxy.ts, a runner's exit), never by the clock.
//
// Needs the built CLI (`npm run build`) and PostgreSQL's binaries (Debian's postgresql package).
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type Runners, runnersFor } from '../helpers/command-harness.js'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { paidByPayTo } from '../helpers/flows.js'
import { pgProxy } from '../helpers/pg-proxy.js'
import { type PgCluster, startPostgres } from '../helpers/postgres.js'
import { BIN, type SpawnResult, spawnCli } from '../helpers/spawn-cli.js'
import { makeTempConfigDir, type TempConfigDir } from '../helpers/tmp-config.js'

let pg: PgCluster
let env: EmulatorEnv
let merchant: Runners
const folders: TempConfigDir[] = []

/** A runner: a config folder of its own, the shared journal (at `url`, by default the database itself). */
function runner(url = pg.url): Record<string, string> {
  const folder = makeTempConfigDir('payfac-adv-runner-')
  folders.push(folder)
  const all: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...env.env, PAYFAC_CONFIG_DIR: folder.dir, PAYFAC_JOURNAL_URL: url }
  return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined))
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

const refundsOf = (id: string) => env.emulator.app.store.refunds.all().filter((r) => r.transactionId === id)

/** A spawned payfac whose result is awaited later. */
function start(args: string[], childEnv: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const done = new Promise<SpawnResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
  return { child, done }
}

describe('a runner paused right after its intent was written', () => {
  it('does not send once it resumes, after another runner took its reservation over and sent', { timeout: 120_000 }, async () => {
    const { transactionId: id } = await paidByPayTo(merchant.json, '30.00', 'paused-intent')
    let first: ReturnType<typeof start> | undefined
    // The event: the database answers the first runner's intent (committed, `sending`); the runner
    // is stopped (SIGSTOP) before the answer reaches it, so it can neither beat nor send.
    const proxy = await pgProxy(pg, '"state": "sending"', () => first?.child.kill('SIGSTOP'))
    try {
      first = start(['transactions', 'refund', id, '--amount', '2.00'], runner(proxy.url))
      await proxy.seen
      // A second runner waits for the reservation to go stale (the first cannot beat), takes it
      // over, finds the intent `sending`, looks on the service (nothing there) and sends.
      const second = await spawnCli(['transactions', 'refund', id, '--amount', '2.00'], { env: runner(), timeoutMs: 90_000 })
      expect(second.code, second.stderr).toBe(0)
      expect(refundsOf(id), second.stderr).toHaveLength(1)
      first.child.kill('SIGCONT')
      const resumed = await first.done
      // The first must not send now: its reservation is another's, and the refund is made.
      expect(refundsOf(id), resumed.stderr).toHaveLength(1)
      expect(resumed.code, resumed.stderr).toBe(7)
      expect(resumed.stderr).toMatch(/no longer hold/)
    } finally {
      first?.child.kill('SIGCONT')
      await proxy.close()
    }
  })
})
