// Issue 14 item 1: `payfac settlement reconcile` over a busy merchant's month (100 000 settlement
// entries: 50 000 payments and their fees) does not hold the month in memory more than once: the
// entries are indexed once, amounts only, and everything else streams past. What payfac's peak
// RSS grows by over the same reconcile of an empty range must stay below the size of the month's
// settlement report as JSON (the month held once, in its most compact form).
//
//   npm run build && node bench/reconcile.bench.mjs [--quick]
//
// The emulator runs in this process (dist/emulator); the payments are made through its own
// operations (one open PayTo agreement, then a token, an order and a pay for each), in-process.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

function timed(args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, join(ROOT, 'bin/run.js'), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) =>
      resolve({ code, seconds: (performance.now() - started) / 1000, rssMib: Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1024, stderr }),
    )
  })
}

export default async function bench(ctx) {
  const payments = ctx.quick ? 5_000 : 50_000
  const { startEmulator } = await import('../dist/emulator/index.js')
  const emulator = await startEmulator({ port: 0 })
  const dir = mkdtempSync(join(tmpdir(), 'payfac-reconcile-bench-'))
  try {
    const app = emulator.app
    const ok = (answer) => {
      if (answer.status !== 200) throw new Error(JSON.stringify(answer.body))
      return answer.body
    }
    const from = new Date(app.clock.now().getTime() - 60_000).toISOString()
    const agreement = ok(
      app.request('POST', '/payto/agreement', {
        body: {
          customerName: 'Bench Customer',
          customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
          terms: { AgreementRequestTermsOpen: {} },
          purpose: 'Bench',
        },
      }),
    ).token
    app.clock.advance(5)
    const seeded = performance.now()
    for (let i = 0; i < payments; i++) {
      const amount = { minorCurrencyUnits: 500 + (i % 20_000), currency: 'AUD' }
      const token = ok(app.request('POST', '/tokens', { body: { CreatePayToToken: { amount, agreementToken: agreement } } })).PayToToken.paymentTokenId
      const order = ok(app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount, referenceOrderId: `bench-${i}` } } })).OnlineOrder.order.orderId
      ok(app.request('POST', `/orders/${order}/pay`, { body: { PayByPayTo: { paymentTokenId: token } } }))
    }
    const to = new Date(app.clock.now().getTime() + 60_000).toISOString()
    const report = ok(app.request('GET', `/transactions/settlement/report?currency=AUD&createdAfter=${from}&createdBefore=${to}`))
    const monthMib = Buffer.byteLength(JSON.stringify(report)) / 1048576
    ctx.log(
      `reconcile: ${payments} payments (${report.entries.length} entries, ${monthMib.toFixed(0)} MiB as JSON) made in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    )

    const env = {
      PAYFAC_BASE_URL: emulator.url,
      PAYFAC_API_KEY: emulator.credentials.merchantSecretKey,
      PAYFAC_CONFIG_DIR: dir,
      PAYFAC_PROFILE: '',
      NO_COLOR: '1',
    }
    const empty = await timed(['settlement', 'reconcile', '--currency', 'AUD', '--from', '2000-01-01', '--to', '2000-01-02', '--csv'], env)
    const run = await timed(['settlement', 'reconcile', '--currency', 'AUD', '--from', from, '--to', to, '--csv'], env)
    ctx.log(
      `reconcile: empty range ${empty.rssMib.toFixed(0)} MiB; the month: exit ${run.code} in ${run.seconds.toFixed(1)} s, peak RSS ${run.rssMib.toFixed(0)} MiB; ${run.stderr.split('\n')[0]}`,
    )
    const growth = run.rssMib - empty.rssMib
    return [
      {
        figure: `settlement reconcile, ${report.entries.length.toLocaleString('en')} entries: payfac peak RSS growth`,
        goal: '< the month as JSON, exit 0',
        measured: `+${growth.toFixed(0)} MiB (${run.rssMib.toFixed(0)} MiB, exit ${run.code}, ${run.seconds.toFixed(1)} s)`,
        baseline: `empty range ${empty.rssMib.toFixed(0)} MiB; month as JSON ${monthMib.toFixed(0)} MiB`,
        ratio: Number((growth / monthMib).toFixed(2)),
        pass: run.code === 0 && growth < monthMib,
      },
    ]
  } finally {
    await emulator.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await bench({ quick: process.argv.includes('--quick'), log: (line) => process.stderr.write(`${line}\n`) })
  for (const row of rows) process.stderr.write(`${JSON.stringify(row)}\n`)
}
