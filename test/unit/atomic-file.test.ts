// Small private files (profiles, journal): replaced atomically, a symbolic link kept, stale
// temporary files of dead processes removed, a full disk said in one line.
import { spawnSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { describeError } from '../../src/cli/errors/exit-codes.js'
import { FileWriteError, writeJsonAtomic } from '../../src/config/atomic-file.js'

const root = mkdtempSync(join(tmpdir(), 'payfac-atomic-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('writeJsonAtomic', () => {
  it('writes 0600 JSON, and through a symbolic link replaces the target, the link kept', () => {
    const real = join(root, 'dotfiles')
    const conf = join(root, 'conf')
    mkdirSync(real)
    mkdirSync(conf)
    writeFileSync(join(real, 'profiles.json'), '{}')
    symlinkSync(join(real, 'profiles.json'), join(conf, 'profiles.json'))
    writeJsonAtomic(join(conf, 'profiles.json'), { a: 1 })
    expect(lstatSync(join(conf, 'profiles.json')).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(join(real, 'profiles.json'), 'utf8'))).toEqual({ a: 1 })
    expect(statSync(join(real, 'profiles.json')).mode & 0o777).toBe(0o600)
  })

  it('removes the stale temporary files of a process that no longer runs', () => {
    const dir = join(root, 'stale')
    mkdirSync(dir)
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number
    const stale = join(dir, `.journal.json.${dead}.abcd1234.tmp`)
    const mine = join(dir, `.journal.json.${process.pid}.abcd1234.tmp`)
    const old = new Date(Date.now() - 60_000)
    for (const file of [stale, mine]) {
      writeFileSync(file, '{')
      utimesSync(file, old, old)
    }
    writeJsonAtomic(join(dir, 'journal.json'), [])
    expect(existsSync(stale)).toBe(false)
    expect(existsSync(mine)).toBe(true)
  })

  it('a full disk is one line, exit 1, not "a bug"', () => {
    const error = new FileWriteError('/home/me/.config/payfac/profiles.json', Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }))
    const report = describeError(error)
    expect(report.code).toBe(1)
    expect(report.message).toBe('Could not save /home/me/.config/payfac/profiles.json: no space left on the device (ENOSPC); the previous version is kept')
    expect(report.hint).toBeUndefined()
  })
})
