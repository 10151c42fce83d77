// `payfac emulator start --detach`, `status`, `wait` and `stop` as a user (or an adversary) meets
// them, with real processes: a second start on the same port, a run that dies, and records that
// lie (a process id now used by another program, an impostor on the port, a symbolic link, a file
// others can write, a FIFO). payfac must never signal a process it cannot prove is the run.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'

import { BIN, spawnCli } from '../helpers/spawn-cli.js'

const root = mkdtempSync(join(tmpdir(), 'payfac-detach-'))
const cleanups: Array<() => void> = []
afterEach(() => {
  for (const clean of cleanups.splice(0)) clean()
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

let n = 0
function configDir(): string {
  const dir = join(root, `config-${++n}`)
  mkdirSync(dir, { mode: 0o700 })
  return dir
}

const env = (config: string) => ({ PAYFAC_CONFIG_DIR: config, PAYFAC_BASE_URL: undefined, PAYFAC_PROFILE: undefined, CI: 'true' })
const payfac = (config: string, ...args: string[]) => spawnCli(args, { env: env(config), timeoutMs: 60_000 })

/** A port nothing listens on (now). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

/** A process that is not the emulator, and that must still be running after payfac is done. */
function bystander(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  cleanups.push(() => child.kill('SIGKILL'))
  return child
}

function writeRecord(config: string, port: number, fields: Record<string, unknown>): string {
  const dir = join(config, 'emulators')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const file = join(dir, `${port}.json`)
  const record = {
    version: 1,
    instance: 'AAAAAAAAAAAAAAAAAAAAAA',
    secret: 'SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS',
    host: '127.0.0.1',
    port,
    namespace: null,
    logFile: join(root, 'nowhere.log'),
    controlToken: null,
    startedAt: '2026-01-01T00:00:00.000Z',
    statePath: null,
    ...fields,
  }
  writeFileSync(file, JSON.stringify(record), { mode: 0o600 })
  return file
}

describe('emulator start --detach, status, wait, stop', () => {
  it('starts once per port (a second start is exit 6), shows it, waits, stops it cleanly, and then says none', async () => {
    const config = configDir()
    const port = await freePort()
    const started = await payfac(config, 'emulator', 'start', '--detach', '--port', String(port), '--json', '--namespace', 'ci-7')
    expect(started.code, started.stderr).toBe(0)
    const details = JSON.parse(started.stdout)
    expect(details).toMatchObject({ baseUrl: `http://127.0.0.1:${port}`, port, namespace: 'ci-7', recordFile: join(config, 'emulators', `${port}.json`) })
    cleanups.push(() => alive(details.pid) && process.kill(details.pid, 'SIGKILL'))
    expect((lstatSync(details.recordFile).mode & 0o777).toString(8)).toBe('600')

    const again = await payfac(config, 'emulator', 'start', '--detach', '--port', String(port))
    expect(again.code).toBe(6)
    expect(again.stderr).toContain(`already running on port ${port} (process ${details.pid})`)

    const status = await payfac(config, 'emulator', 'status', '--json')
    expect(JSON.parse(status.stdout)).toEqual([
      expect.objectContaining({ port, pid: details.pid, status: 'running', namespace: 'ci-7', logFile: details.logFile }),
    ])
    const waited = await payfac(config, 'emulator', 'wait')
    expect([waited.code, waited.stdout]).toEqual([0, `http://127.0.0.1:${port}\n`])
    // The namespace was made before start returned.
    const namespaces = (await fetch(`${details.baseUrl}/__emulator/namespaces`).then((r) => r.json())) as Array<{ name: string }>
    expect(namespaces.map((ns) => ns.name)).toContain('ci-7')

    const stopped = await payfac(config, 'emulator', 'stop', '--json')
    expect(stopped.code, stopped.stderr).toBe(0)
    expect(JSON.parse(stopped.stdout)).toEqual({ port, pid: details.pid, how: 'asked', logFile: details.logFile })
    expect(alive(details.pid)).toBe(false)
    expect(existsSync(details.recordFile)).toBe(false)
    expect(readFileSync(details.logFile, 'utf8')).toContain('Emulator stopped (payfac emulator stop)')
    const none = await payfac(config, 'emulator', 'status')
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', 'No emulator started with --detach is running.\n'])
    const nothing = await payfac(config, 'emulator', 'stop')
    expect(nothing.code).toBe(6)
  })

  it('a run that died: wait says so at once (exit 7, naming the log), and its record is removed', async () => {
    const config = configDir()
    const started = await payfac(config, 'emulator', 'start', '--detach', '--port', '0', '--json')
    expect(started.code, started.stderr).toBe(0)
    const { pid, logFile, recordFile } = JSON.parse(started.stdout)
    process.kill(pid, 'SIGKILL')
    const waited = await payfac(config, 'emulator', 'wait', '--timeout', '10m')
    expect(waited.code).toBe(7)
    expect(waited.stderr).toContain(`process ${pid} is gone`)
    expect(waited.stderr).toContain(logFile)
    expect(existsSync(recordFile)).toBe(false)
  })

  it('a port taken by another program: exit 2 with the emulator’s own reason', async () => {
    const config = configDir()
    const server: Server = createServer((_req, res) => res.end('not an emulator'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => server.close())
    const { port } = server.address() as AddressInfo
    const started = await payfac(config, 'emulator', 'start', '--detach', '--port', String(port))
    expect(started.code).toBe(2)
    expect(started.stderr).toMatch(new RegExp(`did not start: .*port ${port} on 127\\.0\\.0\\.1 is already in use`))
    expect(started.stdout).toBe('')
  })
})

/** The background run held by `fifo` (see holding()): the process with --instance and that FIFO in its environment. */
function heldRun(fifo: string): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0')
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0')
      if (args.includes('--instance') && environ.includes(`PAYFAC_TEST_HOLD_RUN=${fifo}`)) return Number(name)
    } catch {
      // Gone meanwhile, or not ours.
    }
  }
  return undefined
}

/** The environment that holds a background run at its start until `fifo` is written (test/fixtures/preload/hold-run.cjs). */
function holding(fifo: string): Record<string, string> {
  const preload = resolve(__dirname, '../fixtures/preload/hold-run.cjs')
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(preload)}`.trim(), PAYFAC_TEST_HOLD_RUN: fifo }
}

/** Checks `done` again and again (each look is an event: a process gone, a file made) until it holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20))
}

describe('a start --detach ended before it returns', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGKILL', null],
  ] as const)('by %s: its run does not go on unseen, and no record is left', async (signal, code) => {
    const config = configDir()
    // The run is held at its start (a preload reading a FIFO) until the test writes.
    const fifo = join(config, 'hold.fifo')
    execFileSync('mkfifo', [fifo])
    const starter = spawn(process.execPath, [BIN, 'emulator', 'start', '--detach', '--port', '0'], {
      env: { ...process.env, ...holding(fifo), PAYFAC_CONFIG_DIR: config, CI: 'true' },
      stdio: 'ignore',
    })
    const ended = new Promise<number | null>((resolve) => starter.on('close', (exit) => resolve(exit)))
    const writer = await open(fifo, 'w')
    const run = heldRun(fifo) as number
    expect(run).toBeGreaterThan(0)
    cleanups.push(() => alive(run) && process.kill(run, 'SIGKILL'))
    starter.kill(signal)
    expect(await ended).toBe(code)
    await writer.writeFile('{}').catch(() => undefined)
    await writer.close()
    // Once released, the run finds its starter gone and ends (a run that went on serving would
    // never end: the test's timeout says so), leaving no record.
    await until(() => !alive(run))
    expect(readdirSync(join(config, 'emulators')).filter((name) => name.endsWith('.json'))).toEqual([])
  })
})

describe('two starts on one port at once', () => {
  it('the one that loses the port writes its error in a log of its own, never in the running one’s', async () => {
    const config = configDir()
    const port = await freePort()
    // The first start's run is held at its start (no record yet) while the second takes the port.
    const fifo = join(config, 'hold.fifo')
    execFileSync('mkfifo', [fifo])
    const first = spawnCli(['emulator', 'start', '--detach', '--port', String(port)], { env: { ...env(config), ...holding(fifo) }, timeoutMs: 60_000 })
    const writer = await open(fifo, 'w')
    const second = await payfac(config, 'emulator', 'start', '--detach', '--port', String(port), '--json')
    expect(second.code, second.stderr).toBe(0)
    const running = JSON.parse(second.stdout)
    cleanups.push(() => alive(running.pid) && process.kill(running.pid, 'SIGKILL'))
    expect(running.logFile).toBe(join(config, 'emulators', `${port}.log`))
    await writer.writeFile('{}')
    await writer.close()
    const lost = await first
    expect(lost.code, lost.stderr).toBe(6)
    expect(readFileSync(running.logFile, 'utf8')).not.toContain('could not listen')
    expect(readFileSync(running.logFile, 'utf8')).toContain(`stop it with: payfac emulator stop --port ${port}`)
    const stopped = await payfac(config, 'emulator', 'stop', '--port', String(port))
    expect(stopped.code, stopped.stderr).toBe(0)
  })
})

describe('a record is hostile input', () => {
  it('a process id now used by another program, and an impostor on the port: the program is left alone, the record removed', async () => {
    const config = configDir()
    const other = bystander()
    // Something else answers on the record's port, with the run's id and pid but no valid proof.
    const impostor = createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json')
      res.end(JSON.stringify({ instance: 'AAAAAAAAAAAAAAAAAAAAAA', pid: other.pid, proof: 'forged', stopping: true }))
    })
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => impostor.close())
    const { port } = impostor.address() as AddressInfo
    const file = writeRecord(config, port, { pid: other.pid })
    for (const command of [['status'], ['stop']]) {
      writeRecord(config, port, { pid: other.pid })
      const ran = await payfac(config, 'emulator', ...command)
      expect(ran.stderr).toContain(`process id ${other.pid} now names another program, which was left alone`)
      expect(ran.code).toBe(command[0] === 'stop' ? 6 : 0)
      expect(existsSync(file)).toBe(false)
      expect(alive(other.pid as number)).toBe(true)
    }
  })

  it('a run that proves itself over HTTP but will not stop: a process of that id here is signalled only if it is the run', async () => {
    // What a run in another pid namespace (a container sharing the network and the config folder)
    // looks like: the process on the port holds the secret and names its own pid, which here is
    // another program's.
    const config = configDir()
    const other = bystander()
    const secret = 'SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS'
    const prover = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      res.setHeader('Content-Type', 'application/json')
      if (url.pathname !== '/__emulator/instance') {
        res.statusCode = 503
        return res.end('{}')
      }
      const proof = createHmac('sha256', secret)
        .update(`payfac-emulator-instance:${url.searchParams.get('challenge')}`)
        .digest('base64url')
      res.end(JSON.stringify({ instance: 'AAAAAAAAAAAAAAAAAAAAAA', pid: other.pid, proof }))
    })
    await new Promise<void>((resolve) => prover.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => prover.close())
    const { port } = prover.address() as AddressInfo
    writeRecord(config, port, { pid: other.pid, secret })
    const stopped = await payfac(config, 'emulator', 'stop', '--port', String(port), '--timeout', '1s')
    expect(stopped.stderr).not.toMatch(/SIGTERM|SIGKILL/)
    expect(alive(other.pid as number), stopped.stderr).toBe(true)
  })

  it('a symbolic link, a file others can write, a FIFO, a malformed record: exit 3, nothing done, the file left as it is', async () => {
    const config = configDir()
    const other = bystander()
    const dir = join(config, 'emulators')
    mkdirSync(dir, { mode: 0o700 })
    const target = writeRecord(config, 9, { pid: other.pid })
    const cases: Array<[string, (file: string) => void, RegExp]> = [
      ['a symbolic link', (file) => symlinkSync(target, file), /symbolic link/],
      [
        'a file others can write',
        (file) => {
          writeFileSync(file, readFileSync(target))
          chmodSync(file, 0o666)
        },
        /others can write it/,
      ],
      ['a FIFO', (file) => execFileSync('mkfifo', [file]), /FIFO/],
      ['a record with another port than its name', (file) => writeFileSync(file, readFileSync(target), { mode: 0o600 }), /its port is not/],
      ['not JSON', (file) => writeFileSync(file, '{"version":1,', { mode: 0o600 }), /not JSON/],
    ]
    for (const [what, make, problem] of cases) {
      const file = join(dir, '4777.json')
      make(file)
      for (const verb of what === 'a symbolic link' ? ['status', 'stop'] : ['stop']) {
        const ran = await payfac(config, 'emulator', verb, '--port', '4777')
        expect(ran.code, `${what}, ${verb}: ${ran.stderr}`).toBe(3)
        expect(ran.stderr).toMatch(problem)
        expect(ran.stderr).toContain('payfac did not act on it and left it as it is')
      }
      expect(lstatSync(file)).toBeTruthy()
      expect(alive(other.pid as number)).toBe(true)
      rmSync(file)
    }
  })
})
