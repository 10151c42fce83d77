// Start-up figures: how much longer than a bare `node -e 0` payfac takes to answer `--version`,
// `--help`, a command's help, and a real API call (`orders get <id> --json` against a local
// emulator running in this process). Every round runs each case once, in turn (a paired run, so
// that a busy machine slows the baseline as much as payfac); the figures are medians.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url))

const CASES = [
  { figure: 'payfac --version', args: () => ['--version'], goal: 10 },
  { figure: 'payfac --help', args: () => ['--help'], goal: 50 },
  { figure: 'payfac orders create --help', args: () => ['orders', 'create', '--help'], goal: 50 },
  { figure: 'payfac orders get <id> --json (local emulator)', args: (id) => ['orders', 'get', id, '--json'], goal: 100 },
]

export default async function bench(ctx) {
  const rounds = ctx.quick ? 5 : 21
  const { startEmulator } = await import('../dist/emulator/index.js')
  const emulator = await startEmulator({ port: 0 })
  const configDir = mkdtempSync(join(tmpdir(), 'payfac-bench-'))
  const env = { ...process.env, PAYFAC_BASE_URL: emulator.url, PAYFAC_API_KEY: emulator.credentials.merchantSecretKey, PAYFAC_CONFIG_DIR: configDir, NO_COLOR: '1' }
  try {
    const created = await run([BIN, 'orders', 'create', '--amount', '1.00', '--currency', 'AUD', '--reference', 'bench', '--json'], env)
    const orderId = JSON.parse(created.stdout).orderId
    const bare = []
    const samples = CASES.map(() => [])
    ctx.log(`startup: ${rounds} rounds of ${CASES.length + 1} runs`)
    for (let round = 0; round < rounds; round++) {
      bare.push((await run(['-e', '0'], env)).ms)
      for (const [i, c] of CASES.entries()) samples[i].push((await run([BIN, ...c.args(orderId)], env)).ms)
    }
    const base = median(bare)
    return CASES.map((c, i) => {
      const ms = median(samples[i])
      const over = ms - base
      return {
        figure: `${c.figure}, over bare node`,
        goal: `≤ +${c.goal} ms`,
        measured: `+${over.toFixed(0)} ms (${ms.toFixed(0)} ms)`,
        baseline: `node -e 0: ${base.toFixed(0)} ms`,
        ratio: ms / base,
        pass: over <= c.goal,
      }
    })
  } finally {
    await emulator.close()
    rmSync(configDir, { recursive: true, force: true })
  }
}

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
      if (code !== 0) reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.trim()}`))
      else resolve({ ms, stdout })
    })
  })
}
