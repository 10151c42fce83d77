// The journal of `payto pay` (config/journal.ts): where it lives, atomic 0600 writes, damaged
// files refused, and how inputs are compared.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { checkJournalPermissions } from '../../src/cli/diagnose/checks.js'
import { ConfigError } from '../../src/config/errors.js'
import { checkPrivateFolders, readPrivateFile } from '../../src/config/fs-check.js'
import { LOCK_PAUSE_MS, takeLock } from '../../src/config/op-lock.js'
import { checkPrivate } from '../../src/config/store-lock.js'
import {
  changedInputs,
  journalFileName,
  journalPath,
  journalScope,
  journalKey,
  maskAccount,
  newPayToPayRun,
  protectAccount,
  readPayToPayRun,
  writePayToPayRun,
  type PayToPayInputs,
} from '../../src/config/journal.js'
import { makeTempConfigDir } from '../helpers/tmp-config.js'

const key = Buffer.alloc(32, 7)
const inputs: PayToPayInputs = {
  customerName: 'Jo Citizen',
  account: protectAccount(key, 'Bban', '062000 12345678'),
  amount: { minorCurrencyUnits: 1250, currency: 'AUD' },
  purpose: null,
  description: null,
}

let cleanup: (() => void) | undefined
afterEach(() => cleanup?.())

function tempDir(): string {
  const temp = makeTempConfigDir('payfac-journal-')
  cleanup = temp.cleanup
  return temp.dir
}

describe('where a journal lives', () => {
  it('is <config>/journal/<profile>/<reference>.json', () => {
    expect(journalPath('/cfg', journalScope('dev', 'https://sandbox.example.com'), 'inv-1001')).toBe(path.join('/cfg', 'journal', 'dev', 'inv-1001.json'))
  })

  it('uses a hash of the base URL when no profile is in use, the same with or without a trailing slash', () => {
    const scope = journalScope(undefined, 'http://127.0.0.1:4010')
    expect(scope).toMatch(/^url-[0-9a-f]{16}$/)
    expect(journalScope(undefined, 'http://127.0.0.1:4010/')).toBe(scope)
    expect(journalScope(undefined, 'http://127.0.0.1:4011')).not.toBe(scope)
  })

  it('keeps a plain reference as the file name and makes any other one safe and distinct', () => {
    expect(journalFileName('inv-1001')).toBe('inv-1001.json')
    const odd = journalFileName('../../etc/passwd')
    expect(odd).not.toContain('/')
    expect(odd).toMatch(/^etc_passwd-[0-9a-f]{12}\.json$/)
    expect(journalFileName('order 1')).not.toBe(journalFileName('order_1'))
    expect(journalFileName('..')).toMatch(/^[0-9a-f]{12}\.json$/)
  })
})

describe('reading and writing', () => {
  it('reads nothing when there is no journal', () => {
    expect(readPayToPayRun(path.join(tempDir(), 'journal', 'x', 'none.json'))).toBeUndefined()
  })

  it('writes atomically with mode 0600 in a 0700 folder, and reads back what it wrote', () => {
    const file = journalPath(tempDir(), 'local', 'inv-1')
    const run = newPayToPayRun('inv-1', inputs, new Date('2026-01-01T00:00:00Z'))
    run.agreement = { state: 'sent', token: 'ptagr_1', approved: false, at: '2026-01-01T00:00:01.000Z' }
    const saved = writePayToPayRun(file, run, new Date('2026-01-01T00:00:02Z'))
    expect(saved.updatedAt).toBe('2026-01-01T00:00:02.000Z')
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700)
    expect(fs.readdirSync(path.dirname(file))).toEqual(['inv-1.json'])
    expect(readPayToPayRun(file)).toEqual(saved)
    expect(saved.runId).toMatch(/^run_/)
  })

  it('refuses a damaged journal with its path (exit 3) and leaves it as it is', () => {
    const file = journalPath(tempDir(), 'local', 'inv-2')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, '{"format": "payfac-journal", "version": 1, "flow": "payto-pay"')
    expect(() => readPayToPayRun(file)).toThrow(ConfigError)
    expect(() => readPayToPayRun(file)).toThrow(/inv-2\.json is damaged: it is not valid JSON/)
    fs.writeFileSync(file, JSON.stringify({ format: 'payfac-journal', version: 2, flow: 'payto-pay', reference: 'inv-2' }))
    expect(() => readPayToPayRun(file)).toThrow(/is damaged: runId/)
    expect(fs.readFileSync(file, 'utf8')).toContain('inv-2')
  })

  it('refuses a journal of another version', () => {
    const file = journalPath(tempDir(), 'local', 'inv-3')
    const run = writePayToPayRun(file, newPayToPayRun('inv-3', inputs))
    fs.writeFileSync(file, JSON.stringify({ ...run, version: 3 }))
    expect(() => readPayToPayRun(file)).toThrow(/damaged: version/)
  })
})

describe('the account at rest', () => {
  it('has a folder key that another run never finds half-written (it appears whole, or not at all)', () => {
    const dir = tempDir()
    const keyFile = path.join(dir, 'journal-key')
    const seen: string[] = []
    // Another run reading at the moment the key's name first exists (and before this run writes into it).
    const lookAsAnotherRun = () => {
      try {
        seen.push(journalKey(dir).toString('hex'))
      } catch (error) {
        seen.push(`error: ${(error as Error).message}`)
      }
    }
    const realWrite = fs.writeFileSync
    const write = vi.spyOn(fs, 'writeFileSync').mockImplementation((target, data, options) => {
      if (target === keyFile) fs.closeSync(fs.openSync(keyFile, 'wx', 0o600)) // open(O_CREAT|O_EXCL) comes before the write
      if (target === keyFile) lookAsAnotherRun()
      return realWrite(target, data, options)
    })
    const realLink = fs.linkSync
    const link = vi.spyOn(fs, 'linkSync').mockImplementation((from, to) => {
      realLink(from, to)
      if (to === keyFile) lookAsAnotherRun()
    })
    try {
      const key = journalKey(dir)
      expect(seen).toEqual([key.toString('hex')])
    } finally {
      write.mockRestore()
      link.mockRestore()
    }
  })

  it('is masked and hashed under the folder key: never the full number, and the same number matches', () => {
    const dir = tempDir()
    const folderKey = journalKey(dir)
    expect(fs.statSync(path.join(dir, 'journal-key')).mode & 0o777).toBe(0o600)
    expect(journalKey(dir)).toEqual(folderKey)
    const account = protectAccount(folderKey, 'Bban', '062-000 12345678')
    expect(account.masked).toBe('***678')
    expect(JSON.stringify(account)).not.toMatch(/12345678|062-000/)
    expect(protectAccount(folderKey, 'Bban', '062-000 12345678')).toEqual(account)
    expect(protectAccount(folderKey, 'Bban', '062-000 12345679').hash).not.toBe(account.hash)
    expect(protectAccount(Buffer.alloc(32, 1), 'Bban', '062-000 12345678').hash).not.toBe(account.hash)
    expect(maskAccount('Email', 'jo@example.com')).toBe('j***om')
  })

  it('a format-1 journal (account as sent) is read with the account protected, so its run resumes', () => {
    const file = journalPath(tempDir(), 'local', 'inv-old')
    const run = writePayToPayRun(file, newPayToPayRun('inv-old', inputs))
    fs.writeFileSync(file, JSON.stringify({ ...run, version: 1, inputs: { ...run.inputs, account: { type: 'Bban', value: '062000 12345678' } } }))
    const read = readPayToPayRun(file, key)
    expect(read?.version).toBe(2)
    expect(read && changedInputs(read.inputs, inputs)).toEqual([])
    expect(() => readPayToPayRun(file)).toThrow(/older payfac \(format 1\)/)
  })
})

describe('changedInputs', () => {
  it('is empty for the same inputs and names each one that changed', () => {
    expect(changedInputs(inputs, { ...inputs })).toEqual([])
    expect(changedInputs(inputs, { ...inputs, amount: { minorCurrencyUnits: 1251, currency: 'AUD' } })).toEqual(['amount'])
    expect(changedInputs(inputs, { ...inputs, account: protectAccount(key, 'Phone', '+61412345678'), customerName: 'J C' })).toEqual(['name', 'account'])
    expect(changedInputs(inputs, { ...inputs, purpose: 'Rent', description: 'May' })).toEqual(['purpose', 'description'])
  })
})

describe('the journal fails closed (fs-check)', () => {
  const hint = { what: 'operation record', check: 'payfac transactions get tran_1' }
  const cases: Array<[string, (file: string) => void, RegExp]> = [
    ['a dangling symlink', (file) => fs.symlinkSync(`${file}.gone`, file), /symbolic link/],
    [
      'a symlink to a private file',
      (file) => {
        fs.writeFileSync(`${file}.real`, '{}', { mode: 0o600 })
        fs.symlinkSync(`${file}.real`, file)
      },
      /symbolic link/,
    ],
    ['a FIFO', (file) => execFileSync('mkfifo', [file]), /FIFO/],
    ['a folder', (file) => fs.mkdirSync(file), /folder/],
    ['a device', (file) => fs.symlinkSync('/dev/null', file), /symbolic link/],
    [
      'a world-writable file',
      (file) => {
        fs.writeFileSync(file, '{}')
        fs.chmodSync(file, 0o666)
      },
      /others can write it \(mode 0666\)/,
    ],
    [
      'a group-writable file',
      (file) => {
        fs.writeFileSync(file, '{}')
        fs.chmodSync(file, 0o660)
      },
      /others can write it \(mode 0660\)/,
    ],
  ]
  it.each(cases)('%s is damaged (exit 3), with the check in its hint', (_what, make, problem) => {
    const file = path.join(tempDir(), 'record.json')
    make(file)
    let error: unknown
    try {
      readPrivateFile(file, hint)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).reason).toBe('damaged-store')
    expect((error as ConfigError).message).toMatch(problem)
    expect((error as ConfigError).hint).toContain('payfac transactions get tran_1')
  })

  it('a file of another user is damaged (root can make one)', () => {
    if (process.getuid?.() !== 0) return
    const file = path.join(tempDir(), 'record.json')
    fs.writeFileSync(file, '{}', { mode: 0o600 })
    fs.chownSync(file, 4242, 4242)
    expect(() => readPrivateFile(file, hint)).toThrow(/belongs to user id 4242/)
  })

  it('reads a private regular file, and nothing when there is none', () => {
    const file = path.join(tempDir(), 'record.json')
    expect(readPrivateFile(file, hint)).toBeUndefined()
    fs.writeFileSync(file, '{"a":1}', { mode: 0o600 })
    expect(readPrivateFile(file, hint)).toBe('{"a":1}')
  })

  it('refuses a journal folder others can write or another user owns, and a symlinked one', () => {
    const root = tempDir()
    const dir = path.join(root, 'operations', 'abc')
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    expect(() => checkPrivateFolders(root, dir, 'operation journal')).not.toThrow()
    fs.chmodSync(path.join(root, 'operations'), 0o777)
    expect(() => checkPrivateFolders(root, dir, 'operation journal')).toThrow(/others can write in it \(mode 0777\)/)
    fs.chmodSync(path.join(root, 'operations'), 0o700)
    if (process.getuid?.() === 0) {
      fs.chownSync(dir, 4242, 4242)
      expect(() => checkPrivateFolders(root, dir, 'operation journal')).toThrow(/belongs to user id 4242/)
      fs.chownSync(dir, 0, 0)
    }
    fs.rmSync(dir, { recursive: true })
    fs.symlinkSync(root, dir)
    expect(() => checkPrivateFolders(root, dir, 'operation journal')).toThrow(/symbolic link/)
  })

  it('the profile store of another user is refused with the chown that fixes it', () => {
    const dir = tempDir()
    const file = path.join(dir, 'profiles.json')
    fs.writeFileSync(file, '{}', { mode: 0o600 })
    const me = fs.statSync(file).uid
    expect(() => checkPrivate(dir, file, 'linux', me)).not.toThrow()
    expect(() => checkPrivate(dir, file, 'linux', me + 1)).toThrow(/belongs to user id/)
    try {
      checkPrivate(dir, file, 'linux', me + 1)
    } catch (error) {
      expect((error as ConfigError).hint).toContain(`chown ${me + 1}`)
    }
  })

  it('doctor reports a journal folder others can write, with the chmod', () => {
    const dir = tempDir()
    expect(checkJournalPermissions(dir).ok).toBe(true)
    const folder = path.join(dir, 'operations', 'abc')
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 })
    fs.writeFileSync(path.join(folder, 'refund-1.json'), '{}', { mode: 0o600 })
    expect(checkJournalPermissions(dir).ok).toBe(true)
    fs.chmodSync(path.join(folder, 'refund-1.json'), 0o666)
    expect(checkJournalPermissions(dir)).toMatchObject({ ok: false, fix: expect.stringContaining(`chmod 600 '${path.join(folder, 'refund-1.json')}'`) })
  })
})

describe('the lock of an operation', () => {
  it('a second taker waits (said once) and gets it when the first releases', async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-1.json')
    const first = await takeLock(file, { waitMs: 1000, what: 'refund', onWait: () => undefined })
    expect(first.waited).toBe(false)
    let said = 0
    let releaseFirst: (() => void) | undefined
    const second = takeLock(file, {
      waitMs: 60_000,
      what: 'refund',
      onWait: () => (said += 1),
      sleep: async () => releaseFirst?.(),
    })
    releaseFirst = () => void first.release()
    const got = await second
    expect(got.waited).toBe(true)
    expect(said).toBe(1)
    await got.release()
  })

  it('a lock left by a process that died (its time not refreshed) is taken over', async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-2.json')
    fs.mkdirSync(`${file}.lock`, { recursive: true })
    const old = new Date(Date.now() - 60_000)
    fs.utimesSync(`${file}.lock`, old, old)
    const got = await takeLock(file, { waitMs: 0, what: 'refund', onWait: () => undefined })
    expect(got.waited).toBe(false)
    await got.release()
  })

  it('a holder paused past half the stale time no longer counts its lock as held (a second run may have taken it over)', async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-4.json')
    let clock = 1_000_000
    const held = await takeLock(file, { waitMs: 0, what: 'refund', onWait: () => undefined, now: () => clock })
    expect(held.lost()).toBeUndefined()
    clock += LOCK_PAUSE_MS + 1
    expect(held.lost()).toMatch(/paused for \d+ s/)
    await held.release()
  })

  it('a lock folder made anew by another run (a takeover) is no longer held', async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-5.json')
    const held = await takeLock(file, { waitMs: 0, what: 'refund', onWait: () => undefined })
    expect(held.lost()).toBeUndefined()
    fs.rmdirSync(`${file}.lock`)
    fs.mkdirSync(`${file}.lock`)
    expect(held.lost()).toMatch(/taken over/)
    await held.release()
  })

  it("a holder that was taken over leaves the other run's lock folder in place when it releases", async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-6.json')
    const held = await takeLock(file, { waitMs: 0, what: 'refund', onWait: () => undefined })
    // Another run takes the lock over: the folder made anew.
    fs.rmdirSync(`${file}.lock`)
    fs.mkdirSync(`${file}.lock`)
    await held.release()
    expect(fs.existsSync(`${file}.lock`)).toBe(true)
    // A holder that was not taken over removes its own on release.
    fs.rmdirSync(`${file}.lock`)
    const next = await takeLock(file, { waitMs: 0, what: 'refund', onWait: () => undefined })
    expect(next.lost()).toBeUndefined()
    await next.release()
    expect(fs.existsSync(`${file}.lock`)).toBe(false)
  })

  it('a lock whose time is ahead of the clock (left before the clock was set back) is taken over, not waited for', async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-7.json')
    fs.mkdirSync(`${file}.lock`, { recursive: true })
    const ahead = new Date(Date.now() + 3_600_000)
    fs.utimesSync(`${file}.lock`, ahead, ahead)
    const got = await takeLock(file, { waitMs: 0, what: 'refund', onWait: () => undefined })
    expect(got.waited).toBe(false)
    expect(got.lost()).toBeUndefined()
    await got.release()
  })

  it('a lock still held when the wait runs out is an error naming what is locked', async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-3.json')
    const held = await takeLock(file, { waitMs: 0, what: 'refund', onWait: () => undefined })
    let clock = 0
    await expect(
      takeLock(file, { waitMs: 100, what: 'refund of 1.00 AUD', onWait: () => undefined, now: () => clock, sleep: async () => void (clock += 60) }),
    ).rejects.toThrow(/Another payfac run of refund of 1.00 AUD was still in flight/)
    await held.release()
  })
})
