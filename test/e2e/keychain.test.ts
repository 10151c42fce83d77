// The OS keychain for real, on Linux: a private session bus and an unlocked gnome-keyring (the
// Secret Service), payfac pointed at it by DBUS_SESSION_BUS_ADDRESS. `profiles add` leaves only a
// reference in the store; commands read the key from the keychain; `profiles migrate-secrets`
// moves file secrets there; `profiles remove` deletes the entry; no secret in any file or output.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { credentialEnv, keyringToolsMissing, startKeyring, type KeyringSession } from '../helpers/keyring.js'
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const KEY = 'live_sk_keychainSecret00000000k3y1'
const OLD_KEY = 'sandbox_sk_migratedSecret000000m1g2'
const missing = process.platform !== 'linux' ? 'the Secret Service is Linux only' : keyringToolsMissing()
const KEYRING_JS = resolve(__dirname, '../../node_modules/@napi-rs/keyring/index.js')

let keyring: KeyringSession
let server: RecordingServer
let dir: string

const env = (extra: Record<string, string | undefined> = {}) => credentialEnv(dir, { ...keyring.env, ...extra })
const store = () => JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8')) as { profiles: Record<string, Record<string, unknown>> }

/** What the keychain itself holds for a reference, read without payfac. */
function keychainHolds(ref: unknown): string | null {
  const { service, account } = ref as { service: string; account: string }
  const script = `const { Entry } = require(${JSON.stringify(KEYRING_JS)}); process.stdout.write(JSON.stringify(new Entry(${JSON.stringify(service)}, ${JSON.stringify(account)}).getPassword()))`
  const run = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, ...keyring.env }, encoding: 'utf8' })
  return JSON.parse(run.stdout) as string | null
}

describe.skipIf(missing !== undefined)(`the OS keychain (Secret Service on a private bus)${missing ? `: skipped, ${missing}` : ''}`, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payfac-keychain-'))
    keyring = await startKeyring()
    server = await startRecordingServer((request) =>
      request.path === '/orders' ? { body: [], headers: { 'page-count': '1', 'total-record-count': '0' } } : { body: {} },
    )
  })

  afterAll(async () => {
    keyring?.stop()
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('profiles add puts the key in the keychain; the store keeps a reference and the masked key', async () => {
    const result = await spawnCli(['profiles', 'add', 'live', '--environment', 'production', '--base-url', server.url, '--credential-stdin', '--use'], {
      env: env(),
      input: KEY,
    })
    expect(result.stderr).toContain('its credential is in the OS keychain')
    expect(result.code).toBe(0)
    const live = store().profiles.live
    expect(live?.credential).toBeUndefined()
    expect(live?.credentialMasked).toBe('live_sk_…k3y1')
    expect(keychainHolds(live?.credentialKeychain)).toBe(KEY)
    expect(readFileSync(join(dir, 'profiles.json'), 'utf8')).not.toContain(KEY)
  })

  it('a command reads the key from the keychain, and --debug never shows it', async () => {
    const result = await spawnCli(['orders', 'list', '--debug', '--json'], { env: env() })
    expect(result.code).toBe(0)
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(result.stdout + result.stderr).not.toContain(KEY)
  })

  it('whoami says the key is in the keychain, and warns of nothing', async () => {
    const result = await spawnCli(['whoami', '--json'], { env: env() })
    expect(result.code).toBe(0)
    const rows = JSON.parse(result.stdout) as Array<{ setting: string; value: string }>
    expect(rows.find((row) => row.setting === 'credentialStore')?.value).toBe('keychain')
    expect(result.stderr).not.toContain('warning')
  })

  it('profiles migrate-secrets moves a file secret into the keychain, and it still works', async () => {
    const added = await spawnCli(['profiles', 'add', 'old', '--environment', 'sandbox', '--base-url', server.url, '--credential-stdin', '--insecure-storage'], {
      env: env(),
      input: OLD_KEY,
    })
    expect(added.code).toBe(0)
    expect(store().profiles.old?.credential).toBe(OLD_KEY)
    const migrated = await spawnCli(['profiles', 'migrate-secrets', '--json'], { env: env() })
    expect(migrated.code).toBe(0)
    expect(JSON.parse(migrated.stdout)).toEqual({ moved: ['old'] })
    const old = store().profiles.old
    expect(old?.credential).toBeUndefined()
    expect(keychainHolds(old?.credentialKeychain)).toBe(OLD_KEY)
    const used = await spawnCli(['orders', 'list', '--profile', 'old', '--json'], { env: env() })
    expect(used.code).toBe(0)
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${OLD_KEY}`)
  })

  it('a keychain that cannot be reached is a configuration error (exit 3) that names it', async () => {
    const result = await spawnCli(['orders', 'list'], { env: env({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/payfac-test-bus' }) })
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('OS keychain, which cannot be reached')
    expect(result.stderr).not.toContain(KEY)
  })

  it('profiles remove deletes the keychain entry too', async () => {
    const ref = store().profiles.old?.credentialKeychain
    const result = await spawnCli(['profiles', 'remove', 'old'], { env: env() })
    expect(result.code).toBe(0)
    expect(keychainHolds(ref)).toBeNull()
  })

  it('leaves no secret in any file of the config folder', () => {
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const path = join(dir, name)
      if (!statSync(path).isFile()) continue
      const text = readFileSync(path, 'utf8')
      expect(text, path).not.toContain(KEY)
      expect(text, path).not.toContain(OLD_KEY)
    }
  })
})
