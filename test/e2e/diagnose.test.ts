// whoami, doctor, did-you-mean and completion, spawned as a user runs them.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { spawnCli } from '../helpers/spawn-cli.js'

let ctx: EmulatorEnv
let scratch: string

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  scratch = mkdtempSync(join(tmpdir(), 'payfac-doctor-'))
})

afterAll(async () => {
  await ctx?.close()
  rmSync(scratch, { recursive: true, force: true })
})

describe('payfac whoami', () => {
  it('names each setting and the source that won it, the credential masked', async () => {
    const result = await spawnCli(['whoami', '--json'], { env: { ...ctx.env, PAYFAC_MERCHANT_ID: 'mcht_LocalMerchant001' } })
    expect(result.code).toBe(0)
    const rows = JSON.parse(result.stdout) as Array<{ setting: string; value: string; source: string }>
    const bySetting = Object.fromEntries(rows.map((r) => [r.setting, r]))
    expect(bySetting.baseUrl).toEqual({ setting: 'baseUrl', value: ctx.emulator.url, source: 'PAYFAC_BASE_URL' })
    expect(bySetting.credential?.value).toBe('sandbox_sk_…0001')
    expect(bySetting.credential?.source).toBe('PAYFAC_API_KEY')
    expect(bySetting.merchantId?.source).toBe('PAYFAC_MERCHANT_ID')
    expect(result.stdout).not.toContain(ctx.emulator.credentials.merchantSecretKey)
  })
})

describe('payfac doctor', () => {
  it('passes every check against a running emulator (exit 0)', async () => {
    const result = await spawnCli(['doctor', '--json'], { env: ctx.env })
    const rows = JSON.parse(result.stdout) as Array<{ check: string; ok: boolean }>
    expect(rows.map((r) => r.check)).toEqual([
      'config store permissions',
      'journal permissions',
      'node',
      'settings',
      'credential storage',
      'key against environment',
      'service reachable',
      'credential accepted',
      'clock',
    ])
    expect(rows.every((r) => r.ok)).toBe(true)
    expect(result.code).toBe(0)
  })

  it('fails on a world-readable config store, saying the chmod that fixes it (exit 3)', async () => {
    const dir = join(scratch, 'open')
    mkdirSync(dir, { recursive: true })
    chmodSync(dir, 0o755)
    writeFileSync(join(dir, 'profiles.json'), '{}\n', { mode: 0o644 })
    chmodSync(join(dir, 'profiles.json'), 0o644)
    const result = await spawnCli(['doctor'], { env: { ...ctx.env, PAYFAC_CONFIG_DIR: dir } })
    expect(result.code).toBe(3)
    expect(result.stdout).toMatch(/FAIL\tconfig store permissions\t.*readable by others \(mode 0755\)\tchmod 700 '.*open' && chmod 600 '.*profiles\.json'/)
    expect(result.stderr).toMatch(/checks? failed: config store permissions/)
    expect(result.stderr).not.toMatch(/bug|at .*\.js/)
  })

  it('fails when the service is not there (exit 7), and when the credential is refused (exit 4)', async () => {
    const gone = await spawnCli(['doctor'], { env: { ...ctx.env, PAYFAC_BASE_URL: 'http://127.0.0.1:9' } })
    expect(gone.code).toBe(7)
    expect(gone.stdout).toMatch(/FAIL\tservice reachable/)
    const refused = await spawnCli(['doctor'], { env: { ...ctx.env, PAYFAC_API_KEY: 'sandbox_sk_notAKnownKey00000000001' } })
    expect(refused.code).toBe(4)
    expect(refused.stdout).toMatch(/FAIL\tcredential accepted\tthe service refused it \(401\)/)
  }, 30_000)
})

describe('mistyped commands and completion', () => {
  it('suggests the nearest command in payfac words (exit 2)', async () => {
    const result = await spawnCli(['ordrs'], { env: ctx.env })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('Did you mean "payfac orders"?')
    const sub = await spawnCli(['orders', 'lst'], { env: ctx.env })
    expect(sub.stderr).toContain('Did you mean "payfac orders list"?')
    expect(sub.stderr).not.toContain('orders:lst')
  })

  it('prints a bash completion script that knows the commands', async () => {
    const result = await spawnCli(['completion', 'bash'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain("'orders list'|'orders list '*)")
    expect(result.stdout).toContain('complete -F _payfac_complete payfac')
  })
})

describe('errors people can read', () => {
  it('with --json, the error object is the one line on stderr and stdout stays empty', async () => {
    const result = await spawnCli(['orders', 'get', 'ordr_AAAAAAAAAAAAAAAA', '--json'], { env: ctx.env })
    expect(result.code).toBe(5)
    expect(result.stdout).toBe('')
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 5, status: 404 } })
  })

  it('names flags as typed, in payfac words', async () => {
    const both = await spawnCli(['orders', 'list', '--json', '--csv'], { env: ctx.env })
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('use either --json or --csv, not both')
    expect(both.stderr).not.toMatch(/following errors|=true/)
    const date = await spawnCli(['orders', 'list', '--created-after', 'yesterday'], { env: ctx.env })
    expect(date.stderr).toMatch(/^Error: --created-after must be a date/)
    const token = await spawnCli(['orders', 'pay', 'ordr_AAAAAAAAAAAAAAAA', '--token', 'abc'], { env: ctx.env })
    expect(token.stderr).toMatch(/^Error: --token must start with "ptkn_"/)
  })
})
