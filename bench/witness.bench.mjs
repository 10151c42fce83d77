// The second witness (src/cli/safety/witness.ts): what reading the service's records before a
// refund or a payout costs. Each round runs the command twice from a fresh config folder (a new
// runner: no journal), once with the witness and once with `--repeat-window 0` (no witness), in
// turn, each with an amount of its own so that nothing matches and both send. Figures: the
// requests the emulator answered per command (the goal: at most one more; the refund reuses the
// read its guard makes and the payout the list its journal snapshot makes, so none more), and
// the median wall time of each, against a local emulator running in this process.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url))

export default async function bench(ctx) {
  const rounds = ctx.quick ? 3 : 11
  const { startEmulator } = await import('../dist/emulator/index.js')
  const emulator = await startEmulator({ port: 0 })
  const folders = []
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'payfac-bench-witness-'))
    folders.push(dir)
    return {
      ...process.env,
      PAYFAC_BASE_URL: emulator.url,
      PAYFAC_API_KEY: emulator.credentials.merchantSecretKey,
      PAYFAC_CONFIG_DIR: dir,
      PAYFAC_REPEAT_WINDOW: '',
      NO_COLOR: '1',
    }
  }
  const log = emulator.app.namespaces.root.requests
  const lastSeq = () => log.last(1)[0]?.seq ?? 0
  /** Runs payfac once; returns its wall time and how many requests the emulator answered meanwhile. */
  const measured = async (args) => {
    const from = lastSeq()
    const { ms } = await run([BIN, ...args], fresh())
    return { ms, requests: log.last(100).filter((r) => r.seq > from).length }
  }
  try {
    const setup = fresh()
    const payfac = (...args) => run([BIN, ...args, '--json'], setup).then((r) => JSON.parse(r.stdout))
    const transactionId = await paidTransaction(payfac)
    await payfac(
      'api',
      'POST',
      '/simulation',
      '--data',
      JSON.stringify({ IncomingBankTransfer: { merchantId: emulator.ids.merchantId, amount: { minorCurrencyUnits: 10_000_00, currency: 'AUD' } } }),
    )
    ctx.log(`witness: ${rounds} rounds of 4 runs`)
    const cases = {
      refund: { args: (n) => ['transactions', 'refund', transactionId, '--amount', `1.${String(n).padStart(2, '0')}`], with: [], without: [] },
      payout: { args: (n) => ['payouts', 'request', '--amount', `2.${String(n).padStart(2, '0')}`, '--currency', 'AUD'], with: [], without: [] },
    }
    let n = 0
    for (let round = 0; round < rounds; round++) {
      for (const c of Object.values(cases)) {
        c.with.push(await measured(c.args(++n)))
        c.without.push(await measured([...c.args(++n), '--repeat-window', '0']))
      }
    }
    return Object.entries(cases).map(([name, c]) => {
      const withMs = median(c.with.map((s) => s.ms))
      const withoutMs = median(c.without.map((s) => s.ms))
      const extra = Math.max(...c.with.map((s) => s.requests)) - Math.min(...c.without.map((s) => s.requests))
      return {
        figure:
          name === 'refund'
            ? 'transactions refund from a fresh runner: the second witness (the refunds on the transaction)'
            : 'payouts request from a fresh runner: the second witness (the recent payouts)',
        goal: '≤ +1 request',
        measured: `${signed(extra)} requests (${c.with[0].requests} a command); ${withMs.toFixed(0)} ms`,
        baseline: `--repeat-window 0: ${c.without[0].requests} requests; ${withoutMs.toFixed(0)} ms`,
        ratio: withMs / withoutMs,
        pass: extra <= 1,
      }
    })
  } finally {
    await emulator.close()
    for (const dir of folders) rmSync(dir, { recursive: true, force: true })
  }
}

/** A PayTo payment of 1 000.00 AUD to refund from: agreement, approval (the clock moved on), token, order, pay. */
async function paidTransaction(payfac) {
  const agreement = await payfac(
    'api',
    'POST',
    '/payto/agreement',
    '--data',
    JSON.stringify({
      customerName: 'Bench Citizen',
      customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
      terms: { AgreementRequestTermsOneOff: { amount: { amount: 100_000, currency: 'AUD' } } },
      purpose: 'Witness bench',
    }),
  )
  await payfac('api', 'POST', '/simulation', '--data', JSON.stringify({ AdvanceClock: { seconds: 5 } }))
  const token = await payfac('tokens', 'create', '--payto', '--agreement', agreement.token, '--amount', '1000.00', '--currency', 'AUD')
  const order = await payfac('orders', 'create', '--amount', '1000.00', '--currency', 'AUD', '--reference', 'bench-witness')
  const paid = await payfac('orders', 'pay', order.orderId, '--token', token.paymentTokenId)
  return paid.transactionId
}

function signed(count) {
  return `${count < 0 ? '−' : '+'}${Math.abs(count)}`
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
      if (code !== 0) reject(new Error(`payfac ${args.slice(1).join(' ')} exited ${code}: ${stderr.trim()}`))
      else resolve({ ms, stdout })
    })
  })
}
