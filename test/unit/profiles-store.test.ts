import fs from 'node:fs'
import path from 'node:path'
import Conf from 'conf'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/config/errors.js'
import type { Profile } from '../../src/config/profiles.js'
import { ProfileStore, defaultConfigDir, resolveConfigDir } from '../../src/config/store.js'
import { makeTempConfigDir, type TempConfigDir } from '../helpers/tmp-config.js'

const posix = process.platform !== 'win32'

function profile(overrides: Partial<Profile> = {}): Profile {
  return {
    name: 'dev',
    environment: 'sandbox',
    baseUrl: 'https://sandbox.example.com',
    credentialKind: 'merchant-secret-key',
    credential: 'sandbox_sk_devSecretValue0001',
    merchantId: 'mcht_Dev0000000000001',
    ...overrides,
  }
}

/** The ConfigError `fn` throws, or its promise rejects with. */
async function errorOf(fn: () => unknown): Promise<ConfigError> {
  try {
    await fn()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error('expected a ConfigError, nothing was thrown')
}

let tmp: TempConfigDir
let file: string
beforeEach(() => {
  tmp = makeTempConfigDir()
  file = path.join(tmp.dir, 'profiles.json')
})
afterEach(() => tmp.cleanup())

describe('ProfileStore: add, list, use, remove', () => {
  it('starts empty without creating the file', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    expect(store.list()).toEqual([])
    expect(store.activeName()).toBeUndefined()
    expect(store.path).toBe(file)
    expect(fs.existsSync(file)).toBe(false)
  })

  it('adds profiles and lists them sorted by name', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    await store.add(profile({ name: 'zeta' }))
    await store.add(profile({ name: 'alpha' }))
    expect(store.list().map((p) => p.name)).toEqual(['alpha', 'zeta'])
    expect(store.get('alpha')).toEqual(profile({ name: 'alpha' }))
    expect(store.get('missing')).toBeUndefined()
  })

  it('keeps what it wrote for the next store opened on the same directory', async () => {
    await new ProfileStore({ dir: tmp.dir }).add(profile(), { use: true })
    const again = new ProfileStore({ dir: tmp.dir })
    expect(again.activeName()).toBe('dev')
    expect(again.get('dev')).toEqual(profile())
  })

  it('refuses a duplicate name unless asked to replace', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    await store.add(profile())
    const error = await errorOf(() => store.add(profile({ baseUrl: 'https://other.example.com' })))
    expect(error.reason).toBe('duplicate-profile')
    expect(store.get('dev')?.baseUrl).toBe('https://sandbox.example.com')
    await store.add(profile({ baseUrl: 'https://other.example.com' }), { replace: true })
    expect(store.get('dev')?.baseUrl).toBe('https://other.example.com')
  })

  it('makes a profile active with use() or add({ use: true })', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    await store.add(profile({ name: 'one' }), { use: true })
    await store.add(profile({ name: 'two' }))
    expect(store.activeName()).toBe('one')
    await store.use('two')
    expect(store.activeName()).toBe('two')
    await store.use('local')
    expect(store.activeName()).toBe('local')
  })

  it('refuses to use or remove a profile that does not exist, naming the known ones', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    await store.add(profile({ name: 'one' }))
    const error = await errorOf(() => store.use('nope'))
    expect(error.reason).toBe('unknown-profile')
    expect(error.message).toContain('"nope"')
    expect(error.hint).toContain('one')
    expect(error.hint).toContain('local (built-in)')
    expect((await errorOf(() => store.remove('nope'))).reason).toBe('unknown-profile')
  })

  it('clears the active profile when it is removed, and only then', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    await store.add(profile({ name: 'one' }), { use: true })
    await store.add(profile({ name: 'two' }))
    await store.remove('two')
    expect(store.activeName()).toBe('one')
    await store.remove('one')
    expect(store.activeName()).toBeUndefined()
    expect(store.list()).toEqual([])
  })

  it('reserves the name local for the built-in profile', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    expect((await errorOf(() => store.add(profile({ name: 'local', environment: 'local' })))).reason).toBe('invalid')
    expect((await errorOf(() => store.remove('local'))).reason).toBe('invalid')
    expect(store.get('local')).toBeUndefined()
  })

  it('refuses an invalid profile before writing anything', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    const error = await errorOf(() => store.add(profile({ name: '-bad name', baseUrl: 'ftp://x' })))
    expect(error.reason).toBe('invalid')
    expect(error.message).toContain('name')
    expect(error.message).toContain('baseUrl')
    expect(fs.existsSync(file)).toBe(false)
  })

  it('refuses a live key on a sandbox profile before writing anything', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    const error = await errorOf(() => store.add(profile({ credential: 'live_sk_realSecretValue0001' })))
    expect(error.reason).toBe('key-environment-mismatch')
    expect(error.message).not.toContain('realSecretValue')
    expect(fs.existsSync(file)).toBe(false)
  })
})

describe.runIf(posix)('ProfileStore: file and directory permissions', () => {
  it('writes the file with mode 0600', async () => {
    await new ProfileStore({ dir: tmp.dir }).add(profile())
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
  })

  it('creates a missing directory with mode 0700', async () => {
    const dir = path.join(tmp.dir, 'nested', 'payfac')
    await new ProfileStore({ dir }).add(profile())
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700)
    expect(fs.statSync(path.join(dir, 'profiles.json')).mode & 0o777).toBe(0o600)
  })

  it('refuses a file readable by others, for reads and writes, with the chmod that fixes it', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    await store.add(profile({ name: 'one' }))
    fs.chmodSync(file, 0o644)
    for (const attempt of [() => new ProfileStore({ dir: tmp.dir }), () => store.list(), () => store.add(profile({ name: 'two' }))]) {
      const error = await errorOf(attempt)
      expect(error.reason).toBe('exposed-store')
      expect(error.message).toContain('0644')
      expect(error.hint).toBe(`Run: chmod 600 ${file}`)
    }
    expect(fs.statSync(file).mode & 0o777).toBe(0o644)
    fs.chmodSync(file, 0o600)
    expect(new ProfileStore({ dir: tmp.dir }).list().map((p) => p.name)).toEqual(['one'])
  })

  it('refuses a folder others can open, and names both fixes when both are loose', async () => {
    await new ProfileStore({ dir: tmp.dir }).add(profile())
    fs.chmodSync(tmp.dir, 0o755)
    expect((await errorOf(() => new ProfileStore({ dir: tmp.dir }))).hint).toBe(`Run: chmod 700 ${tmp.dir}`)
    fs.chmodSync(file, 0o640)
    expect((await errorOf(() => new ProfileStore({ dir: tmp.dir }))).hint).toBe(`Run: chmod 700 ${tmp.dir} && chmod 600 ${file}`)
  })

  it('narrows a folder that existed before the store to 0700 when it writes the file', async () => {
    fs.chmodSync(tmp.dir, 0o755)
    await new ProfileStore({ dir: tmp.dir }).add(profile())
    expect(fs.statSync(tmp.dir).mode & 0o777).toBe(0o700)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
  })

  it('takes over a lock left by a payfac that died (its time no longer moves), and leaves no lock behind', async () => {
    const lock = `${file}.lock`
    const old = new Date(Date.now() - 60_000)
    fs.mkdirSync(lock)
    fs.utimesSync(lock, old, old)
    await new ProfileStore({ dir: tmp.dir }).add(profile())
    expect(fs.readdirSync(tmp.dir)).toEqual(['profiles.json'])
  })

  it('takes over the lock file of an older payfac that died, and leaves no lock behind', async () => {
    const lock = `${file}.lock`
    const old = new Date(Date.now() - 60_000)
    fs.writeFileSync(lock, `999999999 ${old.getTime()}\n`)
    fs.utimesSync(lock, old, old)
    await new ProfileStore({ dir: tmp.dir }).add(profile())
    expect(fs.readdirSync(tmp.dir)).toEqual(['profiles.json'])
  })

  it('waits for a lock that is held and gives up with a ConfigError, the lock left to its holder', async () => {
    const { withStoreLock } = await import('../../src/config/store-lock.js')
    const lock = `${file}.lock`
    fs.mkdirSync(lock)
    let clock = 0
    const naps: number[] = []
    const wait = { waitMs: 15_000, now: () => clock, sleep: async (ms: number) => void naps.push(ms, (clock += ms)) }
    let ran = false
    const error = await errorOf(() => withStoreLock(file, () => (ran = true), wait))
    expect(error.message).toContain('locked by another payfac')
    expect(error.message).toContain(lock)
    expect(ran).toBe(false)
    expect(naps.length).toBeGreaterThan(3)
    expect(fs.statSync(lock).isDirectory()).toBe(true)
  })

  it('keeps every profile when eight changes race in one process (each waits for the lock)', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `p${i}`)
    await Promise.all(names.map((name) => new ProfileStore({ dir: tmp.dir }).add(profile({ name }))))
    expect(new ProfileStore({ dir: tmp.dir }).list().map((p) => p.name)).toEqual(names)
    expect(fs.readdirSync(tmp.dir)).toEqual(['profiles.json'])
  })

  it('writes plain JSON as before (two-space indent, final newline) and nothing of conf own', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    await store.add(profile(), { use: true })
    const expected = { version: 1, profiles: { dev: profile() }, active: 'dev' }
    expect(fs.readFileSync(file, 'utf8')).toBe(`${JSON.stringify(expected, null, 2)}\n`)
  })

  it('keeps top-level keys it does not know', async () => {
    fs.writeFileSync(file, JSON.stringify({ version: 1, profiles: {}, editor: 'vim' }), { mode: 0o600 })
    await new ProfileStore({ dir: tmp.dir }).add(profile())
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).editor).toBe('vim')
  })

  it('removes the temporary files of a write that was killed midway (they hold credentials)', async () => {
    const leftByConf = path.join(tmp.dir, 'profiles.json.tmp-1764000000a1b2c3')
    const notOurs = path.join(tmp.dir, 'profiles.json.tmp-notours')
    fs.writeFileSync(leftByConf, '{"version": 1, "profiles": {', { mode: 0o600 })
    fs.writeFileSync(notOurs, 'kept', { mode: 0o600 })
    await new ProfileStore({ dir: tmp.dir }).add(profile())
    expect(fs.readdirSync(tmp.dir).sort()).toEqual(['profiles.json', 'profiles.json.tmp-notours'])
  })

  it('through a symbolic link replaces the target, 0600, and keeps the link', async () => {
    const real = path.join(tmp.dir, 'dotfiles')
    const dir = path.join(tmp.dir, 'conf')
    fs.mkdirSync(real, { mode: 0o700 })
    fs.mkdirSync(dir, { mode: 0o700 })
    fs.writeFileSync(path.join(real, 'profiles.json'), JSON.stringify({ version: 1, profiles: {} }), { mode: 0o600 })
    fs.symlinkSync(path.join(real, 'profiles.json'), path.join(dir, 'profiles.json'))
    await new ProfileStore({ dir }).add(profile())
    expect(fs.lstatSync(path.join(dir, 'profiles.json')).isSymbolicLink()).toBe(true)
    expect(JSON.parse(fs.readFileSync(path.join(real, 'profiles.json'), 'utf8')).profiles.dev).toEqual(profile())
    expect(fs.statSync(path.join(real, 'profiles.json')).mode & 0o777).toBe(0o600)
    expect(fs.readdirSync(real)).toEqual(['profiles.json'])
  })

  it('replaces the file by rename (a new inode) and leaves no temporary file behind', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    await store.add(profile({ name: 'one' }))
    const before = fs.statSync(file).ino
    await store.add(profile({ name: 'two' }))
    expect(fs.statSync(file).ino).not.toBe(before)
    expect(fs.readdirSync(tmp.dir)).toEqual(['profiles.json'])
  })
})

describe('ProfileStore: a damaged file is reported and never touched', () => {
  const cases: Array<[string, string]> = [
    ['not JSON', '{"version": 1, "profiles": {"dev": {"credential": "sandbox_sk_hiddenSecret99"'],
    ['an empty file', ''],
    ['JSON null', 'null'],
    ['a JSON array', '[1, 2]'],
    ['the wrong version', '{"version": 2, "profiles": {}}'],
    ['profiles of the wrong type', '{"version": 1, "profiles": []}'],
    [
      'a profile missing its credential',
      '{"version": 1, "profiles": {"dev": {"name": "dev", "environment": "sandbox", "baseUrl": "https://x.example", "credentialKind": "merchant-secret-key"}}}',
    ],
    ['a profile stored under another name', JSON.stringify({ version: 1, profiles: { dev: { ...profile(), name: 'prod' } } })],
    ['an active name with no profile', JSON.stringify({ version: 1, active: 'gone', profiles: {} })],
  ]

  it.each(cases)('opening a store over %s throws ConfigError naming the file, bytes unchanged', async (_label, text) => {
    fs.writeFileSync(file, text, { mode: 0o600 })
    const error = await errorOf(() => new ProfileStore({ dir: tmp.dir }))
    expect(error.reason).toBe('damaged-store')
    expect(error.message).toContain(file)
    expect(error.hint).toMatch(/move it aside/i)
    expect(error.message).not.toContain('hiddenSecret')
    expect(fs.readFileSync(file, 'utf8')).toBe(text)
  })

  it.each(cases)('a store whose file became %s refuses every read and write, bytes unchanged', async (_label, text) => {
    const store = new ProfileStore({ dir: tmp.dir })
    await store.add(profile(), { use: true })
    fs.writeFileSync(file, text)
    const attempts: Array<() => unknown> = [
      () => store.list(),
      () => store.get('dev'),
      () => store.activeName(),
      () => store.add(profile({ name: 'other' })),
      () => store.add(profile(), { replace: true }),
      () => store.use('local'),
      () => store.remove('dev'),
    ]
    for (const attempt of attempts) {
      expect((await errorOf(attempt)).reason).toBe('damaged-store')
      expect(fs.readFileSync(file, 'utf8')).toBe(text)
    }
  })

  it('conf never clears a file it cannot parse, even when the file went bad after payfac read it', async () => {
    const { changeStore } = await import('../../src/config/store-write.js')
    const text = '{"version": 1, "profiles": {broken'
    fs.writeFileSync(file, text, { mode: 0o600 })
    const attempt = changeStore({
      dir: tmp.dir,
      file,
      // As if the file was sound when payfac read it, and damaged by hand before conf's own read.
      read: () => ({ version: 1, profiles: {} }),
      parse: (raw) => JSON.parse(raw),
      change: (data) => ({ ...data, active: 'local' }),
    })
    const error = await errorOf(() => attempt)
    expect(`${error.message} ${error.hint}`).not.toContain('broken')
    expect(fs.readFileSync(file, 'utf8')).toBe(text)
    expect(fs.readdirSync(tmp.dir)).toEqual(['profiles.json'])
  })

  it('does not quote file contents in the message', async () => {
    fs.writeFileSync(file, 'sandbox_sk_hiddenSecret99 is not json')
    const error = await errorOf(() => new ProfileStore({ dir: tmp.dir }))
    expect(`${error.message} ${error.hint}`).not.toContain('hiddenSecret')
  })
})

describe('where the store lives', () => {
  it('uses options.dir over PAYFAC_CONFIG_DIR', async () => {
    expect(resolveConfigDir({ dir: tmp.dir, env: { PAYFAC_CONFIG_DIR: '/elsewhere' } })).toBe(tmp.dir)
  })

  it('uses PAYFAC_CONFIG_DIR when no dir is given', async () => {
    const store = new ProfileStore({ env: { PAYFAC_CONFIG_DIR: tmp.dir } })
    expect(store.path).toBe(file)
  })

  it("falls back to conf's own default directory for the project 'payfac'", () => {
    const xdg = path.join(tmp.dir, 'xdg')
    const saved = process.env.XDG_CONFIG_HOME
    process.env.XDG_CONFIG_HOME = xdg
    try {
      const reference = new Conf({ projectName: 'payfac' })
      expect(resolveConfigDir({ env: { XDG_CONFIG_HOME: xdg } })).toBe(path.dirname(reference.path))
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME
      else process.env.XDG_CONFIG_HOME = saved
    }
  })

  it('knows the macOS and Windows defaults', async () => {
    expect(defaultConfigDir({}, 'darwin', '/Users/ann')).toBe(path.join('/Users/ann', 'Library', 'Preferences', 'payfac-nodejs'))
    expect(defaultConfigDir({ APPDATA: 'C:\\AppData' }, 'win32', 'C:\\Users\\ann')).toBe(path.join('C:\\AppData', 'payfac-nodejs', 'Config'))
  })
})
