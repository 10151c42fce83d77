// `payfac emulator status`, `wait` and `stop` on the records of background emulators
// (config/emulator-records.ts). What a record says is checked before anything is done with it:
//
//   running        the run answers on its port with its proof and its pid (probe.ts)
//   not answering  it does not answer, but its process is still the run: the current user's
//                  `payfac emulator start --instance <id>` (process.ts)
//   stale          neither: the process is gone, or its id now names another program; the
//                  record is removed and said, and no process is signalled
//
// `stop` asks a running emulator to stop over HTTP (it closes every connection and exits 0, and
// removes its own record), and falls back to SIGTERM, then SIGKILL, only for a process proven to
// be the run at that very moment.
import fs from 'node:fs'
import process from 'node:process'

import { type EmulatorRecord, readRecord, recordPath, recordPorts, recordUrl, removeRecord } from '../../config/emulator-records.js'
import { UnavailableError, UsageError } from '../errors/index.js'
import { askShutdown, emulatorAnswers, proveRecord } from './probe.js'
import { canReadArguments, isInstanceProcess, isRunning } from './process.js'

export type Health = 'running' | 'not answering' | 'stale'

export interface Inspected {
  record: EmulatorRecord
  file: string
  health: Health
}

/** Where a record's run stands (see the top of this file). */
export async function health(record: EmulatorRecord, timeoutMs = 3000): Promise<Health> {
  if ((await proveRecord(record, timeoutMs)) === 'proven') return 'running'
  return isRunning(record.pid) && isInstanceProcess(record.pid, record.instance) ? 'not answering' : 'stale'
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The records to act on: the one of `port`, or every one; those found stale are removed, and `note` says so. */
export async function inspectRecords(
  configDir: string,
  port: number | undefined,
  note: (line: string) => void,
): Promise<{ live: Inspected[]; stale: EmulatorRecord[] }> {
  const ports = port === undefined ? recordPorts(configDir) : [port]
  const live: Inspected[] = []
  const stale: EmulatorRecord[] = []
  for (const p of ports) {
    const record = readRecord(configDir, p)
    if (!record) continue
    const state = await health(record)
    if (state === 'stale') {
      removeRecord(configDir, p, record.instance)
      note(staleNote(record))
      stale.push(record)
      continue
    }
    live.push({ record, file: recordPath(configDir, p), health: state })
  }
  return { live, stale }
}

export function staleNote(record: EmulatorRecord): string {
  const why = isRunning(record.pid) ? `process id ${record.pid} now names another program, which was left alone` : `process ${record.pid} is gone`
  return `The emulator started on port ${record.port} is no longer running (${why}); its record was removed (log: ${record.logFile}).`
}

/** The one record a command acts on without --port; a usage error when there are several. */
export function onlyOne(found: Inspected[], verb: string): Inspected | undefined {
  if (found.length <= 1) return found[0]
  throw new UsageError(
    `Several background emulators run (ports ${found.map((f) => f.record.port).join(', ')}); say which one to ${verb}`,
    `Give --port, for example --port ${found[0]?.record.port}`,
  )
}

/** Waits until `pid` is gone or no longer the run (its id reused), up to `timeoutMs`; true when gone. */
async function gone(record: EmulatorRecord, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (!isRunning(record.pid) || !isInstanceProcess(record.pid, record.instance)) return true
    if (Date.now() >= deadline) return false
    await pause(50)
  }
}

/**
 * Sends `signal` only to a process proven, now, to be the run; false when it cannot be proven.
 * The proof over HTTP shows that what answers on the port holds the run's secret, and the pid it
 * sees itself as: in another pid namespace (a container sharing the network and the config
 * folder) that number names another process here. So where command lines can be read, the
 * process of that id here must be the run by its own; the proof alone serves only where they
 * cannot be.
 */
async function signalProven(record: EmulatorRecord, signal: NodeJS.Signals): Promise<boolean> {
  const proven = canReadArguments() ? isInstanceProcess(record.pid, record.instance) : (await proveRecord(record, 1000)) === 'proven'
  if (!proven) return false
  try {
    process.kill(record.pid, signal)
  } catch {
    return false
  }
  return true
}

/** How a run ended: asked over HTTP (a clean stop), by a signal, or on its own while payfac looked. */
export type StopHow = 'asked' | 'SIGTERM' | 'SIGKILL' | 'gone'

/** Stops the run of a record found running or not answering; the record is gone after. */
export async function stopRun(configDir: string, found: Inspected, timeoutMs: number): Promise<StopHow> {
  const { record } = found
  let how: StopHow | undefined
  if (found.health === 'running' && (await askShutdown(record))) how = (await gone(record, timeoutMs)) ? 'asked' : undefined
  if (how === undefined && (await signalProven(record, 'SIGTERM'))) how = (await gone(record, timeoutMs)) ? 'SIGTERM' : undefined
  if (how === undefined && (await signalProven(record, 'SIGKILL'))) how = (await gone(record, 5000)) ? 'SIGKILL' : undefined
  if (how === undefined) {
    if (!(await gone(record, 0))) {
      throw new UnavailableError(
        `The emulator on port ${record.port} (process ${record.pid}) did not stop`,
        `Its log is ${record.logFile}; stop process ${record.pid} yourself if it is still there`,
      )
    }
    how = 'gone'
  }
  // A run that stopped cleanly removed its own record; one ended by a signal did not.
  removeRecord(configDir, record.port, record.instance)
  return how
}

/**
 * Waits until the run of `record` answers with its proof (and, with a namespace, makes it). Ends
 * early, with an error naming the log, when the run's process is gone.
 */
export async function waitForRun(configDir: string, record: EmulatorRecord, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
    const left = deadline - Date.now()
    const proof = await proveRecord(record, Math.max(1, Math.min(left, 2000)))
    if (proof === 'proven') {
      if (record.namespace)
        await emulatorAnswers(recordUrl(record), { namespace: record.namespace, controlToken: record.controlToken ?? undefined, timeoutMs: 2000 })
      return
    }
    if (!isRunning(record.pid) || !isInstanceProcess(record.pid, record.instance)) {
      removeRecord(configDir, record.port, record.instance)
      throw new UnavailableError(
        `The emulator started on port ${record.port} is no longer running`,
        `See its log: ${record.logFile}${tailHint(record.logFile)}`,
      )
    }
    if (Date.now() >= deadline) {
      throw new UnavailableError(
        `The emulator on port ${record.port} did not answer within ${Math.round(timeoutMs / 1000)} s`,
        `See its log: ${record.logFile}`,
      )
    }
    await pause(Math.min(delay, Math.max(1, deadline - Date.now())))
  }
}

/** Waits until an emulator answers at `baseUrl` (one started some other way than --detach). */
export async function waitForUrl(baseUrl: string, namespace: string | undefined, timeoutMs: number): Promise<void> {
  if (!/^http:\/\//i.test(baseUrl)) throw new UsageError(`The emulator serves http://, not ${baseUrl}`, 'Point payfac at it with --base-url or PAYFAC_BASE_URL')
  const deadline = Date.now() + timeoutMs
  const controlToken = process.env.PAYFAC_EMULATOR_TOKEN?.trim() || undefined
  for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
    const left = deadline - Date.now()
    const answered = await emulatorAnswers(baseUrl, { namespace: namespace ?? null, controlToken, timeoutMs: Math.max(1, Math.min(left, 2000)) })
    if (answered === 'ready') return
    // Something else answers there: waiting longer will not make it an emulator.
    if (answered !== 'silent') {
      throw new UnavailableError(
        `Something answers at ${baseUrl}, but not as a payfac emulator (GET /__emulator answered ${answered.other})`,
        'Check --base-url and PAYFAC_BASE_URL, or start one with payfac emulator start --detach',
      )
    }
    if (Date.now() >= deadline) {
      throw new UnavailableError(
        `No emulator answered at ${baseUrl} within ${Math.round(timeoutMs / 1000)} s`,
        'Start one with payfac emulator start --detach, or check --base-url and PAYFAC_BASE_URL',
      )
    }
    await pause(Math.min(delay, Math.max(1, deadline - Date.now())))
  }
}

/** The last error line of a log, as `; it ends with: …`, or '' (read without following links or blocking). */
export function tailHint(file: string): string {
  const line = lastErrorLine(file)
  return line ? `; it ends with: ${line}` : ''
}

/** The last `Error: …` line in the last 8 KB of `file`, control characters removed. */
export function lastErrorLine(file: string): string | undefined {
  const text = readTail(file, 8192)
  const lines = text
    .split('\n')
    .map((l) => l.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim())
    .filter(Boolean)
  return lines.filter((l) => l.startsWith('Error:')).at(-1)
}

/** Up to `bytes` from the end of a regular file; '' for anything else. */
export function readTail(file: string, bytes: number): string {
  let fd: number | undefined
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0))
    const stat = fs.fstatSync(fd)
    if (!stat.isFile()) return ''
    const length = Math.min(bytes, stat.size)
    const buffer = Buffer.alloc(length)
    fs.readSync(fd, buffer, 0, length, stat.size - length)
    return buffer.toString('utf8')
  } catch {
    return ''
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}
