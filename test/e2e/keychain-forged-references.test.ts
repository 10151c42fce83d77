// Keychain references forged in the profile store read nothing: payfac reads only its own entries,
// named for the profile that owns the reference.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { credentialEnv, keyringToolsMissing, startKeyring, type KeyringSession } from '../helpers/keyring.js'
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { spawnCli } from '../helpers/spawn-cli.js'

let server: RecordingServer
let work: string
let dir: string

const env = (extra: Record<string, string | undefined> = {}) => credentialEnv(dir, extra)

const keyringMissing = process.platform !== 'linux' ? 'the Secret Service is Linux only' : keyringToolsMissing()

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'payfac-credadv-'))
  dir = join(work, 'config')
  server = await startRecordingServer(() => ({ body: [], headers: { 'page-count': '1', 'total-record-count': '0' } }))
})

afterAll(async () => {
  await server.close()
  rmSync(work, { recursive: true, force: true })
})

describe.skipIf(keyringMissing !== undefined)('keychain references forged in the profile store', () => {
  const PROD_KEY = 'sandbox_sk_prodSecret0000000000f0e1'
  let keyring: KeyringSession
  let kdir: string
  const kenv = () => ({ ...env(), PAYFAC_CONFIG_DIR: kdir, ...keyring.env })
  const storeFile = () => join(kdir, 'profiles.json')

  beforeAll(async () => {
    kdir = join(work, 'keychain-config')
    keyring = await startKeyring()
  })
  afterAll(() => keyring?.stop())

  it("a profile pointed at another profile's entry neither sends nor deletes that secret", async () => {
    const added = await spawnCli(['profiles', 'add', 'prod', '--environment', 'sandbox', '--base-url', server.url, '--credential-stdin'], {
      env: kenv(),
      input: PROD_KEY,
    })
    expect(added.code).toBe(0)
    const store = JSON.parse(readFileSync(storeFile(), 'utf8'))
    const ref = store.profiles.prod.credentialKeychain as { service: string; account: string }
    expect(ref.account).toMatch(/^prod#[0-9a-f]{8}$/)
    // Someone edits the store: a profile "evil" whose reference is prod's, and one naming another program's entry.
    store.profiles.evil = { ...store.profiles.prod, name: 'evil' }
    store.profiles.other = { ...store.profiles.prod, name: 'other', credentialKeychain: { service: 'github.com', account: 'ann' } }
    writeFileSync(storeFile(), JSON.stringify(store, null, 2))
    const before = server.requests.length

    for (const name of ['evil', 'other']) {
      const used = await spawnCli(['orders', 'list', '--profile', name, '--json'], { env: kenv() })
      expect(used.code).toBe(3)
      expect(used.stderr).toContain('is not one payfac made for it')
      expect(used.stdout + used.stderr).not.toContain(PROD_KEY)
    }
    expect(server.requests.length).toBe(before)

    const removed = await spawnCli(['profiles', 'remove', 'evil'], { env: kenv() })
    expect(removed.code).toBe(0)
    const still = await spawnCli(['orders', 'list', '--profile', 'prod', '--json'], { env: kenv() })
    expect(still.code).toBe(0)
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${PROD_KEY}`)
  })
})
