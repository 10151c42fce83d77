// What `payfac emulator status`, `wait` and `stop` do, from their flags: the records of the
// config folder (PAYFAC_CONFIG_DIR or the system's), checked by control.ts before anything is
// done. Notes go to stderr; the commands print data only.
import process from 'node:process'

import { recordUrl } from '../../config/emulator-records.js'
import { resolveConfigDir } from '../../config/paths.js'
import type { BackgroundEmulatorRow } from '../../output/views/emulator.js'
import { RefusedError, UnavailableError } from '../errors/index.js'
import { inspectRecords, onlyOne, type StopHow, stopRun, tailHint, waitForRun, waitForUrl } from './control.js'

const note = (line: string) => process.stderr.write(`${line}\n`)

const nothing = (port: number | undefined) =>
  new RefusedError(
    `No emulator started with --detach is running${port === undefined ? '' : ` on port ${port}`}`,
    'Start one with: payfac emulator start --detach',
  )

/** `emulator status`: every background emulator (or the one on `port`) that runs; stale records are removed and said. */
export async function backgroundRows(port: number | undefined): Promise<BackgroundEmulatorRow[]> {
  const { live } = await inspectRecords(resolveConfigDir(), port, note)
  return live.map(({ record, health }) => ({
    port: record.port,
    baseUrl: recordUrl(record),
    pid: record.pid,
    status: health,
    namespace: record.namespace,
    logFile: record.logFile,
    startedAt: record.startedAt,
  }))
}

export interface Stopped {
  port: number
  pid: number
  how: StopHow
  logFile: string
}

/** `emulator stop`: the one background emulator (or the one on `port`), asked to stop, then by signal. */
export async function stopBackground(port: number | undefined, timeoutMs: number): Promise<Stopped> {
  const configDir = resolveConfigDir()
  const one = onlyOne((await inspectRecords(configDir, port, note)).live, 'stop')
  if (!one) throw nothing(port)
  const how = await stopRun(configDir, one, timeoutMs)
  const { record } = one
  const way = how === 'asked' ? '' : how === 'gone' ? ' (it ended on its own)' : ` (with ${how}: it did not stop when asked)`
  note(`Stopped the emulator on port ${record.port} (process ${record.pid})${way}; its log: ${record.logFile}`)
  return { port: record.port, pid: record.pid, how, logFile: record.logFile }
}

export interface Waited {
  baseUrl: string
  port: number | null
  pid: number | null
}

/**
 * `emulator wait`: until the background emulator (the one on `port`, or the only one) answers;
 * with no record at all, until an emulator answers at the profile's base URL (one started with
 * `emulator start &`, or a container).
 */
export async function waitBackground(options: {
  port: number | undefined
  namespace: string | undefined
  timeoutMs: number
  baseUrl: () => Promise<string>
}): Promise<Waited> {
  const configDir = resolveConfigDir()
  const { live, stale } = await inspectRecords(configDir, options.port, note)
  const one = onlyOne(live, 'wait for')
  if (one) {
    await waitForRun(configDir, one.record, options.timeoutMs)
    return { baseUrl: recordUrl(one.record), port: one.record.port, pid: one.record.pid }
  }
  // A run that was started and is gone will not answer however long one waits.
  const ended = stale[0]
  if (ended)
    throw new UnavailableError(`The emulator started on port ${ended.port} is no longer running`, `See its log: ${ended.logFile}${tailHint(ended.logFile)}`)
  if (options.port !== undefined) throw nothing(options.port)
  const baseUrl = await options.baseUrl()
  await waitForUrl(baseUrl, options.namespace, options.timeoutMs)
  return { baseUrl, port: null, pid: null }
}
