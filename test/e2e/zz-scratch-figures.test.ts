import { afterAll, beforeAll, it } from 'vitest'
import { runnersFor } from '../helpers/command-harness.js'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { paidByPayTo } from '../helpers/flows.js'
import { type PgCluster, startPostgres } from '../helpers/postgres.js'
import { race } from '../helpers/race.js'
import { makeTempConfigDir } from '../helpers/tmp-config.js'

let pg: PgCluster
let env: EmulatorEnv
beforeAll(async () => {
  pg = await startPostgres()
  env = await startEmulatorEnv()
}, 60_000)
afterAll(async () => {
  await env?.close()
  pg?.close()
})

it('figures', { timeout: 900_000 }, async () => {
  const merchant = runnersFor(() => env.env)
  for (const shared of [false, true]) {
    for (let trial = 0; trial < 4; trial++) {
      const { transactionId: id } = await paidByPayTo(merchant.json, '30.00', `fig-${shared}-${trial}`)
      const envs = Array.from({ length: 16 }, () => ({
        ...env.env,
        PAYFAC_CONFIG_DIR: makeTempConfigDir('payfac-fig-').dir,
        ...(shared ? { PAYFAC_JOURNAL_URL: pg.url } : {}),
      }))
      const t = Date.now()
      const results = await race(16, ['transactions', 'refund', id, '--amount', '7.00', '--json'], (i) => envs[i] ?? {}, 300_000)
      const refunds = env.emulator.app.store.refunds.all().filter((r) => r.transactionId === id).length
      const codes: Record<string, number> = {}
      for (const r of results) codes[String(r.code)] = (codes[String(r.code)] ?? 0) + 1
      const named = results.filter((r) => r.code === 6).every((r) => /rfnd_/.test(r.stderr))
      console.log(`shared=${shared} trial=${trial} refunds=${refunds} codes=${JSON.stringify(codes)} losersNameIt=${named} ms=${Date.now() - t}`)
    }
  }
})
