// The records of background emulators (src/config/emulator-records.ts): written privately and
// atomically without following a planted link, read only when they are what payfac wrote, and
// removed only when they are still the run's.
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { type EmulatorRecord, readRecord, recordPath, recordPorts, removeRecord, writeRecord } from '../../src/config/emulator-records.js'
import { makeTempConfigDir, type TempConfigDir } from '../helpers/tmp-config.js'

const dirs: TempConfigDir[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.cleanup()
})

function config(): string {
  const made = makeTempConfigDir('payfac-records-')
  dirs.push(made)
  return made.dir
}

const record = (port: number, instance = 'RunIdRunIdRunIdRunId12'): EmulatorRecord => ({
  version: 1,
  instance,
  secret: 'secret-of-the-run-secret-of-the-run-secret0',
  pid: 4242,
  host: '127.0.0.1',
  port,
  namespace: 'ci-7',
  logFile: '/tmp/4010.log',
  controlToken: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  statePath: null,
})

describe('emulator records', () => {
  it('are written 0600 in a 0700 folder, read back, listed by port, and removed only for their own run', () => {
    const dir = config()
    const file = writeRecord(dir, record(4010))
    expect(file).toBe(recordPath(dir, 4010))
    expect(lstatSync(file).mode & 0o777).toBe(0o600)
    expect(lstatSync(join(dir, 'emulators')).mode & 0o777).toBe(0o700)
    expect(readRecord(dir, 4010)).toEqual(record(4010))
    writeRecord(dir, record(4011))
    writeFileSync(join(dir, 'emulators', 'notes.json'), '{}')
    expect(recordPorts(dir)).toEqual([4010, 4011])
    expect(removeRecord(dir, 4010, 'AnotherRunAnotherRun00')).toBe(false)
    expect(readRecord(dir, 4010)).toBeDefined()
    expect(removeRecord(dir, 4010, 'RunIdRunIdRunIdRunId12')).toBe(true)
    expect(readRecord(dir, 4010)).toBeUndefined()
  })

  it('replace a planted symbolic link, never the file it points to', () => {
    const dir = config()
    mkdirSync(join(dir, 'emulators'), { mode: 0o700 })
    const target = join(dir, 'precious.txt')
    writeFileSync(target, 'keep me')
    symlinkSync(target, recordPath(dir, 4010))
    writeRecord(dir, record(4010))
    expect(readFileSync(target, 'utf8')).toBe('keep me')
    expect(lstatSync(recordPath(dir, 4010)).isSymbolicLink()).toBe(false)
    expect(readRecord(dir, 4010)?.instance).toBe('RunIdRunIdRunIdRunId12')
  })

  it('refuse fields that are not what payfac writes (exit 3), whatever else the file says', () => {
    const dir = config()
    mkdirSync(join(dir, 'emulators'), { mode: 0o700 })
    const bad: Array<[Partial<Record<keyof EmulatorRecord, unknown>>, RegExp]> = [
      [{ pid: 1 }, /process id/],
      [{ pid: 'x' }, /process id/],
      [{ host: 'evil.example' }, /address/],
      [{ logFile: 'relative.log' }, /absolute path/],
      [{ secret: 'short' }, /secret/],
      [{ version: 2 }, /version/],
    ]
    for (const [fields, problem] of bad) {
      writeFileSync(recordPath(dir, 4010), JSON.stringify({ ...record(4010), ...fields }), { mode: 0o600 })
      expect(() => readRecord(dir, 4010)).toThrow(problem)
    }
  })
})
