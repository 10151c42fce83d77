// Lists stream: peak memory of `payfac orders list --all --json` for growing numbers of records,
// served page by page by a local server that makes records on the fly (so only the CLI holds
// memory). Flat figures mean memory does not grow with the number of records.
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'

const BIN = new URL('../bin/run.js', import.meta.url).pathname

function pagedServer(total) {
  return createServer((req, res) => {
    const url = new URL(req.url, 'http://x')
    const limit = Number(url.searchParams.get('limit') ?? 20)
    const page = Number(url.searchParams.get('page') ?? 1)
    const pageCount = Math.ceil(total / limit)
    const first = (page - 1) * limit
    const items = []
    for (let i = first; i < Math.min(total, first + limit); i++) {
      items.push({
        orderId: `ordr_${String(i).padStart(16, '0')}`,
        merchantId: 'mcht_LocalMerchant001',
        referenceOrderId: `ref-${i}`,
        amount: { minorCurrencyUnits: 1000 + (i % 5000), currency: 'AUD' },
        description: 'Streaming benchmark order',
        createdAt: '2026-11-21T10:00:00.000Z',
        updatedAt: '2026-11-21T10:00:00.000Z',
      })
    }
    res.writeHead(200, { 'content-type': 'application/json', 'page-count': String(pageCount), 'total-record-count': String(total) })
    res.end(JSON.stringify(items))
  })
}

function peakRss(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let bytes = 0
    let stderr = ''
    child.stdout.on('data', (d) => (bytes += d.length))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`exit ${code}: ${stderr}`))
      const kb = Number(stderr.trim().split('\n').at(-1))
      resolve({ bytes, peakMiB: kb / 1024 })
    })
  })
}

export async function streamingBench(sizes = [1_000, 10_000, 100_000]) {
  const rows = []
  for (const total of sizes) {
    const server = pagedServer(total)
    await new Promise((ok) => server.listen(0, '127.0.0.1', ok))
    const env = {
      ...process.env,
      PAYFAC_BASE_URL: `http://127.0.0.1:${server.address().port}`,
      PAYFAC_API_KEY: 'sandbox_sk_benchKey000000000000',
      NO_COLOR: '1',
    }
    try {
      for (const format of ['--json', '--csv']) {
        const start = Date.now()
        const { bytes, peakMiB } = await peakRss(['orders', 'list', '--all', '--limit', '500', format], env)
        rows.push({
          records: total,
          format,
          'output MiB': (bytes / 1048576).toFixed(1),
          'peak RSS MiB': peakMiB.toFixed(1),
          seconds: ((Date.now() - start) / 1000).toFixed(1),
        })
      }
    } finally {
      await new Promise((ok) => server.close(ok))
    }
  }
  return rows
}
