// Inputs that never end or never answer, and signals meanwhile (each case failed before its fix):
// - a signal while a read holds one of libuv's threads (stdin redirected from a device whose read
//   waits in the kernel, such as /dev/kmsg; a file on a mount that stopped answering) printed
//   "Interrupted" and never ended: exiting waits for that thread. Reproduced with a real
//   blocked thread (the open of a FIFO that has no writer) under payfac's own stdin reader;
// - SIGHUP (the terminal closed, `kill -HUP`) was not handled: payfac died at once, leaving its
//   credential command's process group running (its own session, so the hang-up never reached
//   it) and its temporary files behind;
// - a JSON settlement report whose entry, or whose part outside the entries (the summary), never
//   ends was gathered without a bound: past 1 GiB in seconds, then exit 1 ("Invalid string
//   length", "a bug in payfac"), each chunk copying all that came before, so that a signal took
//   seconds to be heard;
// - the same report read for the opening balance of `settlement reconcile` was exit 1 ("a bug in
//   payfac") when an entry nested too deep or had no amount: the service's fault, exit 7;
// - a list printed into a pipe whose reader stopped reading (`| ssh …` stalled, a pager paused)
//   did not end on SIGTERM or Ctrl-C: the first signal stops a list at a record boundary, and the
//   list then waited for the reader to take what was written, for ever.
// The time limit below is only how long a case may take before it counts as hung.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type HostileRoute, type HostileService, answer, startHostileService } from '../helpers/hostile-service.js'
import { BIN } from '../helpers/spawn-cli.js'

const PEAK_RSS = resolve(__dirname, '../helpers/peak-rss.cjs')
const MEMORY_LIMIT_KIB = 200 * 1024

const DIST = resolve(__dirname, '../../dist')
/** How long a case may run before it counts as hung (not a measured figure; inside the tests' own limit). */
const HUNG_MS = 100_000

/** payfac's environment against a test service at `url`, with a config folder of `folder` under the work folder. */
function cliEnv(url: string, folder = 'config'): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NO_COLOR: '1',
    PAYFAC_BASE_URL: url,
    PAYFAC_API_KEY: 'sandbox_sk_hostileInputs00000001',
    PAYFAC_CONFIG_DIR: join(work, folder),
    PAYFAC_PROFILE: '',
  }
}

let work: string

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'payfac-hostile-adversary-'))
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

interface Ended {
  code: number | null
  signal: NodeJS.Signals | null
  stderr: string
}

/** Runs `source` (an ES module) with node; resolves once stderr holds `ready`, then when it ends. */
function runScript(source: string, ready: RegExp): { child: ChildProcess; ready: Promise<void>; done: Promise<Ended> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  let onReady: () => void = () => undefined
  const isReady = new Promise<void>((resolve) => (onReady = resolve))
  child.stderr?.on('data', (d) => {
    stderr += d
    if (ready.test(stderr)) onReady()
  })
  const hung = setTimeout(() => child.kill('SIGKILL'), HUNG_MS)
  const done = once(child, 'close').then(([code, signal]) => {
    clearTimeout(hung)
    return { code, signal, stderr } as Ended
  })
  return { child, ready: Promise.race([isReady, done.then(() => Promise.reject(new Error(`ended before it was ready: ${stderr}`)))]), done }
}

describe('a signal while a read holds one of libuv threads', () => {
  it.each([['SIGTERM'], ['SIGINT']] as const)(
    '%s ends payfac (clean-ups run, then the signal itself ends it), not "Interrupted" and no exit',
    async (signal) => {
      const fifo = join(work, `fifo-${signal}`)
      execFileSync('mkfifo', [fifo])
      const module = (path: string) => JSON.stringify(pathToFileURL(join(DIST, path)).href)
      const source = `
      import { createReadStream } from 'node:fs'
      const { addCleanup, installSignalHandling } = await import(${module('cli/runtime/signals.js')})
      const { readStdinBounded } = await import(${module('cli/files/bounded-input.js')})
      installSignalHandling(process)
      addCleanup(() => process.stderr.write('cleaned up\\n'))
      // A ReadStream, as process.stdin is when stdin is a file or a device: its open of a FIFO
      // with no writer waits in one of libuv's threads, as a read of /dev/kmsg does.
      const reading = readStdinBounded({ flag: '--data -', limit: 1024, what: 'a request body' }, createReadStream(${JSON.stringify(fifo)}))
      setImmediate(() => process.stderr.write('reading\\n'))
      await reading
    `
      const run = runScript(source, /reading/)
      await run.ready
      run.child.kill(signal)
      const ended = await run.done
      expect(ended.signal, ended.stderr).toBe(signal)
      expect(ended.stderr).toContain('cleaned up')
      expect(ended.stderr).toContain(`Interrupted (${signal}).`)
    },
  )
})

/** Whether `pid` runs (a zombie does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return process.platform !== 'linux'
  }
}

/** Resolves once none of `pids` runs (a SIGKILL is delivered, not awaited); the test's time-out guards a hang. */
async function gone(pids: number[]): Promise<number[]> {
  while (pids.some(alive)) await new Promise((resolve) => setImmediate(resolve))
  return pids.filter(alive)
}

describe('SIGHUP while a credential command runs', () => {
  it('ends payfac with 129 after its clean-ups, and the command with everything it started', async () => {
    const script = join(work, 'vault-hup.sh')
    writeFileSync(script, ['#!/bin/sh', "trap '' TERM HUP", 'sleep 1000 &', 'echo "vault $$ $!" >&2', 'wait', ''].join('\n'), { mode: 0o700 })
    const child = spawn(process.execPath, [BIN, 'orders', 'list'], {
      env: {
        ...process.env,
        NO_COLOR: '1',
        PAYFAC_BASE_URL: 'http://127.0.0.1:9',
        PAYFAC_API_KEY: '',
        PAYFAC_CONFIG_DIR: join(work, 'config'),
        PAYFAC_PROFILE: '',
        PAYFAC_CREDENTIAL_COMMAND: script,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    const pids = new Promise<number[]>((resolve) =>
      child.stderr?.on('data', (d) => {
        stderr += d
        const started = /vault (\d+) (\d+)/.exec(stderr)
        if (started) resolve([Number(started[1]), Number(started[2])])
      }),
    )
    const hung = setTimeout(() => child.kill('SIGKILL'), HUNG_MS)
    // 'exit', not 'close': the command holds payfac's stderr, which stays open while it runs.
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
    const closed = once(child, 'close')
    const started = await pids
    child.kill('SIGHUP')
    const [code, signal] = await exited
    expect({ code, signal }, stderr).toEqual({ code: 129, signal: null })
    expect(await gone(started)).toEqual([])
    await closed
    clearTimeout(hung)
    expect(stderr).toContain('Interrupted (SIGHUP).')
  })
})

/** `prefix`, then 64 KiB chunks of `a` for as long as the client reads. */
const endlessAfter =
  (prefix: string): HostileRoute =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write(prefix)
    const chunk = Buffer.alloc(65_536, 'a')
    let open = true
    res.on('close', () => (open = false))
    const pump = () => {
      while (open) if (!res.write(chunk)) return void res.once('drain', pump)
    }
    pump()
  }

describe('a JSON settlement report that never ends inside an entry or its summary', () => {
  let entry: HostileService
  let summary: HostileService
  beforeAll(async () => {
    entry = await startHostileService({ '/transactions/settlement/report': endlessAfter('{"entries":[{"entryId":"se_1","note":"') })
    summary = await startHostileService({ '/transactions/settlement/report': endlessAfter('{"entries":[],"summary":{"note":"') })
  })
  afterAll(async () => {
    await entry.close()
    await summary.close()
  })

  it.each([
    ['an endless entry, --jsonl', () => entry, ['--jsonl'], /an entry of the report is longer than 1 MiB/],
    ['an endless summary, --jsonl', () => summary, ['--jsonl'], /the report outside its entries is longer than 16 MiB/],
    ['an endless summary, a table', () => summary, [], /the report outside its entries is longer than 16 MiB/],
  ] as const)('%s: exit 7 naming the bound, memory under 200 MiB', async (_name, service, extra, message) => {
    const peakFile = join(work, `peak-${extra.length}-${message.source.length}`)
    const child = spawn(process.execPath, [BIN, 'settlement', 'report', '--currency', 'AUD', '--from', '2026-11-01', '--to', '2026-11-08', ...extra], {
      env: { ...cliEnv(service().url), NODE_OPTIONS: `--require ${PEAK_RSS}`, PAYFAC_TEST_PEAK_RSS_FILE: peakFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d) => (stdout += d))
    child.stderr?.on('data', (d) => (stderr += d))
    const hung = setTimeout(() => child.kill('SIGKILL'), HUNG_MS)
    const [code] = await once(child, 'close')
    clearTimeout(hung)
    expect(code, stderr).toBe(7)
    expect(stderr).toMatch(message)
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(stdout).toBe('')
    expect(Number(readFileSync(peakFile, 'utf8'))).toBeLessThan(MEMORY_LIMIT_KIB)
  })
})

describe('the settlement report behind the opening balance of settlement reconcile', () => {
  const MERCHANT = 'mcht_AAAAAAAAAAAAAAAA'
  const json =
    (body: unknown, total?: number): HostileRoute =>
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(total === undefined ? {} : { 'page-count': '1', 'total-record-count': String(total) }) })
      res.end(JSON.stringify(body))
    }
  /** A service with no entries in the period, one merchant, and `history` as the report of the entries before it. */
  const service = (history: string) =>
    startHostileService({
      '/transactions/settlement': json([], 0),
      '/transactions': json([], 0),
      '/transactions/refunds': json([], 0),
      '/transactions/payouts': json([], 0),
      '/merchants': json([{ merchantId: MERCHANT, name: 'M' }], 1),
      [`/merchants/${MERCHANT}`]: json({ merchantId: MERCHANT, name: 'M', createdAt: '2025-01-01T00:00:00Z' }),
      [`/merchants/${MERCHANT}/balances`]: json({
        asOf: '2026-11-08T00:00:00Z',
        balances: [{ currency: 'AUD', total: { minorCurrencyUnits: 0, currency: 'AUD' } }],
      }),
      '/transactions/settlement/report': answer(200, 'application/json', history),
    })

  it.each([
    [
      'an entry nested 300 deep',
      `{"entries":[{"entryId":"se_1","x":${'['.repeat(300)}${']'.repeat(300)}}],"summary":{}}`,
      /nests objects and arrays more than 256 deep/,
    ],
    ['an entry with no amount', '{"entries":[{"entryId":"se_1"}],"summary":{}}', /a settlement entry .* has no amount in AUD/],
  ])('%s: exit 7, the service at fault, not 1', async (_name, history, message) => {
    const svc = await service(history)
    try {
      const child = spawn(process.execPath, [BIN, 'settlement', 'reconcile', '--currency', 'AUD', '--from', '2026-11-01', '--to', '2026-11-08'], {
        env: cliEnv(svc.url),
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      child.stderr?.on('data', (d) => (stderr += d))
      const hung = setTimeout(() => child.kill('SIGKILL'), HUNG_MS)
      const [code] = await once(child, 'close')
      clearTimeout(hung)
      expect(code, stderr).toBe(7)
      expect(stderr).toMatch(message)
      expect(stderr).not.toMatch(/bug in payfac/)
      expect(svc.requests.some((r) => r.startsWith('GET /transactions/settlement/report?currency=AUD&createdAfter=2025-01-01'))).toBe(true)
    } finally {
      await svc.close()
    }
  })
})

describe('a list printed into a pipe whose reader stopped reading', () => {
  let svc: HostileService
  beforeAll(async () => {
    // Records of 200 KiB: once the reader stops, payfac is stopped inside the first one, waiting
    // for the pipe to drain (the pipe holds 64 KiB, the reader took one chunk).
    const order = (i: number) => ({
      orderId: `ordr_StalledReader${String(i).padStart(4, '0')}`,
      amount: { minorCurrencyUnits: 100, currency: 'AUD' },
      note: 'x'.repeat(200 * 1024),
    })
    const page = JSON.stringify(Array.from({ length: 5 }, (_, i) => order(i)))
    svc = await startHostileService({
      '/orders': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'page-count': '1', 'total-record-count': '5' })
        res.end(page)
      },
    })
  })
  afterAll(() => svc.close())

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s ends payfac (%i), whose first signal waited for the reader for ever', async (signal, code) => {
    const child = spawn(process.execPath, [BIN, 'orders', 'list', '--json'], {
      env: cliEnv(svc.url),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr?.on('data', (d) => (stderr += d))
    const hung = setTimeout(() => child.kill('SIGKILL'), HUNG_MS)
    // 'exit', not 'close': the test never reads stdout to its end.
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
    const stdout = child.stdout as NodeJS.ReadableStream
    // The reader takes the first chunk, then stops reading.
    await once(stdout, 'data')
    stdout.pause()
    child.kill(signal)
    const [exitCode] = await exited
    clearTimeout(hung)
    expect(exitCode, stderr).toBe(code)
  })
})

describe('a --from-file file that changes after its rows were checked', () => {
  it('is refused before any row of the changed file is sent (exit 2), the rows as checked or none', async () => {
    const file = join(work, 'customers.csv')
    writeFileSync(file, 'email,given-name\nann@example.com,Ann\nbob@example.com,Bob\n')
    const posted: string[] = []
    let identityAsked: () => void = () => undefined
    const asked = new Promise<void>((resolve) => (identityAsked = resolve))
    let answerIdentity: () => void = () => undefined
    const svc = await startHostileService({
      // Asked once the rows are checked, before the first is sent (who the key acts for): held until the file is changed.
      '/merchants': (_req, res) => {
        answerIdentity = () => {
          res.writeHead(200, { 'content-type': 'application/json', 'page-count': '1', 'total-record-count': '1' })
          res.end(JSON.stringify([{ merchantId: 'mcht_ChangedFile00001', marketplaceId: 'mktp_ChangedFile00001' }]))
        }
        identityAsked()
      },
      '/customers': (req, res) => {
        let body = ''
        req.on('data', (d) => (body += d))
        req.on('end', () => {
          posted.push(body)
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ customerId: `cust_ChangedFile${String(posted.length).padStart(4, '0')}`, merchantId: 'mcht_ChangedFile00001' }))
        })
      },
    })
    try {
      const child = spawn(process.execPath, [BIN, 'customers', 'upsert', '--from-file', file], {
        env: cliEnv(svc.url, 'config-changed-file'),
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr?.on('data', (d) => (stderr += d))
      child.stdout?.resume()
      const hung = setTimeout(() => child.kill('SIGKILL'), HUNG_MS)
      const closed = once(child, 'close')
      await asked
      // Edited in place (the same file), as an editor or an export still writing it would.
      writeFileSync(file, 'email,given-name\nmallory@example.com,Mallory\nbob@example.com,Bob\neve@example.com,Eve\n')
      answerIdentity()
      const [code] = await closed
      clearTimeout(hung)
      expect(
        posted.filter((body) => /mallory|eve/.test(body)),
        stderr,
      ).toEqual([])
      expect(code, stderr).toBe(2)
      expect(stderr).toMatch(/--from-file .*customers\.csv changed after payfac checked its rows/)
    } finally {
      await svc.close()
    }
  })
})
