// The production guard's rule, in one process: which requests need confirmation, who can be
// asked (CI, --no-input, a terminal), the early refusal of a command that declares --again, and
// the emulator control commands' refusal of an address that is not this machine.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import type { OutgoingRequest } from '../../src/client/transport.js'
import { UsageError } from '../../src/cli/errors/index.js'
import { ciIsSet, whyNoPrompt } from '../../src/cli/terminal/prompts.js'
import { isDryRunStop } from '../../src/cli/safety/dry-run.js'
import { declaresWrites } from '../../src/cli/safety/policy.js'
import { SafetySession, type SafetyInput } from '../../src/cli/safety/session.js'
import { ConfigError } from '../../src/config/errors.js'
import type { ResolvedSettings } from '../../src/config/resolve.js'

const PRODUCTION: ResolvedSettings = {
  profileName: 'prod',
  source: 'flag',
  environment: 'production',
  environmentReason: 'profile prod says production',
  baseUrl: 'https://api.example.com',
  credential: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
  credentialKind: 'merchant-jwt',
  context: {},
  notices: [],
  origins: { baseUrl: 'profile prod', credential: 'profile prod' },
}
const SANDBOX: ResolvedSettings = {
  ...PRODUCTION,
  profileName: 'sbx',
  environment: 'sandbox',
  credential: 'sandbox_sk_sessionTestKey001',
  credentialKind: 'merchant-secret-key',
}

function session(over: Partial<SafetyInput> = {}): SafetySession {
  return new SafetySession({
    commandId: 'webhooks:create',
    settings: PRODUCTION,
    dryRun: false,
    yes: false,
    again: false,
    bin: 'payfac',
    terminal: false,
    ...over,
  })
}

const request = (method: string): OutgoingRequest => ({
  method,
  url: 'https://api.example.com/webhooks',
  path: '/webhooks',
  headers: {},
  body: { url: 'https://example.com/hook' },
})

async function refusal(run: () => unknown): Promise<Error> {
  try {
    await run()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a refusal')
}

let stderr: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  vi.stubEnv('CI', '')
})
afterEach(() => {
  stderr.mockRestore()
  vi.unstubAllEnvs()
})

describe('the production guard, by the request’s method', () => {
  it.each(['GET', 'HEAD', 'OPTIONS', 'get'])('lets a %s through unconfirmed', async (method) => {
    await expect(session().intercept(request(method))).resolves.toBeUndefined()
  })

  it.each(['POST', 'PATCH', 'PUT', 'DELETE', 'post'])('stops a %s without --yes: exit 3 (production-guard), naming why nobody was asked', async (method) => {
    const error = await refusal(() => session().intercept(request(method)))
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).reason).toBe('production-guard')
    expect(error.message).toBe('payfac webhooks create on production needs confirmation, and there is no terminal to ask: nothing was sent.')
  })

  it('never asks on a terminal when --no-input is given or CI is set: exit 3, naming why', async () => {
    expect((await refusal(() => session({ terminal: true, noInput: true }).intercept(request('POST')))).message).toContain(
      'and --no-input was given: nothing was sent',
    )
    vi.stubEnv('CI', 'true')
    expect((await refusal(() => session({ terminal: true }).intercept(request('POST')))).message).toContain('and CI is set (CI=true): nothing was sent')
  })

  it('lets every write through with --yes, and any write off production', async () => {
    const confirmed = session({ yes: true })
    await confirmed.intercept(request('POST'))
    await confirmed.intercept(request('DELETE'))
    await expect(session({ settings: SANDBOX }).intercept(request('POST'))).resolves.toBeUndefined()
  })

  it('treats a live_ key as production whatever the environment says', async () => {
    const live = { ...SANDBOX, environment: 'local' as const, credential: 'live_sk_sessionLiveKey0001' }
    expect(await refusal(() => session({ settings: live }).intercept(request('PATCH')))).toBeInstanceOf(ConfigError)
  })

  it('stops the write of a dry run before the guard: the dry run prints it, on production too', async () => {
    expect(isDryRunStop(await refusal(() => session({ dryRun: true }).intercept(request('POST'))))).toBe(true)
  })

  it('guards a command that is in no list at all', async () => {
    expect(await refusal(() => session({ commandId: 'some:future-command' }).intercept(request('POST')))).toBeInstanceOf(ConfigError)
  })
})

describe('the early refusal of a command known to write', () => {
  it('is for commands that declare --again, from their flags', () => {
    expect(declaresWrites({ again: {}, amount: {} })).toBe(true)
    expect(declaresWrites({ amount: {} })).toBe(false)
    expect(declaresWrites(undefined)).toBe(false)
  })

  it('refuses before any request when nobody can confirm, and not with --yes, --dry-run, a person, or off production', () => {
    expect(() => session({ writes: true }).admit()).toThrow(/needs confirmation/)
    expect(() => session({ writes: true, yes: true }).admit()).not.toThrow()
    expect(() => session({ writes: true, dryRun: true }).admit()).not.toThrow()
    expect(() => session({ writes: true, terminal: true }).admit()).not.toThrow()
    expect(() => session({ writes: true, settings: SANDBOX }).admit()).not.toThrow()
    expect(() => session({ writes: false }).admit()).not.toThrow()
  })
})

describe('who can be asked', () => {
  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['TRUE', true],
    ['false', false],
    ['FALSE', false],
    ['0', false],
    ['', false],
    ['  ', false],
  ])('CI=%j is set: %s', (value, set) => {
    expect(ciIsSet({ CI: value })).toBe(set)
  })

  it('nobody when CI is set or --no-input is given, even on a terminal', () => {
    expect(whyNoPrompt(false, { CI: 'true' }, true)).toBe('CI is set (CI=true)')
    expect(whyNoPrompt(true, {}, true)).toBe('--no-input was given')
    expect(whyNoPrompt(false, {}, false)).toBe('there is no terminal to ask')
    expect(whyNoPrompt(false, { CI: 'false' }, true)).toBeUndefined()
  })
})

describe('the emulator control commands', () => {
  const local: ResolvedSettings = {
    ...SANDBOX,
    profileName: 'local',
    environment: 'local',
    baseUrl: 'http://127.0.0.1:4010',
    origins: { baseUrl: 'profile local', credential: 'profile local' },
  }
  const control = (settings: ResolvedSettings) => session({ commandId: 'emulator:reset', settings })

  it('act on an emulator on this machine', () => {
    expect(() => control(local).admit()).not.toThrow()
  })

  it('refuse an address that is not this machine from a variable or a profile: exit 2 (a usage error)', () => {
    const remote = {
      ...local,
      environment: 'production' as const,
      baseUrl: 'https://api.example.com',
      origins: { baseUrl: 'PAYFAC_BASE_URL', credential: 'PAYFAC_API_KEY' },
    }
    expect(() => control(remote).admit()).toThrow(UsageError)
    expect(() => control({ ...SANDBOX, origins: { baseUrl: 'profile sbx', credential: 'profile sbx' } }).admit()).toThrow(/is not on this machine/)
  })

  it('act on a remote emulator that --base-url names on the command line, unless it is production', () => {
    const named = { ...SANDBOX, baseUrl: 'http://emulator.internal:4010', origins: { baseUrl: '--base-url', credential: 'profile local' } }
    expect(() => control(named).admit()).not.toThrow()
    expect(() => control({ ...named, environment: 'production' }).admit()).toThrow(ConfigError)
  })

  it('leave `emulator start` alone', () => {
    expect(() => session({ commandId: 'emulator:start', settings: PRODUCTION }).admit()).not.toThrow()
  })
})
