// Start-up figures: how much longer than a bare `node -e 0` payfac takes to answer `--version`,
// `--help`, a command's help, and a real API call (`orders get <id> --json` against a local
// emulator running in this process). Every round runs each case once, in turn (a paired run, so
// that a busy machine slows the baseline as much as payfac); the figures are medians. The goals
// are wall time; the CPU time each process used (bench/lib/cpu-report.cjs, preloaded into the
// baseline as well) is given beside it, since it moves less when the machine is shared.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url))
const CPU_REPORT = fileURLToPath(new URL('./lib/cpu-report.cjs', import.meta.url))

const CASES = [
  { figure: 'payfac --version', args: () => ['--version'], goal: 10 },
  { figure: 'payfac --help', args: () => ['--help'], goal: 50 },
  { figure: 'payfac orders create --help', args: () => ['orders', 'create', '--help'], goal: 50 },
  // The OpenAPI document is a file the build wrote: printing it loads no zod (issue 22).
  { figure: 'payfac openapi', args: () => ['openapi'], goal: 50 },
  { figure: 'payfac orders get <id> --json (local emulator)', args: (id) => ['orders', 'get', id, '--json'], goal: 100 },
  // The same call as most users make it: the credential from a profile in the store, not from the environment.
  { figure: 'payfac orders get <id> --json (local emulator, profile from the store)', args: (id) => ['orders', 'get', id, '--json'], goal: 100, profile: true },
]

export default async function bench(ctx) {
  const rounds = ctx.quick ? 5 : 21
  const { startEmulator } = await import('../dist/emulator/index.js')
  const emulator = await startEmulator({ port: 0 })
  const configDir = mkdtempSync(join(tmpdir(), 'payfac-bench-'))
  const env = {
    ...process.env,
    PAYFAC_BASE_URL: emulator.url,
    PAYFAC_API_KEY: emulator.credentials.merchantSecretKey,
    PAYFAC_CONFIG_DIR: configDir,
    NO_COLOR: '1',
  }
  try {
    const created = await run([BIN, 'orders', 'create', '--amount', '1.00', '--currency', 'AUD', '--reference', 'bench', '--json'], env)
    const { PAYFAC_BASE_URL: _url, PAYFAC_API_KEY: _key, ...profileEnv } = env
    await run(
      [BIN, 'profiles', 'add', 'bench', '--environment', 'sandbox', '--base-url', emulator.url, '--credential-stdin', '--use'],
      profileEnv,
      `${emulator.credentials.merchantSecretKey}\n`,
    )
    const orderId = JSON.parse(created.stdout).orderId
    const bare = []
    const samples = CASES.map(() => [])
    ctx.log(`startup: ${rounds} rounds of ${CASES.length + 1} runs`)
    for (let round = 0; round < rounds; round++) {
      bare.push(await run(['-r', CPU_REPORT, '-e', '0'], env))
      for (const [i, c] of CASES.entries()) samples[i].push(await run(['-r', CPU_REPORT, BIN, ...c.args(orderId)], c.profile ? profileEnv : env))
    }
    const base = median(bare.map((s) => s.ms))
    const baseCpu = median(bare.map((s) => s.cpu))
    return CASES.map((c, i) => {
      const ms = median(samples[i].map((s) => s.ms))
      const cpu = median(samples[i].map((s) => s.cpu))
      const over = ms - base
      return {
        figure: `${c.figure}, over bare node`,
        goal: `≤ +${c.goal} ms`,
        measured: `${signed(over)} ms (${ms.toFixed(0)} ms); CPU ${signed(cpu - baseCpu)} ms`,
        baseline: `node -e 0: ${base.toFixed(0)} ms; CPU ${baseCpu.toFixed(0)} ms`,
        ratio: ms / base,
        pass: over <= c.goal,
      }
    })
  } finally {
    await emulator.close()
    rmSync(configDir, { recursive: true, force: true })
  }
}

function signed(ms) {
  return `${ms < 0 ? '−' : '+'}${Math.abs(ms).toFixed(0)}`
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

// Asynchronous on purpose: the emulator answering the API calls runs in this process.
function run(args, env, input) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(process.execPath, args, { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', 'pipe'] })
    if (input !== undefined) child.stdin.end(input)
    let stdout = ''
    let stderr = ''
    let cpu = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.stdio[3].on('data', (d) => (cpu += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      if (code !== 0) reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.trim()}`))
      else resolve({ ms, stdout, cpu: Number(cpu.trim()) })
    })
  })
}
