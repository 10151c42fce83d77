// Bulk runs from a file (src/cli/bulk, issue 20; at wire pace, issue 32). Two figures:
//   1. 10 000 refunds from a CSV at --concurrency 8 against the emulator (in a child process),
//      against a plain node script with 8 requests in flight that makes the same two requests a
//      row as payfac (a read of the transaction, then the refund's PATCH) and keeps no journal,
//      makes no check. Goal ≤ 1.3×. The two run in turn, three rounds (one with --quick), each
//      payfac run from a fresh config folder; the figure is the median of each. Every one of the
//      10 000 transactions is paid 10.00 AUD; each round refunds another amount (the script 0.20,
//      0.30, 0.40; payfac 1.00, 1.50, 2.00), so that payfac's second witness does not take an
//      earlier round's refund for its own. Times are wall times of a fresh process, start-up
//      included. A row without a goal sets payfac against a script that only PATCHes (0.10 AUD),
//      the figure this bench used to compare with.
//   2. payfac's peak RSS (VmHWM) while `transactions refund --from-file --dry-run` checks
//      1 000 000 rows (the first row a real transaction, whose request it prints). Goal < 150 MiB.
// `--quick`: 1 000 refunds and 100 000 rows.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { KEY, startChild } from './lib/child.mjs'

const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url))

export default async function bench(ctx) {
  const refunds = ctx.quick ? 1_000 : 10_000
  const checkRows = ctx.quick ? 100_000 : 1_000_000
  const dir = mkdtempSync(join(tmpdir(), 'payfac-bench-bulk-'))
  const emulator = await startChild('emulator')
  try {
    ctx.log(`bulk: paying ${refunds} transactions of 10.00 AUD`)
    const ids = await paidTransactions(emulator.url, refunds)
    const env = {
      ...process.env,
      PAYFAC_BASE_URL: emulator.url,
      PAYFAC_API_KEY: KEY,
      PAYFAC_CONFIG_DIR: join(dir, 'config'),
      PAYFAC_REPEAT_WINDOW: '',
      NO_COLOR: '1',
      CI: '',
    }
    const idsFile = join(dir, 'ids.json')
    writeFileSync(idsFile, JSON.stringify(ids))
    const rounds = ctx.quick ? 1 : 3
    const plainMs = []
    const payfacMs = []
    for (let round = 0; round < rounds; round++) {
      ctx.log(`bulk: round ${round + 1}: the plain script, GET then PATCH, 8 in flight`)
      const plain = await run(
        [process.execPath, '--input-type=module', '-e', PLAIN, emulator.url, KEY, idsFile, 'get-then-patch', String(20 + 10 * round)],
        env,
      )
      plainMs.push(plain.ms)
      const amount = ['1.00', '1.50', '2.00'][round]
      const csv = join(dir, `refunds-${round}.csv`)
      writeFileSync(csv, `transactionId,amount,currency\n${ids.map((id) => `${id},${amount},AUD`).join('\n')}\n`)
      ctx.log(`bulk: round ${round + 1}: payfac transactions refund --from-file (${refunds} rows, --concurrency 8)`)
      const out = join(dir, `results-${round}.csv`)
      const payfac = await run([process.execPath, BIN, 'transactions', 'refund', '--from-file', csv, '--concurrency', '8', '--out', out], {
        ...env,
        PAYFAC_CONFIG_DIR: join(dir, `config-${round}`),
      })
      const done = readFileSync(out, 'utf8')
        .split('\n')
        .filter((line) => /^\d+,done,/.test(line)).length
      if (done !== refunds) throw new Error(`payfac refunded ${done} of ${refunds} rows: ${payfac.stderr.slice(-500)}`)
      payfacMs.push(payfac.ms)
      ctx.log(`bulk: round ${round + 1}: payfac ${(payfac.ms / 1000).toFixed(2)} s, plain ${(plain.ms / 1000).toFixed(2)} s`)
    }
    ctx.log('bulk: the plain script, PATCH only, 8 in flight')
    const patchOnly = await run([process.execPath, '--input-type=module', '-e', PLAIN, emulator.url, KEY, idsFile, 'patch', '10'], env)
    const payfacMedian = median(payfacMs)
    const plainMedian = median(plainMs)

    ctx.log(`bulk: --dry-run over ${checkRows} rows`)
    const big = join(dir, 'big.csv')
    await writeRows(big, ids[0], checkRows)
    const dry = await run([process.execPath, BIN, 'transactions', 'refund', '--from-file', big, '--dry-run'], env, { peak: true })
    return [
      {
        figure: `transactions refund --from-file: ${refunds} refunds at --concurrency 8 (wall time, median of ${rounds})`,
        goal: '≤ 1.3× the plain script making the same two requests a row',
        measured: `${(payfacMedian / 1000).toFixed(2)} s (${Math.round(refunds / (payfacMedian / 1000))} rows/s)`,
        baseline: `plain script, GET then PATCH, 8 in flight: ${(plainMedian / 1000).toFixed(2)} s`,
        ratio: payfacMedian / plainMedian,
        pass: payfacMedian / plainMedian <= 1.3,
      },
      {
        figure: `the same ${refunds} refunds against a plain script that only PATCHes (no read of the transaction)`,
        goal: '-',
        measured: `${(payfacMedian / 1000).toFixed(2)} s`,
        baseline: `plain script, PATCH only, 8 in flight: ${(patchOnly.ms / 1000).toFixed(2)} s`,
        ratio: payfacMedian / patchOnly.ms,
        pass: null,
      },
      {
        figure: `transactions refund --from-file --dry-run: peak RSS checking ${checkRows} rows`,
        goal: '< 150 MiB',
        measured: `${(dry.peak / 2 ** 20).toFixed(0)} MiB in ${(dry.ms / 1000).toFixed(1)} s`,
        baseline: '-',
        ratio: null,
        pass: dry.peak < 150 * 2 ** 20,
      },
    ]
  } finally {
    await emulator.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The baseline: each id read (with `get-then-patch`, as payfac reads it) and refunded by one PATCH
 * of `units` minor units, 8 in flight.
 */
const PLAIN = `
const [url, key, file, mode, units = '200'] = process.argv.slice(1)
const ids = JSON.parse(await (await import('node:fs/promises')).readFile(file, 'utf8'))
let next = 0
async function worker() {
  while (next < ids.length) {
    const id = ids[next++]
    if (mode === 'get-then-patch') {
      const read = await fetch(url + '/transactions/' + id, { headers: { authorization: 'Bearer ' + key } })
      await read.arrayBuffer()
    }
    const r = await fetch(url + '/transactions/' + id, { method: 'PATCH', headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' }, body: JSON.stringify({ CreateRefund: { refundAmount: Number(units) } }) })
    await r.arrayBuffer()
    if (!r.ok) throw new Error('refund of ' + id + ': ' + r.status)
  }
}
await Promise.all(Array.from({ length: 8 }, worker))
`

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** `count` transactions paid 10.00 AUD by PayTo (one open agreement), made 8 at a time. */
async function paidTransactions(url, count) {
  const call = async (method, path, body) => {
    const r = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    })
    const text = await r.text()
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`)
    return JSON.parse(text)
  }
  const amount = { minorCurrencyUnits: 1000, currency: 'AUD' }
  const agreement = await call('POST', '/payto/agreement', {
    customerName: 'Bench Citizen',
    customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
    terms: { AgreementRequestTermsOpen: {} },
    purpose: 'Bulk bench',
  })
  await call('POST', '/simulation', { AdvanceClock: { seconds: 5 } })
  const ids = new Array(count)
  let next = 0
  const worker = async () => {
    while (next < count) {
      const n = next++
      const token = await call('POST', '/tokens', { CreatePayToToken: { amount, agreementToken: agreement.token } })
      const order = await call('POST', '/orders', { CreateOnlineOrder: { referenceOrderId: `bench-bulk-${n}`, amount } })
      const paid = await call('POST', `/orders/${order.OnlineOrder.order.orderId}/pay`, { PayByPayTo: { paymentTokenId: token.PayToToken.paymentTokenId } })
      ids[n] = paid.PayOrderComplete.transactionId
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
  return ids
}

/** A CSV of `count` refund rows: the first on `first`, the others on well-formed ids of nothing. */
async function writeRows(file, first, count) {
  const out = createWriteStream(file)
  const write = (text) => (out.write(text) ? undefined : new Promise((resolve) => out.once('drain', resolve)))
  await write(`transactionId,amount,currency\n${first},1.00,AUD\n`)
  let chunk = ''
  for (let n = 1; n < count; n++) {
    chunk += `tran_bench${String(n).padStart(11, '0')},${(n % 500) + 1}.${String(n % 100).padStart(2, '0')},AUD\n`
    if (chunk.length > 65_536) {
      await write(chunk)
      chunk = ''
    }
  }
  await write(chunk)
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())))
}

/** Runs a process; wall time, and with `peak` its peak RSS (VmHWM, read every 20 ms). */
function run(args, env, { peak = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(args[0], args.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let highest = 0
    const timer = peak
      ? setInterval(() => {
          try {
            const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
            if (match) highest = Math.max(highest, Number(match[1]) * 1024)
          } catch {
            // Gone already.
          }
        }, 20)
      : undefined
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      if (timer) clearInterval(timer)
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      if (code !== 0) reject(new Error(`${args.slice(1, 4).join(' ')} … exited ${code}: ${stderr.trim().slice(-400)}`))
      else resolve({ ms, stdout, stderr, peak: highest })
    })
  })
}
