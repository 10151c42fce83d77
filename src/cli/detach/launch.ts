// `payfac emulator start --detach`: starts `payfac emulator start --instance <id>` as a process of
// its own (a new session: no terminal, no signals from this one), its stdout and stderr in a log
// file, and returns once it answers with its proof. The run's secret goes to it over the IPC
// channel (never on a command line, which other users can read); once it listens it writes its
// record (config/emulator-records.ts) and says so over the channel, which both sides then close.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'

import { ConfigError } from '../../config/errors.js'
import { type EmulatorRecord, ensureRecordsDir, readRecord, recordPath, recordPorts, removeRecord } from '../../config/emulator-records.js'
import { fileProblem } from '../../config/fs-check.js'
import { RefusedError, UnavailableError, UsageError } from '../errors/index.js'
import { addCleanup } from '../runtime/signals.js'
import { health, lastErrorLine, staleNote, waitForRun } from './control.js'

/** What the parent tells the run over the IPC channel before it starts. */
export interface InstanceSetup {
  secret: string
  logFile: string
  namespace: string | null
  configDir: string
  statePath: string | null
  /**
   * The file the run's output goes to until it listens, when not `logFile`: the default log of a
   * fixed port is started under a name of the run's own and renamed to `<port>.log` once the run
   * has the port, so that a start that loses the port to another never writes in the other's log.
   */
  startLog?: string | null
}

/** What the run says over the channel once it listens and its record is written. */
export interface InstanceReady {
  ready: { port: number; host: string; url: string; generatedToken: string | null }
}

/** The parent's answer to InstanceReady: it takes the run over (without it the run stops). */
export interface InstanceAccepted {
  accepted: true
}

export interface LaunchOptions {
  /** bin/run.js of this payfac. */
  bin: string
  configDir: string
  port: number
  host: string
  namespace: string | null
  /** --log-file as given, or undefined for the config folder's. */
  logFile: string | undefined
  /** `emulator start` flags for the run (not --port, --host or --control-token). */
  forward: string[]
  controlToken: string | undefined
  statePath: string | null
  timeoutMs: number
  note: (line: string) => void
}

export interface Launched {
  record: EmulatorRecord
  recordFile: string
  url: string
  /** The control token the run generated (listening beyond loopback without one), to show once. */
  generatedToken: string | null
}

/** Logs in the records folder older than this, and of no record, are removed when another run starts. */
const OLD_LOG_MS = 7 * 24 * 3_600_000

export async function launchDetached(options: LaunchOptions): Promise<Launched> {
  const dir = ensureRecordsDir(options.configDir)
  if (options.port !== 0) await refuseRunning(options)
  sweepOldLogs(options.configDir, dir)
  const instance = randomBytes(16).toString('base64url')
  const secret = randomBytes(32).toString('base64url')
  const logFile = options.logFile === undefined ? path.join(dir, `${options.port === 0 ? instance : options.port}.log`) : path.resolve(options.logFile)
  const startLog = options.logFile === undefined && options.port !== 0 ? path.join(dir, `${options.port}.${instance}.log`) : logFile
  const fd = openLog(startLog, options.logFile === undefined)
  const env = { ...process.env }
  if (options.controlToken !== undefined) env.PAYFAC_EMULATOR_TOKEN = options.controlToken
  const args = [options.bin, 'emulator', 'start', '--port', String(options.port), '--host', options.host, ...options.forward, '--instance', instance]
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', fd, fd, 'ipc'], env, windowsHide: true })
  fs.closeSync(fd)
  // Until this command has said where the run is, the run is its own: a start that fails, or is
  // ended by Ctrl-C or SIGTERM, ends it (by its handle: never another process) and its record.
  let port: number | undefined = options.port === 0 ? undefined : options.port
  const abandon = () => {
    child.kill('SIGKILL')
    // Its record, if it wrote one (on any port: with --port 0 the port is known only once it says so).
    try {
      for (const p of port === undefined ? recordPorts(options.configDir) : [port]) removeRecord(options.configDir, p, instance)
    } catch {
      // A folder or record that cannot be trusted: said by the command that reads it next.
    }
  }
  const forget = addCleanup(abandon)
  try {
    const setup: InstanceSetup = { secret, logFile, startLog, namespace: options.namespace, configDir: options.configDir, statePath: options.statePath }
    let ready: InstanceReady['ready']
    try {
      ready = await readyOf(child, setup, options.timeoutMs, startLog)
    } catch (error) {
      // Two starts on one port at once: the one that lost the port says the other runs.
      if (options.port !== 0) await refuseRunning(options)
      throw error
    } finally {
      if (child.connected) child.disconnect()
      child.unref()
    }
    port = ready.port
    const record = readRecord(options.configDir, ready.port)
    if (!record || record.instance !== instance)
      throw new UnavailableError(`The emulator started but its record ${recordPath(options.configDir, ready.port)} is not its own`)
    await waitForRun(options.configDir, record, options.timeoutMs)
    forget()
    return { record, recordFile: recordPath(options.configDir, ready.port), url: ready.url, generatedToken: ready.generatedToken }
  } catch (error) {
    forget()
    abandon()
    throw error
  }
}

/** A record of the same port whose run is alive: refused (exit 6). A stale one is removed and said. */
async function refuseRunning(options: LaunchOptions): Promise<void> {
  const existing = readRecord(options.configDir, options.port)
  if (!existing) return
  const state = await health(existing)
  if (state === 'stale') {
    removeRecord(options.configDir, options.port, existing.instance)
    options.note(staleNote(existing))
    return
  }
  throw new RefusedError(
    `An emulator started with --detach is already running on port ${options.port} (process ${existing.pid}${state === 'not answering' ? ', not answering' : ''})`,
    `Use it as it is, stop it first with: payfac emulator stop --port ${options.port}, or start another with --port 0`,
  )
}

/**
 * The log, opened for the run's stdout and stderr without blocking on a FIFO; ours (in the
 * records folder) is a new file of a name of the run's own (never a link, never another's file
 * truncated), one given with --log-file is appended to.
 */
function openLog(file: string, ours: boolean): number {
  const flags =
    fs.constants.O_WRONLY |
    fs.constants.O_CREAT |
    (ours ? fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0) : fs.constants.O_APPEND) |
    (fs.constants.O_NONBLOCK ?? 0)
  let fd: number
  try {
    fd = fs.openSync(file, flags, 0o600)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (ours)
      throw new ConfigError(`Cannot open the emulator log ${file}: ${code}`, {
        reason: 'damaged-store',
        hint: 'Remove it (it is payfac’s own) and start again.',
      })
    throw new UsageError(`--log-file ${file} cannot be opened for writing (${code})`, 'Give a file in a folder you can write, such as --log-file emulator.log')
  }
  const stat = fs.fstatSync(fd)
  const problem = ours ? fileProblem(stat) : stat.isFile() ? undefined : 'it is not a regular file'
  if (problem) {
    fs.closeSync(fd)
    if (ours) throw new ConfigError(`The emulator log ${file} cannot be trusted: ${problem}`, { reason: 'damaged-store', hint: 'Remove it and start again.' })
    throw new UsageError(`--log-file ${file}: ${problem}`, 'Give a regular file, such as --log-file emulator.log')
  }
  return fd
}

/** Waits for the run's ready message; its exit first is its failure (the error line of its log). */
function readyOf(child: ReturnType<typeof spawn>, setup: InstanceSetup, timeoutMs: number, logFile: string): Promise<InstanceReady['ready']> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // Our own child, by its handle: no record or proof needed to end it.
      child.kill('SIGKILL')
      settle(() =>
        reject(new UnavailableError(`The emulator did not start within ${Math.round(timeoutMs / 1000)} s; it was stopped`, `See its log: ${logFile}`)),
      )
    }, timeoutMs)
    let settled = false
    const settle = (then: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      then()
    }
    child.on('message', (message: unknown) => {
      const ready = (message as Partial<InstanceReady> | null)?.ready
      if (!ready || typeof ready.port !== 'number' || typeof ready.url !== 'string') return
      // Resolved once the answer is written: the channel is closed after.
      const accepted: InstanceAccepted = { accepted: true }
      child.send(accepted, (error) =>
        settle(() => (error ? reject(new UnavailableError(`The emulator could not be started: ${error.message}`, `See its log: ${logFile}`)) : resolve(ready))),
      )
    })
    child.on('error', (error) => settle(() => reject(new UnavailableError(`The emulator could not be started: ${error.message}`))))
    child.on('exit', (code, signal) => settle(() => reject(startFailure(code, signal, logFile))))
    child.send(setup, (error) => {
      if (error) settle(() => reject(new UnavailableError(`The emulator could not be started: ${error.message}`, `See its log: ${logFile}`)))
    })
  })
}

/** The run's own error, with its exit code: a port in use is exit 2, a refused state or fixtures file 3. */
function startFailure(code: number | null, signal: NodeJS.Signals | null, logFile: string): Error {
  const line = lastErrorLine(logFile)?.replace(/^Error:\s*/, '')
  const why = line ?? (signal ? `it was ended by ${signal}` : `it exited with status ${code}`)
  const hint = `See its log: ${logFile}`
  // A usage error's line holds its own hint already.
  if (code === 2) return new UsageError(`The emulator did not start: ${why}`)
  if (code === 3) return new ConfigError(`The emulator did not start: ${why}`, hint)
  return new UnavailableError(`The emulator did not start: ${why}`, hint)
}

/** Removes old logs of the records folder that no record names (the default logs of past runs). */
function sweepOldLogs(configDir: string, dir: string): void {
  const named = new Set<string>()
  for (const port of recordPorts(configDir)) {
    try {
      const record = readRecord(configDir, port)
      if (record) named.add(record.logFile)
    } catch {
      // A damaged record is reported by the command that reads it.
    }
  }
  const now = Date.now()
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.log')) continue
    const file = path.join(dir, name)
    try {
      const stat = fs.lstatSync(file)
      if (stat.isFile() && !named.has(file) && now - stat.mtimeMs > OLD_LOG_MS) fs.unlinkSync(file)
    } catch {
      // Gone already.
    }
  }
}
