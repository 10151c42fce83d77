// `--state FILE`: the emulator's state kept in a JSON file across restarts.
//
// File layout: { "format": "payfac-emulator-state", "version": 1, "savedAt", "clockOffsetMs", "store" }.
// Writes are atomic: the whole state goes to a temporary file in the same folder, is flushed,
// then renamed over the old file, so a crash leaves either the old or the new state, never half.
// A file that is not JSON, not this format, or of a newer version is refused with a message
// that says so; the emulator then does not start, and so never overwrites it.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { Collection } from './collection.js'
import { MAX_STATE_BYTES, readRegularFileSync } from './read-file.js'
import { emptyStore, type Store } from './store.js'

export const STATE_FORMAT = 'payfac-emulator-state'
export const STATE_VERSION = 1

export class StateFileError extends Error {
  override name = 'StateFileError'
}

export interface LoadedState {
  store: Store
  clockOffsetMs: number
}

/** The state in `path`, or undefined when there is no such file. */
export function loadState(path: string): LoadedState | undefined {
  let text: string
  try {
    text = readRegularFileSync(path, MAX_STATE_BYTES)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new StateFileError(`Cannot read the state file ${path}: ${(error as Error).message}`)
  }
  const damaged = (why: string) =>
    new StateFileError(`The state file ${path} is damaged (${why}). It was left untouched; move it away or choose another --state file.`)
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw damaged(`not JSON: ${(error as Error).message}`)
  }
  if (!isObject(data) || data.format !== STATE_FORMAT) throw damaged(`not a ${STATE_FORMAT} file`)
  if (typeof data.version !== 'number' || !Number.isInteger(data.version) || data.version < 1) throw damaged('no valid format version')
  if (data.version > STATE_VERSION) {
    throw new StateFileError(
      `The state file ${path} was written by a newer emulator (format version ${data.version}; this one reads up to ${STATE_VERSION}). It was left untouched; upgrade payfac or choose another --state file.`,
    )
  }
  if (!isObject(data.store)) throw damaged('no "store" object')
  const store = emptyStore() as unknown as Record<string, unknown>
  for (const [name, value] of Object.entries(data.store)) {
    const expected = store[name]
    if (expected instanceof Collection) {
      if (!expected.load(value)) throw damaged(`"store.${name}" has the wrong type`)
      continue
    }
    if (expected !== undefined && Array.isArray(expected) !== Array.isArray(value)) throw damaged(`"store.${name}" has the wrong type`)
    if (!Array.isArray(value) && !isObject(value)) throw damaged(`"store.${name}" has the wrong type`)
    store[name] = value
  }
  const offset = typeof data.clockOffsetMs === 'number' && Number.isFinite(data.clockOffsetMs) ? data.clockOffsetMs : 0
  return { store: store as unknown as Store, clockOffsetMs: offset }
}

/** Writes the state to `path` atomically (temporary file in the same folder, then rename). */
export function saveState(path: string, store: Store, clockOffsetMs: number, savedAt: Date): void {
  const text = JSON.stringify({ format: STATE_FORMAT, version: STATE_VERSION, savedAt: savedAt.toISOString(), clockOffsetMs, store })
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  let fd: number | undefined
  try {
    fd = openSync(temp, 'w', 0o600)
    writeSync(fd, text)
    fsyncSync(fd)
    closeSync(fd)
    fd = undefined
    renameSync(temp, path)
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    rmSync(temp, { force: true })
    throw error
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
