// The hostile-input suite (issue 35), each case a reproduction from the issue, run on the built
// CLI (bin/run.js; dist/ must be built):
// - every input flag handed /dev/zero (and /dev/urandom where it read differently) is refused,
//   exit 2 naming the flag and the bound (exit 3 for the emulator's own files, as documented),
//   its peak memory under 200 MiB (read from getrusage by a preload, not from a clock);
// - a large junk --from-file fails at its first bad line, without reading the rest;
// - a FIFO with no writer is a wait SIGTERM (143) and SIGINT (130) end: each signal is sent once
//   payfac says it is waiting, never after a sleep;
// - a credential command that times out leaves no process of its group behind, grandchild included;
// - an answer nested 5,000 deep is exit 7 with one line, under --json and --query.
// The time limits below are only how long a test may take before it counts as hung.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type HostileService, answer, startHostileService } from '../helpers/hostile-service.js'
import { BIN } from '../helpers/spawn-cli.js'

const PEAK_RSS = resolve(__dirname, '../helpers/peak-rss.cjs')
const MEMORY_LIMIT_KIB = 200 * 1024
/** How long a case may run before it counts as hung (not a measured figure). */
const HUNG_MS = 30_000
const ORDER = 'ordr_AAAAAAAAAAAAAAAA'

let work: string

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'payfac-hostile-inputs-'))
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** Nothing listens on port 9 (discard): a request that leaves would be exit 7, not 2. */
const env = (extra: Record<string, string> = {}) => ({
  PAYFAC_BASE_URL: 'http://127.0.0.1:9',
  PAYFAC_API_KEY: 'sandbox_sk_hostileInputs00000001',
  PAYFAC_CONFIG_DIR: join(work, 'config'),
  PAYFAC_PROFILE: '',
  ...extra,
})

interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** Peak resident memory of payfac, KiB. */
  peakKiB: number | undefined
}

interface Started {
  child: ChildProcess
  /** Resolves when stderr holds a match of `pattern`. */
  stderrMatches(pattern: RegExp): Promise<void>
  done: Promise<Run>
}

/** Spawns payfac with stdin from `stdin` (a path opened for reading, or a pipe the test writes). */
function start(args: string[], options: { stdin?: string; extraEnv?: Record<string, string> } = {}): Started {
  const peakFile = join(work, `peak-${randomBytes(6).toString('hex')}`)
  const stdinFd = options.stdin ? openSync(options.stdin, 'r') : undefined
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      ...process.env,
      NO_COLOR: '1',
      NODE_OPTIONS: `--require ${PEAK_RSS}`,
      PAYFAC_TEST_PEAK_RSS_FILE: peakFile,
      ...env(options.extraEnv),
    },
    stdio: [stdinFd ?? 'pipe', 'pipe', 'pipe'],
  })
  if (stdinFd !== undefined) closeSync(stdinFd)
  let stdout = ''
  let stderr = ''
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = []
  child.stdout?.on('data', (d) => (stdout += d))
  child.stderr?.on('data', (d) => {
    stderr += d
    for (const w of waiters.splice(0))
      if (w.pattern.test(stderr)) w.resolve()
      else waiters.push(w)
  })
  const hung = setTimeout(() => child.kill('SIGKILL'), HUNG_MS)
  const done = once(child, 'close').then(([code, signal]) => {
    clearTimeout(hung)
    const peakKiB = existsSync(peakFile) ? Number(readFileSync(peakFile, 'utf8')) : undefined
    return { code, signal, stdout, stderr, peakKiB } as Run
  })
  return {
    child,
    done,
    stderrMatches: (pattern) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(stderr)) return resolve()
        waiters.push({ pattern, resolve })
        done.then(() => reject(new Error(`payfac ended before saying ${pattern}: ${stderr}`)))
      }),
  }
}

const RANGE = ['--currency', 'AUD', '--from', '2026-11-01', '--to', '2026-11-08']
const LEDGER = ['settlement', 'reconcile', ...RANGE, '--ledger-columns', 'reference=Ref,amount=Amt,currency=Ccy', '--ledger']
const MARKETPLACE = { PAYFAC_API_KEY: 'sandbox_api_hostileInputs0000001' }

type Case = [name: string, args: string[], stdin: string | undefined, code: number, stderr: RegExp, extraEnv?: Record<string, string>]

const onDevZero: Case[] = [
  [
    'orders create --data - < /dev/zero',
    ['orders', 'create', '--data', '-'],
    '/dev/zero',
    2,
    /^Error: --data -: stdin holds more than 1 MiB; payfac reads at most 1 MiB/,
  ],
  [
    '--data @/dev/zero',
    ['orders', 'create', '--data', '@/dev/zero'],
    undefined,
    2,
    /^Error: --data: \/dev\/zero holds more than 1 MiB; payfac reads at most 1 MiB/,
  ],
  ['--data @/dev/urandom', ['orders', 'create', '--data', '@/dev/urandom'], undefined, 2, /^Error: --data: \/dev\/urandom holds more than 1 MiB/],
  ['api --data @/dev/zero', ['api', 'POST', '/orders', '--data', '@/dev/zero'], undefined, 2, /^Error: --data: \/dev\/zero holds more than 1 MiB/],
  [
    '--merchants @/dev/zero',
    ['settlement', 'reconcile', '--currency', 'AUD', '--last', '7d', '--merchants', '@/dev/zero'],
    undefined,
    2,
    /^Error: --merchants: \/dev\/zero holds more than 1 MiB/,
    MARKETPLACE,
  ],
  ['--ledger /dev/zero', [...LEDGER, '/dev/zero'], undefined, 2, /^Error: --ledger: line 1 of \/dev\/zero is longer than 64 KiB/],
  ['--ledger /dev/urandom', [...LEDGER, '/dev/urandom'], undefined, 2, /^Error: --ledger: \/dev\/urandom has no column "Ref"/],
  ['--from-file - < /dev/zero', ['orders', 'create', '--from-file', '-'], '/dev/zero', 2, /^Error: --from-file stdin line 1: a control character \(U\+0000\)/],
  ['--from-file /dev/zero', ['orders', 'create', '--from-file', '/dev/zero'], undefined, 2, /^Error: --from-file: \/dev\/zero is not a file/],
  [
    '--credential-stdin < /dev/zero',
    ['profiles', 'add', 'z', '--environment', 'sandbox', '--base-url', 'http://127.0.0.1:9', '--credential-stdin'],
    '/dev/zero',
    2,
    /^Error: --credential-stdin: stdin holds more than 64 KiB/,
  ],
  ['--secret - < /dev/zero', ['webhooks', 'listen', '--secret', '-'], '/dev/zero', 2, /^Error: --secret -: stdin holds more than 64 KiB/],
  [
    'webhooks verify < /dev/zero',
    ['webhooks', 'verify', '--secret', 'whsec_x', '--signature', 't=1,v1=00'],
    '/dev/zero',
    2,
    /^Error: webhooks verify: stdin holds more than 16 MiB/,
  ],
  ['merchants files upload /dev/zero', ['merchants', 'files', 'upload', 'mcht_AAAAAAAAAAAAAAAA', '/dev/zero'], undefined, 2, /\/dev\/zero is not a file/],
  [
    'emulator start --state /dev/zero',
    ['emulator', 'start', '--port', '0', '--state', '/dev/zero'],
    undefined,
    3,
    /state file \/dev\/zero: .*not a regular file/,
  ],
  [
    'emulator start --fixtures /dev/zero',
    ['emulator', 'start', '--port', '0', '--fixtures', '/dev/zero'],
    undefined,
    3,
    /fixture file \/dev\/zero: .*not a regular file/,
  ],
]

describe.concurrent('every input flag handed /dev/zero', () => {
  it.each(onDevZero)('%s: refused naming the flag and the bound, memory under 200 MiB', async (_name, args, stdin, code, stderr, extraEnv) => {
    const run = await start(args, { stdin, extraEnv }).done
    expect(run.code, run.stderr).toBe(code)
    expect(run.stderr).toMatch(stderr)
    expect(run.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2)
    expect(run.stdout).toBe('')
    expect(run.peakKiB).toBeDefined()
    expect(run.peakKiB).toBeLessThan(MEMORY_LIMIT_KIB)
  })
})

describe('a large junk --from-file', () => {
  it('200 MB of random bytes on stdin: exit 2 at line 1, having read a few chunks, not the 200 MB', async () => {
    const started = start(['orders', 'create', '--from-file', '-'])
    const stdin = started.child.stdin as NodeJS.WritableStream & { destroyed: boolean }
    stdin.on('error', () => undefined)
    let written = 0
    const total = 200 * 1024 * 1024
    const ended = started.done.then(() => true)
    let over = false
    void ended.then(() => (over = true))
    // Written as fast as payfac reads (backpressure), until it stops reading or all is written.
    // The first byte is a control character, so that line 1 is the junk whatever the random bytes
    // after it hold (a newline among them first made the error name line 2).
    while (written < total && !over && !stdin.destroyed) {
      const chunk = randomBytes(64 * 1024)
      if (written === 0) chunk[0] = 0x07
      written += chunk.length
      if (!stdin.write(chunk)) await Promise.race([once(stdin, 'drain').catch(() => undefined), ended])
    }
    stdin.end()
    const run = await started.done
    expect(run.code, run.stderr).toBe(2)
    expect(run.stderr).toMatch(/^Error: --from-file stdin line 1: a control character \(U\+[0-9A-F]{4}\)/)
    expect(written).toBeLessThan(16 * 1024 * 1024)
    expect(run.peakKiB).toBeLessThan(MEMORY_LIMIT_KIB)
  })

  it('200 MB of text that is not rows: exit 2 at the tenth bad row, naming the first; the rest is not read', async () => {
    const file = join(work, 'junk.csv')
    const line = `${'kbYaspHspxLZU43bm6uo9k2hnoTnTbkrYJ0TUQpuykUTQ2mNYhtKrP8J8ZsfWHflPTrGQKNN0000'}\n`
    const block = Buffer.from(line.repeat(Math.floor((1024 * 1024) / line.length)))
    const fd = openSync(file, 'w')
    for (let i = 0; i < 200; i++) writeFileSync(fd, block)
    closeSync(fd)
    try {
      const run = await start(['orders', 'create', '--from-file', file]).done
      expect(run.code, run.stderr).toBe(2)
      expect(run.stderr).toMatch(
        /junk\.csv line 2: "kbYasp\w+" is not a column of this command; at least 10 bad rows \(lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11; payfac stopped reading there\)/,
      )
      expect(run.peakKiB).toBeLessThan(MEMORY_LIMIT_KIB)
    } finally {
      rmSync(file, { force: true })
    }
  })
})

describe('a FIFO with no writer', () => {
  const fifo = () => {
    const path = join(work, `fifo-${randomBytes(4).toString('hex')}`)
    execFileSync('mkfifo', [path])
    return path
  }

  it.each([
    ['--data @fifo', 'SIGTERM', 143, (path: string) => ['orders', 'create', '--data', `@${path}`], /--data: waiting for data from the FIFO/],
    ['--data @fifo', 'SIGINT', 130, (path: string) => ['orders', 'create', '--data', `@${path}`], /--data: waiting for data from the FIFO/],
    ['--ledger fifo', 'SIGTERM', 143, (path: string) => [...LEDGER, path], /--ledger: waiting for data from the FIFO/],
    ['--ledger fifo', 'SIGINT', 130, (path: string) => [...LEDGER, path], /--ledger: waiting for data from the FIFO/],
  ] as const)('%s ends on %s (%i) once payfac waits on it', async (_name, signal, code, args, waiting) => {
    const started = start(args(fifo()))
    await started.stderrMatches(waiting)
    started.child.kill(signal)
    const run = await started.done
    expect(run.code, run.stderr).toBe(code)
    expect(run.stderr).toContain(`Interrupted (${signal}).`)
  })

  it('a writer that comes later is read: --data @fifo sends its body', async () => {
    const path = fifo()
    const started = start(['orders', 'create', '--data', `@${path}`, '--dry-run', '--json'])
    await started.stderrMatches(/waiting for data from the FIFO/)
    writeFileSync(path, JSON.stringify({ amount: { minorCurrencyUnits: 100, currency: 'AUD' } }))
    const run = await started.done
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout).request.body.CreateOnlineOrder.amount).toEqual({ minorCurrencyUnits: 100, currency: 'AUD' })
  })
})

/** Whether `pid` is a live process (a zombie waiting to be reaped is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  if (process.platform !== 'linux') {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim()
    return state !== '' && !state.startsWith('Z')
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Live processes of process group `pgid` (Linux: /proc; elsewhere ps). */
function groupMembers(pgid: number): number[] {
  if (process.platform !== 'linux') {
    return execFileSync('ps', ['-A', '-o', 'pid=,pgid='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/).map(Number))
      .filter(([pid, group]) => group === pgid && alive(pid as number))
      .map(([pid]) => pid as number)
  }
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid && alive(Number(name))
      } catch {
        return false
      }
    })
    .map(Number)
}

describe('a credential command that times out', () => {
  it('is ended with its whole process group: its grandchild sleep 1000, one that ignores SIGTERM, one orphaned', async () => {
    const dir = mkdtempSync(join(work, 'cred-'))
    const script = join(dir, 'vault.sh')
    writeFileSync(
      script,
      [
        '#!/bin/sh',
        "trap '' TERM",
        `echo $$ > '${dir}/leader'`,
        `sleep 1000 & echo $! > '${dir}/grandchild'`,
        `(sleep 1000 & echo $! > '${dir}/orphan')`,
        'sleep 1000',
        '',
      ].join('\n'),
      { mode: 0o700 },
    )
    const run = await start(['orders', 'list'], {
      extraEnv: { PAYFAC_API_KEY: '', PAYFAC_CREDENTIAL_COMMAND: script, PAYFAC_CREDENTIAL_TIMEOUT: '2' },
    }).done
    expect(run.code, run.stderr).toBe(3)
    expect(run.stderr).toContain('did not finish within 2 s and was stopped')
    const pids = ['leader', 'grandchild', 'orphan'].map((name) => Number(readFileSync(join(dir, name), 'utf8')))
    expect(pids.filter(alive)).toEqual([])
    expect(groupMembers(pids[0] as number)).toEqual([])
  })
})

describe('an answer nested 5,000 deep', () => {
  let svc: HostileService
  const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`
  beforeAll(async () => {
    const order = `{"orderId":"${ORDER}","amount":{"minorCurrencyUnits":100,"currency":"AUD"},"x":${deep}}`
    svc = await startHostileService({
      '/orders': (req, res, url) => {
        res.setHeader('page-count', '1')
        res.setHeader('total-record-count', '1')
        answer(200, 'application/json', `[${order}]`)(req, res, url)
      },
      [`/orders/${ORDER}`]: answer(200, 'application/json', `{"OnlineOrder":{"order":${order}}}`),
    })
  })
  afterAll(() => svc.close())

  it.each([
    ['orders list --json', ['orders', 'list', '--json']],
    ['orders list --query', ['orders', 'list', '--query', '[].orderId']],
    ['orders list --jsonl', ['orders', 'list', '--jsonl']],
    ['api GET --json', ['api', 'GET', `/orders/${ORDER}`, '--json']],
  ])('%s: exit 7 with one line, no RangeError', async (_name, args) => {
    const run = await start(args, { extraEnv: { PAYFAC_BASE_URL: svc.url } }).done
    expect(run.code, run.stderr).toBe(7)
    expect(run.stderr).not.toMatch(/RangeError|call stack/)
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(JSON.parse(run.stderr).error.message).toContain('nests objects and arrays more than 256 deep')
    expect(run.stdout).toBe('')
  })
})
