// Where a profile's secret is kept (the file, the OS keychain, a command): the store's schema and
// its fast check accept each, old stores still load, one place only; resolution asks for a
// keychain or command secret only when it is the one used; a command line is split without a shell.
import { describe, expect, it } from 'vitest'

import { splitCommand } from '../../src/config/credential-command.js'
import { ConfigError } from '../../src/config/errors.js'
import { soundStore, storeSchema, type Profile } from '../../src/config/profiles.js'
import { pendingSecret, resolveSettings, type ProfileSource } from '../../src/config/resolve.js'

const REF = { service: 'payfac', account: 'vault#0a1b2c3d' }
const FILE: Profile = {
  name: 'file',
  environment: 'sandbox',
  baseUrl: 'https://sb.example.com',
  credentialKind: 'merchant-secret-key',
  credential: 'sandbox_sk_fileSecret0001',
}
const VAULT: Profile = {
  name: 'vault',
  environment: 'production',
  baseUrl: 'https://api.example.com',
  credentialKind: 'merchant-secret-key',
  credentialKeychain: REF,
  credentialMasked: 'live_sk_…0002',
}
const CMD: Profile = {
  name: 'cmd',
  environment: 'production',
  baseUrl: 'https://api.example.com',
  credentialKind: 'merchant-secret-key',
  credentialCommand: 'op read op://ops/payfac/secret',
}

const store = (active?: string): ProfileSource => ({
  get: (name) => [FILE, VAULT, CMD].find((p) => p.name === name),
  activeName: () => active,
  list: () => [FILE, VAULT, CMD],
})
const storeOf = (profiles: Record<string, unknown>) => ({ version: 1, profiles })

describe('the profile store', () => {
  it('accepts a secret in the file (an old store), in the keychain, or as a command, by its fast check and by zod', () => {
    const data = storeOf({ file: FILE, vault: VAULT, cmd: CMD })
    expect(soundStore(data)).toBe(data)
    expect(storeSchema.safeParse(data).success).toBe(true)
  })

  it('refuses a profile with no secret, or with it in two places', () => {
    const { credential: _none, ...noSecret } = FILE
    for (const profile of [noSecret, { ...CMD, credential: 'live_sk_x000' }, { ...VAULT, credentialCommand: 'cat k' }]) {
      const data = storeOf({ [profile.name]: profile })
      expect(soundStore(data)).toBeUndefined()
      const parsed = storeSchema.safeParse(data)
      expect(parsed.success).toBe(false)
      expect(JSON.stringify(parsed.error?.issues)).toContain('credential')
    }
  })

  it('refuses a command on several lines and a masked key without a keychain reference', () => {
    expect(storeSchema.safeParse(storeOf({ cmd: { ...CMD, credentialCommand: 'cat k\nrm -rf x' } })).success).toBe(false)
    expect(storeSchema.safeParse(storeOf({ file: { ...FILE, credentialMasked: 'sandbox_sk_…0001' } })).success).toBe(false)
  })
})

describe('resolution of a secret kept elsewhere', () => {
  it('asks for the keychain entry of the profile in use, then uses what was fetched', () => {
    const input = { flags: { profile: 'vault' }, env: {}, store: store() }
    expect(pendingSecret(input)).toEqual({ store: 'keychain', ref: REF, profileName: 'vault', origin: 'profile vault' })
    const settings = resolveSettings({ ...input, revealed: 'live_sk_vaultSecret0002' })
    expect(settings).toMatchObject({ credential: 'live_sk_vaultSecret0002', credentialStore: 'keychain', environment: 'production' })
  })

  it('asks for the command of the profile in use', () => {
    expect(pendingSecret({ flags: {}, env: {}, store: store('cmd') })).toEqual({ store: 'command', command: CMD.credentialCommand, origin: 'profile cmd' })
  })

  it('asks for nothing when PAYFAC_API_KEY wins over the profile, and says what it replaced', () => {
    const input = { flags: {}, env: { PAYFAC_API_KEY: 'live_sk_envSecret0003' }, store: store('vault') }
    expect(pendingSecret(input)).toBeUndefined()
    const settings = resolveSettings(input)
    expect(settings.credentialStore).toBe('env')
    expect(settings.notices.join('\n')).toContain('in the OS keychain ignored')
  })

  it('asks for nothing for a profile whose secret is in the file', () => {
    expect(pendingSecret({ flags: { profile: 'file' }, env: {}, store: store() })).toBeUndefined()
    expect(resolveSettings({ flags: { profile: 'file' }, env: {}, store: store() }).credentialStore).toBe('file')
  })

  it('runs PAYFAC_CREDENTIAL_COMMAND for an env-only set-up, and infers the kind of what it printed', () => {
    const input = { flags: {}, env: { PAYFAC_CREDENTIAL_COMMAND: 'pass show payfac', PAYFAC_BASE_URL: 'https://api.example.com' }, store: store() }
    expect(pendingSecret(input)).toEqual({ store: 'command', command: 'pass show payfac', origin: 'PAYFAC_CREDENTIAL_COMMAND' })
    expect(resolveSettings({ ...input, revealed: 'live_api_cmdSecret0004' })).toMatchObject({
      profileName: undefined,
      credentialKind: 'marketplace-api-key',
      credentialStore: 'command',
    })
  })

  it('refuses a fetched key of another kind or environment than its profile says', () => {
    const input = { flags: { profile: 'cmd' }, env: {}, store: store() }
    expect(() => resolveSettings({ ...input, revealed: 'live_pk_publicKey0005' })).toThrow(/says merchant-secret-key/)
    expect(() => resolveSettings({ ...input, revealed: 'sandbox_sk_sandboxKey0006' })).toThrow(ConfigError)
  })
})

describe('a credential command line', () => {
  it('is split into words as a shell would, with no expansion', () => {
    expect(splitCommand('op read op://ops/payfac/secret')).toEqual(['op', 'read', 'op://ops/payfac/secret'])
    expect(splitCommand(`sh -c 'cat "$HOME/k" | tr -d x'`)).toEqual(['sh', '-c', 'cat "$HOME/k" | tr -d x'])
    expect(splitCommand('a "b \\"c\\" $d" e\\ f  \'\'')).toEqual(['a', 'b "c" $d', 'e f', ''])
    expect(splitCommand('cat ~/key;rm *')).toEqual(['cat', '~/key;rm', '*'])
  })

  it('with an unclosed quote, or nothing in it, is refused', () => {
    expect(() => splitCommand("cat 'key")).toThrow(/unclosed single quote/)
    expect(() => splitCommand('   ')).toThrow(/empty/)
  })
})
