// Start-up figures: each command's median wall time over N runs, and the difference from a bare
// `node -e 0` measured in the same loop. A real API call goes to a local emulator on port 0.
import { spawn } from 'node:child_process'
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

// Asynchronous on purpose: the emulator answering the API calls runs in this process.
function run(args, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))
      else resolve({ ms, stdout })
    })
  })
}

export async function startupBench() {
  const emulator = await startEmulator({ port: 0 })
  const configDir = mkdtempSync(join(tmpdir(), 'payfac-bench-'))
  const env = { ...process.env, PAYFAC_BASE_URL: emulator.url, PAYFAC_API_KEY: emulator.credentials.merchantSecretKey, PAYFAC_CONFIG_DIR: configDir, NO_COLOR: '1' }
  try {
    const created = await run([BIN, 'orders', 'create', '--amount', '1.00', '--currency', 'AUD', '--reference', 'bench', '--json'], env)
    const orderId = JSON.parse(created.stdout).orderId
    const cases = [
      ['node -e 0 (bare)', ['-e', '0']],
      ['payfac --version', [BIN, '--version']],
      ['payfac --help', [BIN, '--help']],
      ['payfac orders create --help', [BIN, 'orders', 'create', '--help']],
      ['payfac orders get <id> --json (real API call)', [BIN, 'orders', 'get', orderId, '--json']],
    ]
    const samples = new Map(cases.map(([name]) => [name, []]))
    for (let i = 0; i < RUNS; i++) for (const [name, args] of cases) samples.get(name).push((await run(args, env)).ms)
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
