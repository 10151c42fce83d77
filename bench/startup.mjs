// Start-up figures: each command's median wall time over N runs, and the difference from a bare
// `node -e 0` measured in the same loop. A real API call goes to a local emulator on port 0.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { startEmulator } from '../dist/emulator/index.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 15)
const BIN = new URL('../bin/run.js', import.meta.url).pathname

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function time(args, env) {
  const start = process.hrtime.bigint()
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return Number(process.hrtime.bigint() - start) / 1e6
}

export async function startupBench() {
  const emulator = await startEmulator({ port: 0 })
  const configDir = mkdtempSync(join(tmpdir(), 'payfac-bench-'))
  const env = { ...process.env, PAYFAC_BASE_URL: emulator.url, PAYFAC_API_KEY: emulator.credentials.merchantSecretKey, PAYFAC_CONFIG_DIR: configDir, NO_COLOR: '1' }
  try {
    const created = spawnSync(process.execPath, [BIN, 'orders', 'create', '--amount', '1.00', '--currency', 'AUD', '--reference', 'bench', '--json'], { env, encoding: 'utf8' })
    const orderId = JSON.parse(created.stdout).orderId
    const cases = [
      ['node -e 0 (bare)', ['-e', '0']],
      ['payfac --version', [BIN, '--version']],
      ['payfac --help', [BIN, '--help']],
      ['payfac orders create --help', [BIN, 'orders', 'create', '--help']],
      ['payfac orders get <id> --json (real API call)', [BIN, 'orders', 'get', orderId, '--json']],
    ]
    const samples = new Map(cases.map(([name]) => [name, []]))
    for (let i = 0; i < RUNS; i++) for (const [name, args] of cases) samples.get(name).push(time(args, env))
    const bare = median(samples.get(cases[0][0]))
    const rows = cases.map(([name]) => {
      const m = median(samples.get(name))
      return { case: name, 'median ms': m.toFixed(1), 'over bare ms': (m - bare).toFixed(1) }
    })
    return rows
  } finally {
    await emulator.close()
    rmSync(configDir, { recursive: true, force: true })
  }
}
