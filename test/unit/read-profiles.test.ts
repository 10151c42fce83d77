// The profile store as commands read it to resolve their settings: it sees what a change wrote,
// reports a damaged or unreadable file, and opening it creates or changes nothing.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/config/errors.js'
import { ProfileStore } from '../../src/config/store.js'
import { makeTempConfigDir, type TempConfigDir } from '../helpers/tmp-config.js'

let tmp: TempConfigDir
beforeEach(() => {
  tmp = makeTempConfigDir()
})
afterEach(() => tmp.cleanup())

const dev = {
  name: 'dev',
  environment: 'sandbox' as const,
  baseUrl: 'https://sandbox.example.com',
  credentialKind: 'merchant-secret-key' as const,
  credential: 'sandbox_sk_devSecretValue0001',
}

describe('reading profiles to resolve settings', () => {
  it('sees no profiles, and creates nothing, where there is no store yet', () => {
    const dir = path.join(tmp.dir, 'not-yet')
    const profiles = new ProfileStore({ dir })
    expect(profiles.list()).toEqual([])
    expect(profiles.activeName()).toBeUndefined()
    expect(fs.existsSync(dir)).toBe(false)
  })

  it('sees what the store wrote: every profile, sorted, and the active one', async () => {
    const store = new ProfileStore({ dir: tmp.dir })
    await store.add({ ...dev, name: 'zeta' })
    await store.add(dev, { use: true })
    const profiles = new ProfileStore({ dir: tmp.dir })
    expect(profiles.list()).toEqual(store.list())
    expect(profiles.get('dev')).toEqual(store.get('dev'))
    expect(profiles.get('nope')).toBeUndefined()
    expect(profiles.activeName()).toBe('dev')
    expect(profiles.path).toBe(store.path)
  })

  it('follows PAYFAC_CONFIG_DIR like the store', async () => {
    await new ProfileStore({ dir: tmp.dir }).add(dev, { use: true })
    expect(new ProfileStore({ env: { PAYFAC_CONFIG_DIR: tmp.dir } }).activeName()).toBe('dev')
  })

  it('reports a damaged store by name, without quoting it, and leaves it as it was', () => {
    const file = path.join(tmp.dir, 'profiles.json')
    const text = '{"version":1,"profiles":{"dev":{"credential":"sandbox_sk_secretInside'
    fs.writeFileSync(file, text, { mode: 0o600 })
    const error = (() => {
      try {
        new ProfileStore({ dir: tmp.dir })
      } catch (e) {
        return e as ConfigError
      }
      throw new Error('expected a ConfigError')
    })()
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.reason).toBe('damaged-store')
    expect(error.message).toContain(file)
    expect(error.message).not.toContain('secretInside')
    expect(fs.readFileSync(file, 'utf8')).toBe(text)
  })

  it('refuses a store whose content does not have the store shape', () => {
    fs.writeFileSync(path.join(tmp.dir, 'profiles.json'), JSON.stringify({ version: 1, profiles: { dev: { name: 'dev' } } }), { mode: 0o600 })
    expect(() => new ProfileStore({ dir: tmp.dir })).toThrow(/damaged/)
  })
})
