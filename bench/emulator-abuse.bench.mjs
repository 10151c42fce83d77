// The emulator under the abuse of issue 11: twenty orders of 11 MB strings and one body nested
// 5 000 deep, sent to `payfac emulator start` (from dist/, in a process of its own). Figures: the
// emulator's resident memory before and after, and whether lists still answer afterwards.
// Before the body limits, the same abuse took the emulator from 174 MB to 1.1 GB, and the deep
// body made every later GET /orders answer 500.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const KEY = 'sandbox_sk_emulatorMerchantSecret0001'
const GROWTH_GOAL_MB = 100

/** Resident memory of a process in MB (Linux); null elsewhere. */
function rssMb(pid) {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) / 1024 : null
  } catch {
    return null
  }
}

export default async function bench(ctx) {
  const orders = ctx.quick ? 4 : 20
  const child = spawn(process.execPath, [join(ROOT, 'bin/run.js'), 'emulator', 'start', '--port', '0', '--json'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  try {
    const first = await new Promise((resolve, reject) => {
      child.once('error', reject)
      child.stdout.once('data', (chunk) => resolve(String(chunk).split('\n')[0]))
    })
    const { baseUrl } = JSON.parse(first)
    const post = async (body, type) => {
      const response = await fetch(`${baseUrl}/orders`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': type }, body })
      await response.arrayBuffer()
      return response.status
    }
    await post(JSON.stringify({ CreateOnlineOrder: { amount: { minorCurrencyUnits: 100, currency: 'AUD' } } }), 'application/json')
    const before = rssMb(child.pid)
    const big = JSON.stringify({ CreateOnlineOrder: { amount: { minorCurrencyUnits: 100, currency: 'AUD' }, description: 'x'.repeat(11 * 1024 * 1024) } })
    const statuses = new Set()
    for (let i = 0; i < orders; i++) statuses.add(await post(big, i % 2 === 0 ? 'application/json' : 'application/x-www-form-urlencoded'))
    const deep = `{"CreateOnlineOrder":{"amount":{"minorCurrencyUnits":100,"currency":"AUD"},"metadata":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`
    const deepStatus = await post(deep, 'application/json')
    const list = await fetch(`${baseUrl}/orders`, { headers: { authorization: `Bearer ${KEY}` } })
    await list.arrayBuffer()
    const after = rssMb(child.pid)
    ctx.log(`emulator-abuse: ${orders} orders of 11 MB answered ${[...statuses].join(', ')}; the deep body ${deepStatus}; GET /orders ${list.status}`)
    const growth = before === null || after === null ? null : after - before
    return [
      {
        figure: `emulator RSS after ${orders} orders of 11 MB and one body 5 000 deep`,
        goal: `bounded: grows < ${GROWTH_GOAL_MB} MB`,
        measured: growth === null ? 'n/a (no /proc)' : `+${growth.toFixed(0)} MB (${before.toFixed(0)} → ${after.toFixed(0)} MB)`,
        baseline: '174 MB → 1.1 GB (issue 11, 20 orders)',
        ratio: growth === null ? null : Number((growth / (1100 - 174)).toFixed(3)),
        pass: growth === null ? null : growth < GROWTH_GOAL_MB,
      },
      {
        figure: 'GET /orders after a body nested 5 000 deep',
        goal: '200 (the deep body refused with 400 before it is stored)',
        measured: `${list.status} (deep body: ${deepStatus})`,
        baseline: '500 on every later list',
        ratio: null,
        pass: list.status === 200 && deepStatus === 400,
      },
    ]
  } finally {
    child.kill('SIGTERM')
  }
}
