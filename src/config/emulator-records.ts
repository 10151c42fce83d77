// The records of emulators started in the background (`payfac emulator start --detach`): one
// private file per port, <config dir>/emulators/<port>.json, written by the emulator itself once
// it listens and removed when it stops, so that `emulator status`, `wait` and `stop` find it from
// any shell of the same user. The log of each run is beside it unless --log-file names another.
//
// A record is hostile input like every file payfac reads before it acts (it names a process to
// stop): only a regular file of the current user that no one else can write, in folders of the
// same kind, is read (fs-check.ts); a symlink, a FIFO, another user's file or a malformed one is
// a ConfigError (exit 3) and is left as it is. A record is never trusted about the process
// either: cli/detach/ proves a process is the emulator it names before signalling it. Pure
// node:fs: no client.
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'

import { ConfigError } from './errors.js'
import { checkPrivateFolders, fileProblem } from './fs-check.js'

export interface EmulatorRecord {
  version: 1
  /** Public id of the run (on its command line and in its proof answer). */
  instance: string
  /** Known only to the emulator and this record: proves the process, and stops it. */
  secret: string
  pid: number
  /** The address it listens on (an IP address or localhost) and its port. */
  host: string
  port: number
  /** The Emulator-Namespace the run was started for (`--namespace`), or null. */
  namespace: string | null
  logFile: string
  /** The control token the control plane requires (given or generated), or null. */
  controlToken: string | null
  startedAt: string
  /** The emulator's own state file (`--state`), or null. */
  statePath: string | null
}

/** `<config dir>/emulators`. */
export function recordsDir(configDir: string): string {
  return path.join(configDir, 'emulators')
}

export function recordPath(configDir: string, port: number): string {
  return path.join(recordsDir(configDir), `${port}.json`)
}

/** The base URL of a record's emulator, made from its address and port (never read from the file as a URL). */
export function recordUrl(record: Pick<EmulatorRecord, 'host' | 'port'>): string {
  const host = record.host.includes(':') ? `[${record.host}]` : record.host
  return `http://${host}:${record.port}`
}

const RECORD_NAME = /^([1-9]\d{0,4})\.json$/
const ID = /^[A-Za-z0-9_-]{16,64}$/
const ADDRESS = /^(localhost|[0-9.]{7,15}|[0-9a-fA-F:.]{2,45})$/

function damaged(file: string, problem: string): ConfigError {
  return new ConfigError(`The record of a background emulator ${file} cannot be trusted: ${problem}. payfac did not act on it and left it as it is.`, {
    reason: 'damaged-store',
    hint: 'payfac writes these records itself, private to you. If you did not expect this file, look at it, remove it, and start the emulator again.',
  })
}

/** The record's fields checked one by one; anything else makes the whole file damaged. */
function checkRecord(file: string, port: number, value: unknown): EmulatorRecord {
  const v = (value ?? {}) as Record<string, unknown>
  const bad = (what: string) => damaged(file, what)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('it is not a JSON object')
  if (v.version !== 1) throw bad('its version is not 1')
  if (typeof v.instance !== 'string' || !ID.test(v.instance)) throw bad('its instance id is malformed')
  if (typeof v.secret !== 'string' || !ID.test(v.secret)) throw bad('its secret is malformed')
  if (!Number.isSafeInteger(v.pid) || (v.pid as number) < 2 || (v.pid as number) > 4_194_304) throw bad('its process id is not a process id')
  if (v.port !== port) throw bad(`its port is not ${port}, the port in its name`)
  if (typeof v.host !== 'string' || !ADDRESS.test(v.host)) throw bad('its address is not an IP address or localhost')
  if (v.namespace !== null && (typeof v.namespace !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(v.namespace)))
    throw bad('its namespace is malformed')
  if (typeof v.logFile !== 'string' || !path.isAbsolute(v.logFile) || v.logFile.length > 4096) throw bad('its log file is not an absolute path')
  if (v.controlToken !== null && (typeof v.controlToken !== 'string' || v.controlToken.length === 0 || v.controlToken.length > 4096))
    throw bad('its control token is malformed')
  if (typeof v.startedAt !== 'string' || Number.isNaN(Date.parse(v.startedAt))) throw bad('its start time is not a time')
  if (v.statePath !== null && (typeof v.statePath !== 'string' || v.statePath.length > 4096)) throw bad('its state path is malformed')
  return v as unknown as EmulatorRecord
}

/**
 * The record of the emulator on `port`, or undefined when there is none. Read by fs-check's
 * rules (lstat, then open without following links and without blocking, then fstat again).
 */
export function readRecord(configDir: string, port: number): EmulatorRecord | undefined {
  checkPrivateFolders(configDir, recordsDir(configDir), 'emulator records')
  const file = recordPath(configDir, port)
  let before: fs.Stats
  try {
    before = fs.lstatSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw damaged(file, `it cannot be read (${(error as NodeJS.ErrnoException).code})`)
  }
  const early = fileProblem(before)
  if (early) throw damaged(file, early)
  let fd: number
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    throw damaged(file, code === 'ELOOP' ? 'it is a symbolic link, not a file payfac wrote' : `it cannot be opened (${code})`)
  }
  let text: string
  try {
    const late = fileProblem(fs.fstatSync(fd))
    if (late) throw damaged(file, late)
    if (fs.fstatSync(fd).size > 64 * 1024) throw damaged(file, 'it is larger than any record payfac writes')
    text = fs.readFileSync(fd, 'utf8')
  } finally {
    fs.closeSync(fd)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw damaged(file, 'it is not JSON')
  }
  return checkRecord(file, port, value)
}

/** The ports that have a record, in order (names other than `<port>.json` are not records). */
export function recordPorts(configDir: string): number[] {
  const dir = recordsDir(configDir)
  checkPrivateFolders(configDir, dir, 'emulator records')
  let names: string[]
  try {
    names = fs.readdirSync(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return names
    .map((name) => RECORD_NAME.exec(name)?.[1])
    .filter((port): port is string => port !== undefined)
    .map(Number)
    .filter((port) => port <= 65_535)
    .sort((a, b) => a - b)
}

/** Makes `<config dir>/emulators` (0700) and checks it and the config folder; gives its path. */
export function ensureRecordsDir(configDir: string): string {
  const dir = recordsDir(configDir)
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  checkPrivateFolders(configDir, dir, 'emulator records')
  return dir
}

/**
 * Writes the record of the emulator on `record.port`: a private temporary file beside it, then a
 * rename over the name, which replaces whatever is there (a symlink itself, never its target).
 */
export function writeRecord(configDir: string, record: EmulatorRecord): string {
  const dir = ensureRecordsDir(configDir)
  const file = recordPath(configDir, record.port)
  const temp = path.join(dir, `.${record.port}.json.${process.pid}.${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(6))).toString('hex')}.tmp`)
  try {
    const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600)
    try {
      fs.writeSync(fd, `${JSON.stringify(record, null, 2)}\n`)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(temp, file)
  } catch (error) {
    fs.rmSync(temp, { force: true })
    throw error
  }
  return file
}

/**
 * Removes the record of `port` when it is still the one of `instance` (another run may have
 * replaced it since it was read). True when a record was removed.
 */
export function removeRecord(configDir: string, port: number, instance: string): boolean {
  const file = recordPath(configDir, port)
  let current: EmulatorRecord | undefined
  try {
    current = readRecord(configDir, port)
  } catch {
    return false
  }
  if (current?.instance !== instance) return false
  try {
    fs.unlinkSync(file)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}
