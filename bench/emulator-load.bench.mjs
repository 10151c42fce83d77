// The emulator under load (issue 13, item 5): GET /orders/{id} requests per second, measured with
// autocannon (10 connections), against a bare node:http server that answers every request with
// the same order's bytes, both in child processes of this run. Then the emulator's memory over
// 1 000 000 such requests (quick: 50 000): its RSS after a full GC at the start and at the end.
// The CPU time each server spent a request is shown beside the rates: it moves less than the
// rates when other work shares the machine (autocannon itself takes most of one core).
import autocannon from 'autocannon'
import { KEY, cpuOf, fmt, mib, startChild, timed } from './lib/child.mjs'

function cannon(url, options) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: 10, headers: { authorization: `Bearer ${KEY}` }, ...options }, (error, result) => (error ? reject(error) : resolve(result)))
  })
}

export default async function bench(ctx) {
  const seconds = ctx.quick ? 3 : 10
  const total = ctx.quick ? 50_000 : 1_000_000
  const emulator = await startChild('emulator')
  let bare
  try {
    const created = await timed(`${emulator.url}/orders`, {
      method: 'POST',
      body: { CreateOnlineOrder: { amount: { minorCurrencyUnits: 1250, currency: 'AUD' }, referenceOrderId: 'bench-load' } },
      keep: true,
    })
    const order = JSON.parse(created.text).OnlineOrder.order
    const path = `/orders/${order.orderId}`
    const answer = await timed(`${emulator.url}${path}`, { keep: true })
    bare = await startChild('bare', { args: [answer.text] })
    ctx.log(`emulator-load: ${seconds} s of autocannon on each server …`)
    await cannon(`${bare.url}${path}`, { duration: 1 })
    await cannon(`${emulator.url}${path}`, { duration: 1 })
    const bareCpu = cpuOf(bare.pid)
    const bareResult = await cannon(`${bare.url}${path}`, { duration: seconds })
    const bareUs = (cpuOf(bare.pid) - bareCpu) / bareResult.requests.total
    const emulatorCpu = cpuOf(emulator.pid)
    const emulatorResult = await cannon(`${emulator.url}${path}`, { duration: seconds })
    const emulatorUs = (cpuOf(emulator.pid) - emulatorCpu) / emulatorResult.requests.total
    const rate = emulatorResult.requests.average
    const bareRate = bareResult.requests.average
    const errors = emulatorResult.errors + emulatorResult.non2xx

    ctx.log(`emulator-load: ${total} requests for the memory figure …`)
    const before = await emulator.memory()
    const long = await cannon(`${emulator.url}${path}`, { amount: total })
    const after = await emulator.memory()
    return [
      {
        figure: 'emulator GET /orders/{id}, requests per second (autocannon, 10 connections)',
        goal: '≥ 0.3 × bare node:http',
        measured: `${Math.round(rate)} req/s${errors ? ` (${errors} errors)` : ''}; ${fmt(emulatorUs, 0)} µs CPU a request`,
        baseline: `${Math.round(bareRate)} req/s bare node:http; ${fmt(bareUs, 0)} µs CPU a request`,
        ratio: Number((rate / bareRate).toFixed(2)),
        pass: rate >= 0.3 * bareRate && errors === 0,
      },
      {
        figure: `emulator RSS after ${total.toLocaleString('en')} GET /orders/{id} (after GC)`,
        goal: 'flat',
        measured: `${fmt(mib(after))} MiB (${fmt(mib(after - before), 1)} MiB more; ${long.non2xx + long.errors} failed)`,
        baseline: `${fmt(mib(before))} MiB before`,
        ratio: Number((after / before).toFixed(2)),
        pass: after - before < 10 * 1024 * 1024 && long.non2xx + long.errors === 0,
      },
    ]
  } finally {
    await bare?.close()
    await emulator.close()
  }
}
