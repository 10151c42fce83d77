// Profiles as a user meets them: the credential from stdin into a file only its owner can read,
// masked in every listing, absent from --debug output; a damaged store is reported, never replaced.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const KEY = 'sandbox_sk_profileSecretValue00a1b2'
let server: RecordingServer
let dir: string
const env = () => ({ PAYFAC_CONFIG_DIR: dir, PAYFAC_API_KEY: undefined, PAYFAC_BASE_URL: undefined, PAYFAC_PROFILE: undefined })

function storeFile(): string {
  const name = readdirSync(dir).find((f) => f.endsWith('.json'))
  if (!name) throw new Error(`no store file in ${dir}`)
  return join(dir, name)
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'payfac-profiles-'))
  const order = {
    orderId: 'ordr_ZqCNoNcm_22WeZ-j',
    merchantId: 'mcht_Mx1Mx1Mx1Mx1Mx1M',
    referenceOrderId: 'inv-1',
    amount: { minorCurrencyUnits: 100, currency: 'AUD' },
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
  }
  server = await startRecordingServer(() => ({ body: order }))
})

afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('payfac profiles', () => {
  it('adds a profile from --credential-stdin into a file of mode 0600', async () => {
    const result = await spawnCli(['profiles', 'add', 'sb', '--environment', 'sandbox', '--base-url', server.url, '--credential-stdin', '--use', '--json'], {
      env: env(),
      input: `${KEY}\n`,
    })
    expect(result.stderr).toContain('Saved profile "sb"')
    expect(result.code).toBe(0)
    expect(statSync(storeFile()).mode & 0o777).toBe(0o600)
    expect(readFileSync(storeFile(), 'utf8')).toContain(KEY)
    const shown = JSON.parse(result.stdout)
    expect(shown).toMatchObject({ name: 'sb', credentialKind: 'merchant-secret-key', active: true })
    expect(result.stdout).not.toContain(KEY)
  })

  it('lists profiles with the credential masked', async () => {
    for (const format of [[], ['--json'], ['--csv']]) {
      const result = await spawnCli(['profiles', 'list', ...format], { env: env() })
      expect(result.code).toBe(0)
      expect(result.stdout).toContain('sb')
      expect(result.stdout).toContain('a1b2')
      expect(result.stdout).not.toContain(KEY)
      expect(result.stderr).not.toContain(KEY)
    }
  })

  it('uses the active profile, and --debug never shows its credential', async () => {
    const result = await spawnCli(['orders', 'get', 'ordr_ZqCNoNcm_22WeZ-j', '--debug', '--json'], { env: env() })
    expect(result.code).toBe(0)
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(result.stderr).toContain('/orders/ordr_ZqCNoNcm_22WeZ-j')
    expect(result.stderr).not.toContain(KEY)
    expect(result.stdout).not.toContain(KEY)
  })

  it('refuses a live key on a sandbox profile before anything is stored', async () => {
    const before = readFileSync(storeFile(), 'utf8')
    const result = await spawnCli(['profiles', 'add', 'bad', '--environment', 'sandbox', '--base-url', server.url, '--credential-stdin'], {
      env: env(),
      input: 'live_sk_someLiveKey000000000000',
    })
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/live/)
    expect(readFileSync(storeFile(), 'utf8')).toBe(before)
  })

  it('reports a damaged store by name and leaves it as it was', async () => {
    const file = storeFile()
    const good = readFileSync(file, 'utf8')
    writeFileSync(file, '{"profiles": {broken')
    try {
      for (const args of [
        ['profiles', 'list'],
        ['profiles', 'use', 'sb'],
        ['orders', 'get', 'ordr_ZqCNoNcm_22WeZ-j'],
      ]) {
        const result = await spawnCli(args, { env: env() })
        expect(result.code).toBe(3)
        expect(result.stderr).toContain(file)
        expect(result.stderr).not.toMatch(/\n\s+at /)
        expect(readFileSync(file, 'utf8')).toBe('{"profiles": {broken')
      }
    } finally {
      writeFileSync(file, good)
    }
  })

  it('switches the active profile with use, and shows one masked with show', async () => {
    const other = 'sandbox_sk_otherProfileSecret0000c3d4'
    const added = await spawnCli(['profiles', 'add', 'other', '--environment', 'sandbox', '--base-url', server.url, '--credential-stdin'], {
      env: env(),
      input: other,
    })
    expect(added.code, added.stderr).toBe(0)
    expect((await spawnCli(['profiles', 'use', 'other'], { env: env() })).code).toBe(0)
    const active = await spawnCli(['profiles', 'show', '--json'], { env: env() })
    expect(JSON.parse(active.stdout)).toMatchObject({ name: 'other', active: true, credential: expect.stringMatching(/c3d4$/) })
    expect(active.stdout).not.toContain(other)
    const named = await spawnCli(['profiles', 'show', 'sb'], { env: env() })
    expect(named.stdout).toContain('a1b2')
    expect(named.stdout).not.toContain(KEY)
    const unknown = await spawnCli(['profiles', 'show', 'nosuch'], { env: env() })
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toContain('nosuch')
    expect((await spawnCli(['profiles', 'use', 'sb'], { env: env() })).code).toBe(0)
    expect((await spawnCli(['profiles', 'remove', 'other'], { env: env() })).code).toBe(0)
  })

  it('removes a profile', async () => {
    const result = await spawnCli(['profiles', 'remove', 'sb'], { env: env() })
    expect(result.code).toBe(0)
    const list = await spawnCli(['profiles', 'list', '--json'], { env: env() })
    expect(JSON.parse(list.stdout).map((p: { name: string }) => p.name)).toEqual(['local'])
  })
})
