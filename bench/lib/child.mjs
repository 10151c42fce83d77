// Helpers of the emulator benchmarks: start a child server (emulator-child.mjs), read its RSS,
// time requests over one keep-alive connection, and take medians.
import { fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'

const CHILD = new URL('./emulator-child.mjs', import.meta.url).pathname

/** Starts a child server; resolves with { url, pid, memory(), close() }. */
export async function startChild(kind, { args = [], heapMb } = {}) {
  const execArgv = [
    '--expose-gc',
    ...(process.env.BENCH_CHILD_FLAGS ? process.env.BENCH_CHILD_FLAGS.split(' ') : []),
    ...(heapMb ? [`--max-old-space-size=${heapMb}`] : []),
  ]
  const child = fork(CHILD, [kind, ...args], { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const url = await new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m.url))
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the ${kind} child exited (${code})`)))
  })
  return {
    url,
    pid: child.pid,
    /** RSS in bytes after a full GC. */
    memory: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve(m.rss))
        child.send({ cmd: 'memory' })
      }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill()
      }),
  }
}

/** The current RSS of a process in bytes, from /proc (0 where there is no /proc). */
export function rssOf(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/** CPU time (user + system) a process has used so far, in microseconds, from /proc (0 where there is none). */
export function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    // utime and stime, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  } catch {
    return 0
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** One request; resolves with { status, ms, firstByteMs, bytes } (the body is read and dropped unless `keep`). */
export function timed(url, { method = 'GET', headers = {}, body, keep = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request(url, { method, agent, headers: { authorization: `Bearer ${KEY}`, ...headers } }, (res) => {
      const firstByteMs = performance.now() - started
      let bytes = 0
      const chunks = []
      res.on('data', (chunk) => {
        bytes += chunk.length
        if (keep) chunks.push(chunk)
      })
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          ms: performance.now() - started,
          firstByteMs,
          bytes,
          text: keep ? Buffer.concat(chunks).toString() : undefined,
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    if (body !== undefined) {
      req.setHeader('content-type', 'application/json')
      req.end(JSON.stringify(body))
    } else req.end()
  })
}

/** The merchant secret key of the emulator's well-known seed. */
export const KEY = 'sandbox_sk_emulatorMerchantSecret0001'

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** Median time (ms) of `runs` requests after one warm-up. */
export async function medianMs(url, runs, options) {
  await timed(url, options)
  const times = []
  for (let i = 0; i < runs; i++) {
    const r = await timed(url, options)
    if (r.status !== 200) throw new Error(`${url}: status ${r.status}`)
    times.push(r.ms)
  }
  return median(times)
}

/**
 * Median time (ms) the emulator itself spent on the last `runs` requests of a namespace, from its
 * request log (`durationMs`: routing, handler and JSON, without the socket and HTTP parsing).
 */
export async function emulatorMedianMs(base, runs, headers = {}) {
  const r = await timed(`${base}/__emulator/requests?limit=${runs}`, { headers, keep: true })
  return median(JSON.parse(r.text).map((entry) => entry.durationMs))
}

export const mib = (bytes) => bytes / (1024 * 1024)
export const fmt = (value, digits = 1) => (value === null || value === undefined ? '-' : Number(value).toFixed(digits))
