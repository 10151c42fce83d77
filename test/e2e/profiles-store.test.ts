// The profile store under real processes: eight `profiles add` at once all land, and a store
// others can read is refused with exit 3 and the chmod that fixes it.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { spawnCli } from '../helpers/spawn-cli.js'

let dir: string
const env = () => ({ PAYFAC_CONFIG_DIR: dir, PAYFAC_API_KEY: undefined, PAYFAC_BASE_URL: undefined, PAYFAC_PROFILE: undefined })
const add = (name: string) =>
  spawnCli(['profiles', 'add', name, '--environment', 'sandbox', '--base-url', 'https://sandbox.example.com', '--credential-stdin'], {
    env: env(),
    input: `sandbox_sk_${name}SecretValue0000001\n`,
    timeoutMs: 30_000,
  })

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'payfac-store-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the profile store', () => {
  it('keeps all eight profiles added by eight processes at once', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `p${i}`)
    const results = await Promise.all(names.map(add))
    for (const result of results) expect(result.code, result.stderr).toBe(0)
    const stored = JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8'))
    expect(Object.keys(stored.profiles).sort()).toEqual(names)
    expect(readdirSync(dir)).toEqual(['profiles.json'])
    expect(statSync(join(dir, 'profiles.json')).mode & 0o777).toBe(0o600)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
  }, 60_000)

  it.runIf(process.platform !== 'win32')('refuses a store readable by others with exit 3 and the exact chmod', async () => {
    chmodSync(dir, 0o755)
    chmodSync(join(dir, 'profiles.json'), 0o644)
    const result = await spawnCli(['profiles', 'list'], { env: env() })
    expect(result.code).toBe(3)
    expect(result.stderr).toContain(`chmod 700 ${dir} && chmod 600 ${join(dir, 'profiles.json')}`)
    expect(result.stdout).not.toContain('SecretValue')
    chmodSync(dir, 0o700)
    chmodSync(join(dir, 'profiles.json'), 0o600)
    expect((await spawnCli(['profiles', 'list'], { env: env() })).code).toBe(0)
  })
})
