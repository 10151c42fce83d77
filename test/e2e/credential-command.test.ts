// Credentials not kept on disk: a credential command (a profile's, or PAYFAC_CREDENTIAL_COMMAND)
// run each time one is needed, its output never stored nor shown; and, with no keychain to reach,
// `profiles add` says so once and keeps the key in the 0600 file.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { credentialEnv } from '../helpers/keyring.js'
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const KEY = 'live_sk_commandSecret000000c0d3'
const SANDBOX_KEY = 'sandbox_sk_fallbackSecret0000f4b1'
let server: RecordingServer
let work: string
let dir: string

const env = (extra: Record<string, string | undefined> = {}) => credentialEnv(dir, extra)

/** Every file payfac left in its config folder, as text. */
function everyFile(folder: string): string {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n')
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'payfac-credcmd-'))
  dir = join(work, 'config')
  writeFileSync(join(work, 'key.txt'), `${KEY}\n`)
  writeFileSync(join(work, 'fails.sh'), `echo ${KEY}\necho 'vault is locked' >&2\nexit 4\n`)
  server = await startRecordingServer((request) =>
    request.path === '/orders' ? { body: [], headers: { 'page-count': '1', 'total-record-count': '0' } } : { body: {} },
  )
})

afterAll(async () => {
  await server.close()
  rmSync(work, { recursive: true, force: true })
})

describe('a credential command', () => {
  it('is checked once by profiles add, and only the command is stored', async () => {
    const added = await spawnCli(['profiles', 'add', 'live', '--environment', 'production', '--base-url', server.url, '--credential-command', 'cat key.txt'], {
      env: env(),
      cwd: work,
    })
    expect(added.stderr).toContain('printed by `cat key.txt`')
    expect(added.code).toBe(0)
    const stored = JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8'))
    expect(stored.profiles.live).toMatchObject({ credentialCommand: 'cat key.txt', credentialKind: 'merchant-secret-key' })
    expect(stored.profiles.live.credential).toBeUndefined()
    expect(added.stdout + added.stderr).not.toContain(KEY)
  })

  it('gives the credential each time: orders list --profile live sends it, and --debug never shows it', async () => {
    const result = await spawnCli(['orders', 'list', '--profile', 'live', '--debug', '--json'], { env: env(), cwd: work })
    expect(result.stderr).toContain('/orders')
    expect(result.code).toBe(0)
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(result.stdout + result.stderr).not.toContain(KEY)
  })

  it('is named by whoami as where the credential comes from, with no warning', async () => {
    const result = await spawnCli(['whoami', '--profile', 'live', '--json'], { env: env(), cwd: work })
    expect(result.code).toBe(0)
    const rows = JSON.parse(result.stdout) as Array<{ setting: string; value: string }>
    expect(rows.find((row) => row.setting === 'credentialStore')?.value).toBe('command')
    expect(result.stderr).not.toContain('warning')
  })

  it('can come from PAYFAC_CREDENTIAL_COMMAND, without any profile', async () => {
    const result = await spawnCli(['orders', 'list', '--json'], {
      env: env({ PAYFAC_CONFIG_DIR: join(work, 'empty'), PAYFAC_CREDENTIAL_COMMAND: `cat '${join(work, 'key.txt')}'`, PAYFAC_BASE_URL: server.url }),
    })
    expect(result.code).toBe(0)
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('that fails is named with its exit status; its stderr passes through, its stdout never shows', async () => {
    const result = await spawnCli(['orders', 'list', '--json'], {
      env: env({ PAYFAC_CREDENTIAL_COMMAND: 'sh fails.sh', PAYFAC_BASE_URL: server.url }),
      cwd: work,
    })
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('vault is locked')
    expect(result.stderr).toContain('`sh fails.sh`')
    expect(result.stderr).toContain('exited with status 4')
    expect(result.stdout + result.stderr).not.toContain(KEY)
  })

  it('that takes too long is stopped at PAYFAC_CREDENTIAL_TIMEOUT', async () => {
    const result = await spawnCli(['orders', 'list'], {
      env: env({ PAYFAC_CREDENTIAL_COMMAND: 'sleep 30', PAYFAC_CREDENTIAL_TIMEOUT: '0.3', PAYFAC_BASE_URL: server.url }),
    })
    expect(result.signal).toBeNull()
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('`sleep 30`')
    expect(result.stderr).toContain('did not finish within 0.3 s')
  })

  it('that prints nothing gives no credential', async () => {
    const result = await spawnCli(['orders', 'list'], { env: env({ PAYFAC_CREDENTIAL_COMMAND: 'true', PAYFAC_BASE_URL: server.url }) })
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('`true`')
    expect(result.stderr).toContain('printed nothing')
  })

  it('that cannot be started is refused by profiles add, and nothing is stored', async () => {
    const result = await spawnCli(
      ['profiles', 'add', 'nope', '--environment', 'sandbox', '--base-url', server.url, '--credential-command', 'no-such-program-payfac --x'],
      { env: env() },
    )
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('no program "no-such-program-payfac"')
    expect(JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8')).profiles.nope).toBeUndefined()
  })

  it('leaves no secret in any file', () => {
    expect(everyFile(dir)).not.toContain(KEY)
  })
})

describe.skipIf(process.platform !== 'linux')('with no keychain to reach (no session bus)', () => {
  it('profiles add says so once and keeps the key in the 0600 file', async () => {
    const result = await spawnCli(['profiles', 'add', 'sb', '--environment', 'sandbox', '--base-url', server.url, '--credential-stdin'], {
      env: env(),
      input: SANDBOX_KEY,
    })
    expect(result.code).toBe(0)
    expect(result.stderr.match(/No OS keychain could be reached/g)).toHaveLength(1)
    expect(readFileSync(join(dir, 'profiles.json'), 'utf8')).toContain(SANDBOX_KEY)
    expect(statSync(join(dir, 'profiles.json')).mode & 0o777).toBe(0o600)
  })

  it('says nothing of the keychain with --insecure-storage', async () => {
    const result = await spawnCli(
      ['profiles', 'add', 'sb2', '--environment', 'sandbox', '--base-url', server.url, '--credential-stdin', '--insecure-storage'],
      { env: env(), input: SANDBOX_KEY },
    )
    expect(result.code).toBe(0)
    expect(result.stderr).not.toContain('keychain')
  })

  it('profiles migrate-secrets moves nothing and says why (exit 3)', async () => {
    const before = readFileSync(join(dir, 'profiles.json'), 'utf8')
    const result = await spawnCli(['profiles', 'migrate-secrets'], { env: env() })
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('No OS keychain can be reached')
    expect(readFileSync(join(dir, 'profiles.json'), 'utf8')).toBe(before)
  })
})
