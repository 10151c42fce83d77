// Issue 13 item 4, the CLI side: `payfac settlement report --out` saves a 1 000 000-entry report
// in CSV and in JSON with payfac under 150 MiB RSS, at a throughput within 1.5× of curl saving
// the same report from the same emulator in the same run.
//
//   npm run build && npm run bench            (or: node bench/run.mjs, which discovers this module)
//
// The emulator runs in this process (dist/emulator). Its ledger is filled through its own
// operations: IncomingBankTransfer simulations, one settlement entry each, sent in-process
// (app.request), so the store is never touched directly. curl and payfac run as child processes
// under /usr/bin/time for their peak RSS; each pair runs back to back on the same report.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RSS_GOAL_MIB = 150
const RATIO_GOAL = 1.5

function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn('/usr/bin/time', ['-f', 'maxrss=%M', command, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000
      const rss = Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1024
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`))
      else resolve({ seconds, rssMib: rss })
    })
  })
}

export default async function bench(ctx) {
  const entries = ctx.quick ? 50_000 : 1_000_000
  const { startEmulator } = await import('../dist/emulator/index.js')
  const emulator = await startEmulator({ port: 0 })
  const dir = mkdtempSync(join(tmpdir(), 'payfac-report-bench-'))
  try {
    const merchantId = emulator.ids.merchantId
    const seeded = performance.now()
    for (let i = 0; i < entries; i++) {
      const answer = emulator.app.request('POST', '/simulation', {
        body: { IncomingBankTransfer: { merchantId, amount: { minorCurrencyUnits: 100 + (i % 9000), currency: 'AUD' }, description: `Bench transfer ${i}` } },
      })
      if (answer.status !== 200) throw new Error(`seeding failed at ${i}: ${JSON.stringify(answer.body)}`)
    }
    ctx.log(`settlement-report: seeded ${entries} entries in ${((performance.now() - seeded) / 1000).toFixed(1)} s`)

    const key = emulator.credentials.merchantSecretKey
    // The query payfac sends for --from 2000-01-01 --to 2100-01-01 (days as instants), so that the
    // report echoes the same range and the two files are the same size.
    const query = 'currency=AUD&createdAfter=2000-01-01T00:00:00.000Z&createdBefore=2100-01-01T00:00:00.000Z'
    const url = `${emulator.url}/transactions/settlement/report?${query}`
    const env = { PAYFAC_BASE_URL: emulator.url, PAYFAC_API_KEY: key, PAYFAC_CONFIG_DIR: dir, PAYFAC_PROFILE: '', NO_COLOR: '1' }
    const rows = []
    for (const format of ['csv', 'json']) {
      const accept = format === 'csv' ? 'text/csv' : 'application/json'
      const curlFile = join(dir, `curl.${format}`)
      const payfacFile = join(dir, `payfac.${format}`)
      const curl = await run('curl', ['-sS', '--fail', '-o', curlFile, '-H', `Authorization: Bearer ${key}`, '-H', `Accept: ${accept}`, url], {})
      const payfacArgs = [
        'bin/run.js',
        'settlement',
        'report',
        '--currency',
        'AUD',
        '--from',
        '2000-01-01',
        '--to',
        '2100-01-01',
        '--out',
        payfacFile,
        ...(format === 'csv' ? ['--csv'] : []),
      ]
      const payfac = await run(
        process.execPath,
        payfacArgs.map((a) => (a === 'bin/run.js' ? join(ROOT, a) : a)),
        env,
      )
      const bytes = statSync(payfacFile).size
      const same = bytes === statSync(curlFile).size
      ctx.log(
        `settlement-report ${format}: curl ${curl.seconds.toFixed(2)} s ${curl.rssMib.toFixed(0)} MiB; payfac ${payfac.seconds.toFixed(2)} s ${payfac.rssMib.toFixed(0)} MiB; ${(bytes / 1048576).toFixed(0)} MiB saved${same ? ', same size as curl' : ' (size differs from curl!)'}`,
      )
      const ratio = payfac.seconds / curl.seconds
      const label = `settlement report --out ${format.toUpperCase()}, ${entries.toLocaleString('en')} entries`
      rows.push({
        figure: `${label}: payfac peak RSS`,
        goal: `< ${RSS_GOAL_MIB} MiB`,
        measured: `${payfac.rssMib.toFixed(0)} MiB`,
        baseline: `curl ${curl.rssMib.toFixed(0)} MiB`,
        ratio: null,
        pass: payfac.rssMib < RSS_GOAL_MIB && same,
      })
      rows.push({
        figure: `${label}: time to save`,
        goal: `≤ ${RATIO_GOAL}× curl`,
        measured: `${payfac.seconds.toFixed(2)} s (${(bytes / 1048576 / payfac.seconds).toFixed(0)} MiB/s)`,
        baseline: `curl ${curl.seconds.toFixed(2)} s`,
        ratio: Number(ratio.toFixed(2)),
        pass: ratio <= RATIO_GOAL && same,
      })
    }
    return rows
  } finally {
    await emulator.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

// Run alone: node bench/settlement-report.bench.mjs [--quick]
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await bench({ quick: process.argv.includes('--quick'), log: (line) => process.stderr.write(`${line}\n`) })
  for (const row of rows) process.stderr.write(`${JSON.stringify(row)}\n`)
}
