// The settlement report streams (issue 13, item 4, the emulator's side): the emulator's RSS while
// it sends a report of 1 000 000 entries (quick: 100 000) against its RSS with the store alone
// (after a full GC, just before each report), the time to the first byte, and a report of 5 000 000 entries (full runs
// only) that must arrive whole. The baseline is the same report of a store of 1 000 entries.
import { Agent, request } from 'node:http'
import { KEY, fmt, mib, rssOf, startChild, timed } from './lib/child.mjs'

async function seed(url, body) {
  const r = await timed(`${url}/__emulator/seed`, { method: 'POST', body, keep: true })
  if (r.status !== 200) throw new Error(`seed: ${r.status} ${r.text}`)
  return JSON.parse(r.text)
}

/** Downloads a report, dropping the bytes; samples the emulator's RSS every 10 ms meanwhile. */
function download(url, accept, pid) {
  return new Promise((resolve, reject) => {
    let peak = rssOf(pid)
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 10)
    const started = performance.now()
    let firstByteMs
    let bytes = 0
    let lines = 0
    let tail = ''
    const req = request(url, { agent: new Agent({ keepAlive: false }), headers: { authorization: `Bearer ${KEY}`, accept } }, (res) => {
      res.on('data', (chunk) => {
        firstByteMs ??= performance.now() - started
        bytes += chunk.length
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++
        tail = (tail + chunk.subarray(Math.max(0, chunk.length - 4096)).toString('latin1')).slice(-4096)
      })
      res.on('end', () => {
        clearInterval(sampler)
        peak = Math.max(peak, rssOf(pid))
        resolve({ status: res.statusCode, firstByteMs, ms: performance.now() - started, bytes, lines, tail, peak })
      })
      res.on('error', reject)
    })
    req.on('error', (error) => {
      clearInterval(sampler)
      reject(error)
    })
    req.end()
  })
}

export default async function bench(ctx) {
  const n = Number(process.env.BENCH_REPORT_ENTRIES ?? (ctx.quick ? 100_000 : 1_000_000))
  const huge = 5_000_000
  const rows = []
  const child = await startChild('emulator', { heapMb: 8192 })
  try {
    const small = await seed(child.url, { settlementEntries: 1000, days: 30 })
    const smallStore = await child.memory()
    const query = (s) => `currency=AUD&createdAfter=${s.from}&createdBefore=${new Date(Date.parse(s.to) + 1000).toISOString()}`
    const base = {
      json: await download(`${child.url}/transactions/settlement/report?${query(small)}`, 'application/json', child.pid),
      csv: await download(`${child.url}/transactions/settlement/report?${query(small)}`, 'text/csv', child.pid),
    }
    ctx.log(`emulator-report: seeding ${n} settlement entries …`)
    const seeded = await seed(child.url, { settlementEntries: n - 1000, days: 30 })
    const label = n.toLocaleString('en')
    for (const [format, accept] of [
      ['JSON', 'application/json'],
      ['CSV', 'text/csv'],
    ]) {
      // The store alone, just before this report (after a full GC): a report weighed against what
      // the process held after the one before would be off by whatever that one left or gave back.
      const store = await child.memory()
      const r = await download(`${child.url}/transactions/settlement/report?${query(seeded)}`, accept, child.pid)
      if (r.status !== 200) throw new Error(`report: status ${r.status}`)
      const over = mib(r.peak - store)
      const b = base[format.toLowerCase()]
      rows.push({
        figure: `emulator RSS over the store while sending a ${label}-entry ${format} report`,
        goal: '≤ 50 MiB',
        measured: `${fmt(over)} MiB (store ${fmt(mib(store), 0)} MiB, ${fmt(mib(r.bytes), 0)} MiB sent in ${fmt(r.ms / 1000, 2)} s)`,
        baseline: `${fmt(mib(b.peak - smallStore))} MiB at 1 000 entries`,
        ratio: null,
        pass: over <= 50,
      })
      rows.push({
        figure: `first byte of a ${label}-entry ${format} report`,
        goal: '≤ 50 ms',
        measured: `${fmt(r.firstByteMs)} ms`,
        baseline: `${fmt(b.firstByteMs)} ms at 1 000 entries`,
        ratio: Number((r.firstByteMs / b.firstByteMs).toFixed(2)),
        pass: r.firstByteMs <= 50,
      })
    }
    if (!ctx.quick) {
      ctx.log(`emulator-report: seeding up to ${huge} entries …`)
      const more = await seed(child.url, { settlementEntries: huge - n, days: 30 })
      // From the first seeding's start to the last one's end: every entry.
      const r = await download(`${child.url}/transactions/settlement/report?${query({ from: small.from, to: more.to })}`, 'application/json', child.pid)
      const count = Number(/"entryCount":(\d+)/.exec(r.tail)?.[1] ?? -1)
      rows.push({
        figure: 'a 5,000,000-entry JSON report arrives whole',
        goal: 'works (no size ceiling)',
        measured: `${count.toLocaleString('en')} entries, ${fmt(mib(r.bytes), 0)} MiB in ${fmt(r.ms / 1000, 1)} s, RSS peak ${fmt(mib(r.peak), 0)} MiB`,
        baseline: 'failed at 3.2M before ("Invalid string length")',
        ratio: null,
        pass: r.status === 200 && count === huge,
      })
    }
    return rows
  } finally {
    await child.close()
  }
}
