// `--all` at the wire's pace (issue 13 item 2). Three figures, each with its baseline measured in
// the same run:
//
//   1. wall time of `payfac orders list --all --csv` against the emulator holding N orders (100 000;
//      10 000 with ctx.quick), against a plain script with four `fetch` calls in flight at
//      limit=500 over the same emulator, writing the same CSV;
//   2. client CPU (user + system, from /usr/bin/time) of the same two against a node:http server
//      that does not sort: canned pages, so that the figure is the client's alone;
//   3. peak RSS of payfac over 1 000 000 records (100 000 with ctx.quick) from a server that makes
//      the pages on the fly;
//   4. the same CPU and memory goals for `--all --jsonl` (JSON Lines): client CPU over the canned
//      100 000 records against the plain script, and peak RSS over the records of figure 3.
//
// The emulator and the canned servers run in this process on 127.0.0.1, port 0; payfac and the
// plain script run as child processes with stdout piped here (records are counted). Orders are
// seeded in process before anything is timed, through the emulator's bulk seeding
// (`POST /__emulator/seed`, what `payfac emulator seed --orders N` sends).
//
//   npm run build && node -e "import('./bench/lists.bench.mjs').then(async (m) => console.table(await m.default({ quick: false, log: console.error })))"
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { startEmulator } from '../dist/emulator/index.js'

const BIN = new URL('../bin/run.js', import.meta.url).pathname
const TIME = '/usr/bin/time'

/** The plain script: four `fetch` calls in flight at limit=500, each record flattened to a CSV row in page order. */
const PLAIN = `
const [base, key] = process.argv.slice(2)
const headers = { authorization: 'Bearer ' + key, accept: 'application/json' }
const once = (page) => fetch(base + '/orders?limit=500&page=' + page, { headers }).then(async (r) => ({ pageCount: Number(r.headers.get('page-count')), items: await r.json() }))
// Like any client worth the name, it tries a page again after a dropped keep-alive connection.
const get = (page, tries = 3) => once(page).catch((error) => (tries > 1 ? get(page, tries - 1) : Promise.reject(error)))
const flat = (value, prefix, out) => {
  for (const k in value) {
    const v = value[k]
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flat(v, prefix + k + '.', out)
    else out[prefix + k] = v
  }
  return out
}
const cell = (v) => { if (v === undefined || v === null) return ''; const s = typeof v === 'object' ? JSON.stringify(v) : String(v); return /[",\\n\\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s }
let columns
const write = (items) => {
  let text = ''
  for (const item of items) {
    const row = flat(item, '', {})
    if (!columns) { columns = Object.keys(row); text += columns.join(',') + '\\n' }
    text += columns.map((c) => cell(row[c])).join(',') + '\\n'
  }
  return new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once('drain', resolve)))
}
const first = await get(1)
const inFlight = new Map()
let next = 2
const fill = () => { while (inFlight.size < 4 && next <= first.pageCount) { inFlight.set(next, get(next)); next++ } }
fill()
await write(first.items)
for (let page = 2; page <= first.pageCount; page++) {
  const got = await inFlight.get(page)
  inFlight.delete(page)
  fill()
  await write(got.items)
}
`

function order(i) {
  return {
    orderId: `ordr_${String(i).padStart(16, '0')}`,
    merchantId: 'mcht_LocalMerchant001',
    referenceOrderId: `ref-${i}`,
    orderType: 'online',
    status: 'created',
    amount: { minorCurrencyUnits: 1000 + (i % 5000), currency: 'AUD' },
    description: 'Benchmark order',
    metadata: { channel: 'bench' },
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
  }
}

/** A server that does not sort: page bodies built once (canned) or on the fly (`lazy`). */
async function pageServer(total, lazy) {
  const limitOf = (url) => Number(url.searchParams.get('limit') ?? 20)
  const body = (page, limit) => {
    const items = []
    for (let i = (page - 1) * limit; i < Math.min(total, page * limit); i++) items.push(order(i))
    return JSON.stringify(items)
  }
  const canned = new Map()
  if (!lazy) for (let page = 1; page <= Math.ceil(total / 500); page++) canned.set(page, body(page, 500))
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x')
    const limit = limitOf(url)
    const page = Number(url.searchParams.get('page') ?? 1)
    const text = !lazy && limit === 500 ? (canned.get(page) ?? '[]') : body(page, limit)
    res.writeHead(200, { 'content-type': 'application/json', 'page-count': String(Math.ceil(total / limit)), 'total-record-count': String(total) })
    res.end(text)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) }
}

/** Runs node with `args` under /usr/bin/time: wall ms, CPU s (user + system), peak RSS MiB, stdout lines. */
function measure(args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(TIME, ['-f', '%U %S %M', process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let lines = 0
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
    })
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const wallMs = performance.now() - started
      const last = stderr.trim().split('\n').at(-1) ?? ''
      const [user, system, kb] = last.split(' ').map(Number)
      if (code !== 0) return reject(new Error(`${args.slice(0, 4).join(' ')} exited ${code}: ${stderr.slice(0, 400)}`))
      resolve({ wallMs, cpuS: user + system, rssMiB: kb / 1024, lines })
    })
  })
}

/** N orders through the emulator's bulk seeding (`POST /__emulator/seed`, as `payfac emulator seed --orders N`). */
function seedOrders(app, count) {
  const answer = app.request('POST', '/__emulator/seed', { body: { orders: count } })
  if (answer.status !== 200) throw new Error(`seeding ${count} orders answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`)
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const fmt = (n, digits = 1) => n.toFixed(digits)

export default async function bench(ctx = { quick: false, log: () => {} }) {
  const log = ctx.log ?? (() => {})
  const rows = []
  const configDir = mkdtempSync(join(tmpdir(), 'payfac-bench-lists-'))
  const plainPath = join(configDir, 'plain.mjs')
  writeFileSync(plainPath, PLAIN)
  const runs = ctx.quick ? 1 : 3
  const envFor = (url, key) => ({ ...process.env, PAYFAC_BASE_URL: url, PAYFAC_API_KEY: key, PAYFAC_CONFIG_DIR: configDir, NO_COLOR: '1', PAYFAC_PROFILE: '' })
  try {
    // 1. Wall time against the emulator.
    const orders = ctx.quick ? 10_000 : 100_000
    const emulator = await startEmulator({ port: 0 })
    try {
      log(`lists: seeding ${orders} orders in the emulator`)
      seedOrders(emulator.app, orders)
      const key = emulator.credentials.merchantSecretKey
      const env = envFor(emulator.url, key)
      const payfac = []
      const plain = []
      for (let run = 0; run < runs; run++) {
        const p = await measure([plainPath, emulator.url, key], env)
        const c = await measure([BIN, 'orders', 'list', '--all', '--csv'], env)
        if (c.lines !== p.lines) throw new Error(`payfac printed ${c.lines} lines, the plain script ${p.lines}`)
        plain.push(p.wallMs)
        payfac.push(c.wallMs)
        log(`lists: emulator run ${run + 1}: payfac ${fmt(c.wallMs / 1000)} s, plain ${fmt(p.wallMs / 1000)} s`)
      }
      const ratio = median(payfac) / median(plain)
      rows.push({
        figure: `orders list --all --csv, emulator with ${orders.toLocaleString('en')} orders (wall, median of ${runs})`,
        goal: '≤ 1.2× plain fetch ×4 at limit=500',
        measured: `${fmt(median(payfac) / 1000, 2)} s`,
        baseline: `${fmt(median(plain) / 1000, 2)} s`,
        ratio: Number(ratio.toFixed(2)),
        pass: ratio <= 1.2,
      })
    } finally {
      await emulator.close()
    }

    // 2. Client CPU against a server that does not sort.
    const records = 100_000
    const canned = await pageServer(records, false)
    try {
      const env = envFor(canned.url, 'sandbox_sk_benchKey000000000000')
      const payfac = []
      const plain = []
      for (let run = 0; run < runs; run++) {
        const p = await measure([plainPath, canned.url, 'sandbox_sk_benchKey000000000000'], env)
        const c = await measure([BIN, 'orders', 'list', '--all', '--csv'], env)
        if (c.lines !== records + 1 || p.lines !== records + 1) throw new Error(`expected ${records + 1} lines, got payfac ${c.lines}, plain ${p.lines}`)
        plain.push(p.cpuS)
        payfac.push(c.cpuS)
        log(`lists: canned run ${run + 1}: payfac ${fmt(c.cpuS, 2)} s CPU, plain ${fmt(p.cpuS, 2)} s CPU`)
      }
      const ratio = median(payfac) / median(plain)
      rows.push({
        figure: `orders list --all --csv, ${records.toLocaleString('en')} records from a server that does not sort (client CPU, median of ${runs})`,
        goal: '≤ 1.5× plain fetch ×4 at limit=500',
        measured: `${fmt(median(payfac), 2)} s`,
        baseline: `${fmt(median(plain), 2)} s`,
        ratio: Number(ratio.toFixed(2)),
        pass: ratio <= 1.5,
      })
    } finally {
      await canned.close()
    }

    // 3. Peak RSS over a million records.
    const many = ctx.quick ? 100_000 : 1_000_000
    const lazy = await pageServer(many, true)
    try {
      const env = envFor(lazy.url, 'sandbox_sk_benchKey000000000000')
      const c = await measure([BIN, 'orders', 'list', '--all', '--csv'], env)
      const p = await measure([plainPath, lazy.url, 'sandbox_sk_benchKey000000000000'], env)
      if (c.lines !== many + 1) throw new Error(`expected ${many + 1} lines, got ${c.lines}`)
      log(`lists: ${many} records: payfac peak ${fmt(c.rssMiB)} MiB, plain ${fmt(p.rssMiB)} MiB`)
      rows.push({
        figure: `orders list --all --csv, ${many.toLocaleString('en')} records (peak RSS)`,
        goal: '< 150 MiB',
        measured: `${fmt(c.rssMiB)} MiB`,
        baseline: `${fmt(p.rssMiB)} MiB (plain script)`,
        ratio: Number((c.rssMiB / p.rssMiB).toFixed(2)),
        pass: c.rssMiB < 150,
      })
    } finally {
      await lazy.close()
    }

    // 4. --jsonl: client CPU against the canned server, peak RSS over `many` records made on the fly.
    const cannedAgain = await pageServer(records, false)
    const lazyAgain = await pageServer(many, true)
    try {
      const key = 'sandbox_sk_benchKey000000000000'
      const payfac = []
      const plain = []
      for (let run = 0; run < runs; run++) {
        const p = await measure([plainPath, cannedAgain.url, key], envFor(cannedAgain.url, key))
        const c = await measure([BIN, 'orders', 'list', '--all', '--jsonl'], envFor(cannedAgain.url, key))
        if (c.lines !== records) throw new Error(`expected ${records} JSON lines, got ${c.lines}`)
        plain.push(p.cpuS)
        payfac.push(c.cpuS)
        log(`lists: canned --jsonl run ${run + 1}: payfac ${fmt(c.cpuS, 2)} s CPU, plain ${fmt(p.cpuS, 2)} s CPU`)
      }
      const big = await measure([BIN, 'orders', 'list', '--all', '--jsonl'], envFor(lazyAgain.url, key))
      if (big.lines !== many) throw new Error(`expected ${many} JSON lines, got ${big.lines}`)
      log(`lists: ${many} records --jsonl: payfac peak ${fmt(big.rssMiB)} MiB`)
      const ratio = median(payfac) / median(plain)
      rows.push({
        figure: `orders list --all --jsonl: client CPU over ${records.toLocaleString('en')} records (median of ${runs}); peak RSS over ${many.toLocaleString('en')}`,
        goal: '≤ 1.5× plain fetch ×4 (CSV) CPU; < 150 MiB',
        measured: `${fmt(median(payfac), 2)} s CPU; ${fmt(big.rssMiB)} MiB`,
        baseline: `${fmt(median(plain), 2)} s CPU`,
        ratio: Number(ratio.toFixed(2)),
        pass: ratio <= 1.5 && big.rssMiB < 150,
      })
    } finally {
      await cannedAgain.close()
      await lazyAgain.close()
    }
  } finally {
    rmSync(configDir, { recursive: true, force: true })
  }
  return rows
}
