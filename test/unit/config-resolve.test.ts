import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/config/errors.js'
import { BUILTIN_LOCAL_PROFILE, type Profile } from '../../src/config/profiles.js'
import { resolveSettings, type ProfileSource, type SettingsFlags } from '../../src/config/resolve.js'

const DEV: Profile = {
  name: 'dev',
  environment: 'sandbox',
  baseUrl: 'https://dev.example.com',
  credentialKind: 'merchant-secret-key',
  credential: 'sandbox_sk_devSecretKey0001',
  merchantId: 'mcht_DevMerchant00001',
}
const PROD: Profile = {
  name: 'prod',
  environment: 'production',
  baseUrl: 'https://api.example.com',
  credentialKind: 'marketplace-api-key',
  credential: 'live_api_prodSecretKey0001',
  marketplaceId: 'mktp_ProdMarket000001',
}

function fakeStore(profiles: Profile[], active?: string): ProfileSource {
  return {
    get: (name) => profiles.find((p) => p.name === name),
    activeName: () => active,
    list: () => profiles,
  }
}

function resolve(flags: SettingsFlags, env: Record<string, string | undefined>, active?: string, profiles = [DEV, PROD]) {
  return resolveSettings({ flags, env, store: fakeStore(profiles, active) })
}

function refusal(fn: () => unknown): ConfigError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error('expected a ConfigError')
}

describe('resolveSettings: which profile', () => {
  interface Row {
    name: string
    flags: SettingsFlags
    env: Record<string, string>
    active?: string
    profile: string | undefined
    source: string
    notices: string[]
  }
  const rows: Row[] = [
    { name: 'nothing configured', flags: {}, env: {}, profile: 'local', source: 'builtin', notices: [] },
    { name: 'an active profile', flags: {}, env: {}, active: 'dev', profile: 'dev', source: 'active', notices: [] },
    { name: 'PAYFAC_PROFILE over the active one', flags: {}, env: { PAYFAC_PROFILE: 'prod' }, active: 'dev', profile: 'prod', source: 'env', notices: [] },
    { name: '--profile over the active one', flags: { profile: 'prod' }, env: {}, active: 'dev', profile: 'prod', source: 'flag', notices: [] },
    {
      name: '--profile over PAYFAC_PROFILE, with a notice',
      flags: { profile: 'prod' },
      env: { PAYFAC_PROFILE: 'dev' },
      active: 'dev',
      profile: 'prod',
      source: 'flag',
      notices: ['using --profile prod (PAYFAC_PROFILE=dev ignored)'],
    },
    { name: '--profile and PAYFAC_PROFILE agreeing', flags: { profile: 'dev' }, env: { PAYFAC_PROFILE: 'dev' }, profile: 'dev', source: 'flag', notices: [] },
    { name: 'a blank PAYFAC_PROFILE counts as unset', flags: {}, env: { PAYFAC_PROFILE: '  ' }, active: 'dev', profile: 'dev', source: 'active', notices: [] },
    { name: '--profile local without a stored local', flags: { profile: 'local' }, env: {}, active: 'dev', profile: 'local', source: 'flag', notices: [] },
    { name: 'an active built-in local', flags: {}, env: {}, active: 'local', profile: 'local', source: 'active', notices: [] },
    {
      name: 'PAYFAC_API_KEY alone: env-only, no profile',
      flags: {},
      env: { PAYFAC_API_KEY: 'sandbox_sk_ciKey000001', PAYFAC_BASE_URL: 'https://ci.example.com' },
      profile: undefined,
      source: 'env',
      notices: [],
    },
  ]

  it.each(rows)('$name', (row) => {
    const settings = resolve(row.flags, row.env, row.active)
    expect(settings.profileName).toBe(row.profile)
    expect(settings.source).toBe(row.source)
    expect(settings.notices).toEqual(row.notices)
  })
})

describe('resolveSettings: values and their precedence', () => {
  it('gives the built-in local profile when nothing is configured', () => {
    expect(resolve({}, {})).toEqual({
      profileName: 'local',
      source: 'builtin',
      environment: 'local',
      environmentReason: 'profile local says local',
      baseUrl: BUILTIN_LOCAL_PROFILE.baseUrl,
      credential: BUILTIN_LOCAL_PROFILE.credential,
      credentialKind: 'merchant-secret-key',
      credentialStore: 'builtin',
      context: { marketplaceId: BUILTIN_LOCAL_PROFILE.marketplaceId, merchantId: BUILTIN_LOCAL_PROFILE.merchantId },
      notices: [],
      origins: { baseUrl: 'profile local', credential: 'profile local', marketplaceId: 'profile local', merchantId: 'profile local' },
      overridden: {},
    })
  })

  it('takes everything from the active profile', () => {
    const s = resolve({}, {}, 'prod')
    expect(s).toMatchObject({
      environment: 'production',
      baseUrl: PROD.baseUrl,
      credential: PROD.credential,
      credentialKind: 'marketplace-api-key',
      context: { marketplaceId: PROD.marketplaceId },
    })
  })

  it('lets PAYFAC_BASE_URL override the active profile, with one notice', () => {
    const s = resolve({}, { PAYFAC_BASE_URL: 'https://proxy.example.com' }, 'dev')
    expect(s.baseUrl).toBe('https://proxy.example.com')
    expect(s.notices).toEqual(['using PAYFAC_BASE_URL=https://proxy.example.com (the base URL https://dev.example.com of profile dev ignored)'])
  })

  it('lets --base-url override both PAYFAC_BASE_URL and the profile, in one notice', () => {
    const s = resolve({ baseUrl: 'https://flag.example.com' }, { PAYFAC_BASE_URL: 'https://env.example.com' }, 'dev')
    expect(s.baseUrl).toBe('https://flag.example.com')
    expect(s.notices).toEqual([
      'using --base-url https://flag.example.com (PAYFAC_BASE_URL=https://env.example.com, the base URL https://dev.example.com of profile dev ignored)',
    ])
  })

  it('records, for whoami, what each setting won over: the same sources as the notices', () => {
    const s = resolve(
      { profile: 'dev', baseUrl: 'https://flag.example.com' },
      {
        PAYFAC_PROFILE: 'prod',
        PAYFAC_BASE_URL: 'https://env.example.com',
        PAYFAC_API_KEY: 'sandbox_sk_envSecretKey0009',
        PAYFAC_MERCHANT_ID: 'mcht_EnvMerchant00001',
      },
    )
    expect(s.overridden).toEqual({
      profile: ['PAYFAC_PROFILE=prod'],
      baseUrl: ['the base URL https://dev.example.com of profile dev', 'PAYFAC_BASE_URL=https://env.example.com'],
      credential: ['PAYFAC_API_KEY=sandbox_sk_…0009'],
      merchantId: ['PAYFAC_MERCHANT_ID=mcht_EnvMerchant00001'],
    })
    expect(s.notices).toHaveLength(4)
    expect(resolve({}, {}, 'dev').overridden).toEqual({})
  })

  it('keeps the values of a profile named by --profile over environment variables', () => {
    const s = resolve({ profile: 'dev' }, { PAYFAC_BASE_URL: 'https://env.example.com', PAYFAC_MERCHANT_ID: 'mcht_EnvMerchant00001' })
    expect(s.baseUrl).toBe(DEV.baseUrl)
    expect(s.context.merchantId).toBe(DEV.merchantId)
    expect(s.notices).toEqual([
      'using the base URL https://dev.example.com of profile dev (PAYFAC_BASE_URL=https://env.example.com ignored)',
      'using the merchant id mcht_DevMerchant00001 of profile dev (PAYFAC_MERCHANT_ID=mcht_EnvMerchant00001 ignored)',
    ])
  })

  it('lets environment variables override a profile named by PAYFAC_PROFILE', () => {
    const s = resolve({}, { PAYFAC_PROFILE: 'dev', PAYFAC_MERCHANT_ID: 'mcht_EnvMerchant00001' })
    expect(s.context.merchantId).toBe('mcht_EnvMerchant00001')
    expect(s.notices).toHaveLength(1)
  })

  it('fills context from flags, env and profile without notices when nothing disagrees', () => {
    const s = resolve({ customerId: 'cust_FlagCustomer0001' }, { PAYFAC_MARKETPLACE_ID: 'mktp_EnvMarket000001' }, 'dev')
    expect(s.context).toEqual({
      customerId: 'cust_FlagCustomer0001',
      marketplaceId: 'mktp_EnvMarket000001',
      merchantId: DEV.merchantId,
    })
    expect(s.notices).toEqual([])
  })

  it('lets --merchant-id override PAYFAC_MERCHANT_ID and the profile', () => {
    const s = resolve({ merchantId: 'mcht_FlagMerchant0001' }, { PAYFAC_MERCHANT_ID: 'mcht_EnvMerchant00001' }, 'dev')
    expect(s.context.merchantId).toBe('mcht_FlagMerchant0001')
    expect(s.notices).toEqual([
      'using --merchant-id mcht_FlagMerchant0001 (PAYFAC_MERCHANT_ID=mcht_EnvMerchant00001, the merchant id mcht_DevMerchant00001 of profile dev ignored)',
    ])
  })

  it('does not report overriding the built-in fallback', () => {
    const s = resolve({}, { PAYFAC_BASE_URL: 'http://127.0.0.1:5000' })
    expect(s.baseUrl).toBe('http://127.0.0.1:5000')
    expect(s.notices).toEqual([])
  })
})

describe('resolveSettings: PAYFAC_API_KEY', () => {
  it('overrides the credential of the active profile, with a masked notice', () => {
    const s = resolve({}, { PAYFAC_API_KEY: 'sandbox_pk_envPublicKey0009' }, 'dev')
    expect(s.credential).toBe('sandbox_pk_envPublicKey0009')
    expect(s.credentialKind).toBe('merchant-public-key')
    expect(s.baseUrl).toBe(DEV.baseUrl)
    expect(s.notices).toEqual(['using PAYFAC_API_KEY=sandbox_pk_…0009 (the credential sandbox_sk_…0001 of profile dev ignored)'])
    expect(s.notices.join()).not.toContain('envPublicKey')
    expect(s.notices.join()).not.toContain('devSecretKey')
  })

  it('does not override the credential of a profile named by --profile', () => {
    const s = resolve({ profile: 'dev' }, { PAYFAC_API_KEY: 'sandbox_pk_envPublicKey0009' })
    expect(s.credential).toBe(DEV.credential)
    expect(s.notices).toEqual(['using the credential sandbox_sk_…0001 of profile dev (PAYFAC_API_KEY=sandbox_pk_…0009 ignored)'])
  })

  it('is refused on a production profile when it is a sandbox key', () => {
    expect(refusal(() => resolve({}, { PAYFAC_API_KEY: 'sandbox_sk_wrongEnvKey01' }, 'prod')).reason).toBe('key-environment-mismatch')
  })

  it.each([
    ['live key, remote URL', 'live_sk_liveKey0000001', 'https://api.example.com', 'production'],
    ['sandbox key, remote URL', 'sandbox_sk_sbxKey000001', 'https://sandbox.example.com', 'sandbox'],
    ['sandbox key, loopback URL', 'sandbox_sk_sbxKey000001', 'http://127.0.0.1:4010', 'local'],
    ['live key, loopback URL', 'live_sk_liveKey0000001', 'http://localhost:8443', 'production'],
  ])('env-only with a %s is %s', (_label, key, url, environment) => {
    const s = resolve({}, { PAYFAC_API_KEY: key, PAYFAC_BASE_URL: url }, undefined, [])
    expect(s.environment).toBe(environment)
    expect(s.baseUrl).toBe(url)
    expect(s.context).toEqual({})
  })

  it('env-only needs a base URL', () => {
    const error = refusal(() => resolve({}, { PAYFAC_API_KEY: 'sandbox_sk_ciKey000001' }))
    expect(error.reason).toBe('missing')
    expect(error.hint).toContain('PAYFAC_BASE_URL')
  })

  it('needs PAYFAC_CREDENTIAL_KIND for a JWT, and then treats an unknown environment as production', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'
    const env = { PAYFAC_API_KEY: jwt, PAYFAC_BASE_URL: 'https://api.example.com' }
    expect(refusal(() => resolve({}, env)).reason).toBe('missing')
    const s = resolve({}, { ...env, PAYFAC_CREDENTIAL_KIND: 'customer-jwt' })
    expect(s.credentialKind).toBe('customer-jwt')
    expect(s.environment).toBe('production')
  })

  it('refuses a PAYFAC_CREDENTIAL_KIND the key contradicts', () => {
    const env = { PAYFAC_API_KEY: 'sandbox_sk_x000000001', PAYFAC_BASE_URL: 'https://x.example.com', PAYFAC_CREDENTIAL_KIND: 'customer-jwt' }
    expect(refusal(() => resolve({}, env)).reason).toBe('invalid')
  })
})

describe('resolveSettings: refusals', () => {
  it('names the known profiles for an unknown --profile', () => {
    const error = refusal(() => resolve({ profile: 'staging' }, {}))
    expect(error.reason).toBe('unknown-profile')
    expect(error.message).toContain('--profile')
    expect(error.hint).toBe('Known profiles: dev, prod, local (built-in).')
  })

  it('names the known profiles for an unknown PAYFAC_PROFILE', () => {
    const error = refusal(() => resolve({}, { PAYFAC_PROFILE: 'staging' }))
    expect(error.message).toContain('PAYFAC_PROFILE')
  })

  it('works with a store that cannot list', () => {
    const store = { get: () => undefined, activeName: () => undefined }
    const error = refusal(() => resolveSettings({ flags: { profile: 'x' }, env: {}, store }))
    expect(error.hint).toBe('Known profiles: local (built-in).')
  })

  it('refuses a live key on a sandbox profile before anything is sent', () => {
    expect(refusal(() => resolve({}, { PAYFAC_API_KEY: 'live_sk_liveKey0000001' }, 'dev')).reason).toBe('key-environment-mismatch')
  })

  it('refuses a bad base URL, naming where it came from', () => {
    expect(refusal(() => resolve({ baseUrl: 'api.example.com' }, {})).message).toContain('--base-url')
    expect(refusal(() => resolve({}, { PAYFAC_BASE_URL: 'ftp://x' })).message).toContain('PAYFAC_BASE_URL')
  })

  it('refuses plain http to a remote host for production', () => {
    expect(refusal(() => resolve({ baseUrl: 'http://api.example.com' }, {}, 'prod')).reason).toBe('invalid')
  })

  it('refuses a context id with the wrong prefix, naming where it came from', () => {
    const error = refusal(() => resolve({}, { PAYFAC_CUSTOMER_ID: 'mcht_NotACustomer001' }))
    expect(error.reason).toBe('invalid')
    expect(error.message).toContain('PAYFAC_CUSTOMER_ID')
  })
})

describe('resolveSettings: the environment follows the values in effect', () => {
  const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'
  const LOCAL_JWT: Profile = { name: 'lab', environment: 'local', baseUrl: 'https://lab.example.com', credentialKind: 'merchant-jwt', credential: JWT }
  const SANDBOX_JWT: Profile = { ...LOCAL_JWT, name: 'sbx', environment: 'sandbox' }
  const LOCAL_LOOPBACK: Profile = { ...LOCAL_JWT, name: 'loop', baseUrl: 'http://127.0.0.1:4010' }

  it('makes a local profile production when PAYFAC_BASE_URL and PAYFAC_API_KEY replace its values with a remote host and a JWT', () => {
    const env = { PAYFAC_BASE_URL: 'https://api.example.com', PAYFAC_API_KEY: JWT, PAYFAC_CREDENTIAL_KIND: 'merchant-jwt' }
    const s = resolve({}, env, 'local', [])
    expect(s.profileName).toBe('local')
    expect(s.environment).toBe('production')
    expect(s.environmentReason).toBe(
      'PAYFAC_BASE_URL and PAYFAC_API_KEY replace the values of profile local: api.example.com (PAYFAC_BASE_URL) is not this machine and the credential names no environment',
    )
  })

  it('takes a replaced key’s prefix before the host: a sandbox key on a remote host is sandbox', () => {
    const s = resolve({}, { PAYFAC_BASE_URL: 'https://sandbox.example.com', PAYFAC_API_KEY: 'sandbox_sk_replacedKey0001' }, 'loop', [
      { ...LOCAL_LOOPBACK, credential: 'sandbox_sk_loopKey000001', credentialKind: 'merchant-secret-key' },
    ])
    expect(s.environment).toBe('sandbox')
    expect(s.environmentReason).toContain('the credential (PAYFAC_API_KEY) is a sandbox_ key')
  })

  it.each([
    ['a remote --base-url and the sandbox key of the built-in profile', { baseUrl: 'https://emulator.example.com' }, {}, 'sandbox'],
    ['a loopback PAYFAC_BASE_URL with a JWT', {}, { PAYFAC_BASE_URL: 'http://localhost:4011' }, 'local'],
    ['a *.localhost name', {}, { PAYFAC_BASE_URL: 'http://payfac.localhost:4011' }, 'local'],
    ['an IPv6 loopback', {}, { PAYFAC_BASE_URL: 'http://[::1]:4011' }, 'local'],
    ['another 127/8 address', {}, { PAYFAC_BASE_URL: 'http://127.4.5.6:4011' }, 'local'],
    ['a private address that is not loopback', {}, { PAYFAC_BASE_URL: 'https://10.0.0.8:4011' }, 'production'],
  ] as const)('replacing values with %s is %s', (_label, flags, env, environment) => {
    const profiles = [LOCAL_LOOPBACK]
    const active = 'baseUrl' in flags ? undefined : 'loop'
    expect(resolve(flags, env, active, profiles).environment).toBe(environment)
  })

  it.each([
    ['local', LOCAL_JWT],
    ['sandbox', SANDBOX_JWT],
  ])('cannot lower the guard with a %s label on a remote URL with a key that names no environment', (label, profile) => {
    const s = resolve({}, {}, profile.name, [profile])
    expect(s.environment).toBe('production')
    expect(s.environmentReason).toBe(`profile ${profile.name} says ${label}, but lab.example.com is not this machine and the credential names no environment`)
  })

  it('keeps a local label on this machine, and a sandbox label with a sandbox key', () => {
    expect(resolve({}, {}, 'loop', [LOCAL_LOOPBACK]).environment).toBe('local')
    expect(resolve({}, {}, 'dev').environment).toBe('sandbox')
  })

  it('never lowers a production label, even when the values point at this machine', () => {
    const s = resolve({}, { PAYFAC_BASE_URL: 'http://127.0.0.1:4010' }, 'prod')
    expect(s.environment).toBe('production')
    expect(s.environmentReason).toBe('profile prod says production')
  })

  it('refuses plain http to a remote host once a label is raised to production', () => {
    expect(refusal(() => resolve({}, {}, 'lab', [{ ...LOCAL_JWT, baseUrl: 'http://lab.example.com' }])).reason).toBe('invalid')
  })
})
