// whoami and doctor say where the credential comes from, and warn of a live key kept on disk.
import { describe, expect, it } from 'vitest'

import { checkCredentialStore, liveKeyOnDisk } from '../../src/cli/diagnose/checks.js'
import type { ResolvedSettings } from '../../src/config/index.js'

const FILE = '/home/ann/.config/payfac/profiles.json'
const settings = (over: Partial<ResolvedSettings>): ResolvedSettings => ({
  profileName: 'prod',
  source: 'flag',
  environment: 'production',
  baseUrl: 'https://api.example.com',
  credential: 'live_sk_secretSecret0001',
  credentialKind: 'merchant-secret-key',
  credentialStore: 'file',
  context: {},
  notices: [],
  origins: { credential: 'profile prod' },
  ...over,
})

describe('where the credential comes from', () => {
  it('warns of a live key in the profile file, naming the file and the fix, never the key', () => {
    const warning = liveKeyOnDisk(settings({}), FILE)
    expect(warning).toContain(`kept on disk in ${FILE}`)
    expect(warning).toContain('payfac profiles migrate-secrets')
    expect(warning).not.toContain('secretSecret')
    const row = checkCredentialStore(settings({}), FILE)
    expect(row).toMatchObject({ check: 'credential storage', ok: true })
    expect(row.detail).toContain('warning: the live credential of profile prod')
  })

  it('warns of a live_ key on disk even under a sandbox label, and of nothing for a sandbox key', () => {
    expect(liveKeyOnDisk(settings({ environment: 'sandbox' }), FILE)).toBeDefined()
    expect(liveKeyOnDisk(settings({ environment: 'sandbox', credential: 'sandbox_sk_x0000001' }), FILE)).toBeUndefined()
  })

  it('does not warn when the key is in the keychain, printed by a command, in PAYFAC_API_KEY, or built in', () => {
    for (const credentialStore of ['keychain', 'command', 'env', 'builtin'] as const) {
      expect(liveKeyOnDisk(settings({ credentialStore }), FILE), credentialStore).toBeUndefined()
    }
    expect(checkCredentialStore(settings({ credentialStore: 'keychain' }), FILE).detail).toBe('the OS keychain (profile prod)')
    expect(checkCredentialStore(settings({ credentialStore: 'command' }), FILE).detail).toContain('a credential command')
    expect(checkCredentialStore(settings({ credentialStore: 'file', environment: 'sandbox', credential: 'sandbox_sk_x0000001' }), FILE).detail).toBe(
      `the profile file ${FILE} (mode 0600) (profile prod)`,
    )
  })
})
