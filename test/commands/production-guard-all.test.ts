// Nothing but reads reaches production unconfirmed, for every command: the table is the manifest
// itself, so a new command cannot skip it. Each command's runnable examples (as in
// dry-run-all.test.ts) run in this process with a production profile (a live_ key) pointing at a
// recording server on 127.0.0.1, without a terminal and without --yes (an example's own --yes,
// --dry-run, --profile and --base-url are dropped, so every run uses that profile).
//
// For every run: the server received GETs only. And where the same example with --dry-run
// printed a changing request, the run without it stopped at the guard: exit 3, "needs
// confirmation", so a command that gets as far as a write is shown to be stopped there, not
// merely to have failed earlier.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { ProfileStore } from '../../src/config/store.js'
import { exampleArgv, examplesOf, isApiCommand, manifestCommands } from '../helpers/manifest-examples.js'
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { runCommand } from '../helpers/run-command.js'
import { makeTempConfigDir, type TempConfigDir } from '../helpers/tmp-config.js'

const LIVE_KEY = 'live_sk_guardWalkProductionKey01'
const GUARDED = /needs confirmation, and there is no terminal to ask: nothing was sent/

/**
 * They stay in the foreground until stopped: `emulator start` serves an emulator and sends nothing
 * to a service; `webhooks listen` on a production profile creates no subscription and only
 * listens (webhooks-listen.test.ts covers what it sends elsewhere); `mcp` serves on stdin, and on
 * production offers no change without --allow-writes production (mcp.test.ts).
 */
const NOT_WALKED = new Set(['emulator:start', 'webhooks:listen', 'mcp'])
/** Flags of an example that would change who is asked or where it goes; the value-taking ones drop their value too. */
const DROPPED = new Set(['--yes', '-y', '--dry-run'])
const DROPPED_WITH_VALUE = new Set(['--profile', '--base-url'])

const FILES = mkdtempSync(join(tmpdir(), 'payfac-guard-walk-'))
afterAll(() => rmSync(FILES, { recursive: true, force: true }))

function withoutOverrides(argv: string[]): string[] {
  const kept: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string
    const name = word.split('=')[0] as string
    if (DROPPED.has(word)) continue
    if (DROPPED_WITH_VALUE.has(name)) {
      if (!word.includes('=')) i++
      continue
    }
    kept.push(word)
  }
  return kept
}

const commands = manifestCommands()
  .filter((c) => !NOT_WALKED.has(c.id))
  .map((c) => {
    const runnable = examplesOf(c)
      .map((example) => exampleArgv(example, FILES))
      .filter((argv): argv is string[] => argv !== undefined)
      .map(withoutOverrides)
    // A command whose examples all need a shell runs bare: it still must not send a write.
    return { id: c.id, runnable: runnable.length > 0 ? runnable : [c.id.split(':')], hasDryRun: 'dry-run' in c.flags, api: isApiCommand(c) }
  })
  .sort((a, b) => a.id.localeCompare(b.id))

let server: RecordingServer
let config: TempConfigDir
const notFound = () => ({ status: 404, body: { statusCode: 404, errorCode: 'not_found', message: 'Not here' } })

beforeAll(async () => {
  server = await startRecordingServer(notFound)
  config = makeTempConfigDir('payfac-guard-walk-config-')
})
afterAll(async () => {
  await server.close()
  config.cleanup()
})
// Every run starts from the same store: the production profile, and no other (an example may add,
// use or remove one).
beforeEach(async () => {
  rmSync(join(config.dir, 'profiles.json'), { force: true })
  await new ProfileStore({ dir: config.dir }).add({
    name: 'prod',
    environment: 'production',
    baseUrl: server.url,
    credentialKind: 'merchant-secret-key',
    credential: LIVE_KEY,
    merchantId: 'mcht_GuardWalkMerchant1',
    marketplaceId: 'mktp_GuardWalkMarket01',
  })
})

const env = () => ({
  PAYFAC_CONFIG_DIR: config.dir,
  PAYFAC_PROFILE: 'prod',
  PAYFAC_BASE_URL: undefined,
  PAYFAC_API_KEY: undefined,
  PAYFAC_MERCHANT_ID: undefined,
  PAYFAC_MARKETPLACE_ID: undefined,
  PAYFAC_CUSTOMER_ID: undefined,
  CI: undefined,
  NO_COLOR: '1',
})
/** Commands with a run that stopped at the guard (exit 3, "needs confirmation"). */
const stopped = new Set<string>()
const run = (argv: string[]) => runCommand(argv, { env: env() })
const writes = () => server.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)

describe('on production without a terminal and without --yes, every command of the manifest', () => {
  it('walks them all', () => {
    expect(commands.length).toBeGreaterThan(100)
    expect(commands.filter((c) => c.api).length).toBeGreaterThan(80)
  })

  it.each(commands.map((c) => [c.id, c] as const))('%s sends nothing but reads', async (id, command) => {
    for (const argv of command.runnable) {
      let wouldWrite: string | undefined
      if (command.hasDryRun) {
        server.requests.length = 0
        const dry = await run([...argv, '--dry-run'])
        expect(writes(), `${argv.join(' ')} --dry-run sent a change`).toEqual([])
        const printed =
          dry.code === 0 && dry.stdout.trim().startsWith('{')
            ? (JSON.parse(dry.stdout) as { dryRun?: boolean; request?: { method: string; url: string } })
            : undefined
        if (printed?.dryRun && printed.request) wouldWrite = `${printed.request.method} ${printed.request.url}`
      }
      server.requests.length = 0
      const result = await run(argv)
      expect(writes(), `${argv.join(' ')} sent a change to production without --yes (exit ${result.code}: ${result.stderr})`).toEqual([])
      if (result.code === 3 && GUARDED.test(result.stderr)) stopped.add(id)
      if (wouldWrite) {
        expect(result.code, `${argv.join(' ')} would send ${wouldWrite}: ${result.stderr}`).toBe(3)
        expect(result.stderr).toMatch(GUARDED)
        expect(result.stderr).toMatch(/^PRODUCTION: profile "prod", environment production/m)
      }
    }
  })

  it('stopped, among others, each command the issue found sending unconfirmed', () => {
    const named = [
      'merchants:bank-accounts:add',
      'merchants:bank-accounts:set-primary',
      'cards:create',
      'payto:agree',
      'webhooks:create',
      'webhooks:enable',
      'auth:tokens:create',
      'merchants:update-profile',
      'orders:set-reference',
      'profiles:remove',
    ]
    expect(named.filter((id) => !stopped.has(id))).toEqual([])
    expect(stopped.size).toBeGreaterThan(40)
  })

  it('lets the same write through with --yes: the recording server does see what the guard stops', async () => {
    server.requests.length = 0
    const result = await run(['api', 'POST', '/webhooks', '--data', '{"url":"https://example.com/hook"}', '--yes'])
    expect(result.code, result.stderr).not.toBe(3)
    expect(writes()).toEqual(['POST /webhooks'])
  })
})
