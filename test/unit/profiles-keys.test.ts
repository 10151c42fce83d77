import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/config/errors.js'
import {
  BUILTIN_LOCAL_PROFILE,
  CREDENTIAL_KINDS,
  checkKeyMatchesEnvironment,
  inferCredentialKind,
  isLoopbackUrl,
  keyEnvironment,
  maskCredential,
  parseProfile,
  type Environment,
} from '../../src/config/profiles.js'
import { LOCAL_BASE_URL, WELL_KNOWN } from '../../src/well-known.js'

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjdXN0In0.c2lnbmF0dXJlcGFydA9z8k'

describe('inferCredentialKind', () => {
  it.each([
    ['sandbox_sk_abc123', 'merchant-secret-key'],
    ['live_sk_abc123', 'merchant-secret-key'],
    ['sandbox_pk_abc123', 'merchant-public-key'],
    ['live_pk_abc123', 'merchant-public-key'],
    ['sandbox_api_abc123', 'marketplace-api-key'],
    ['live_api_abc123', 'marketplace-api-key'],
  ])('%s is a %s', (key, kind) => {
    expect(inferCredentialKind(key)).toBe(kind)
  })

  it.each([[JWT], ['test_sk_abc123'], ['sk_abc123'], ['sandbox_xx_abc'], ['random-token'], ['']])('cannot tell the kind of %j', (key) => {
    expect(inferCredentialKind(key)).toBeUndefined()
  })

  it('names the ten kinds of the contract', () => {
    expect(CREDENTIAL_KINDS).toHaveLength(10)
  })
})

describe('keyEnvironment', () => {
  it('reads the first word of a prefixed key', () => {
    expect(keyEnvironment('sandbox_api_x1')).toBe('sandbox')
    expect(keyEnvironment('live_pk_x1')).toBe('live')
    expect(keyEnvironment(JWT)).toBeUndefined()
    expect(keyEnvironment('production_sk_x1')).toBeUndefined()
  })
})

describe('checkKeyMatchesEnvironment', () => {
  const refused: Array<[Environment, string]> = [
    ['sandbox', 'live_sk_secretSecret1234'],
    ['local', 'live_api_secretSecret1234'],
    ['production', 'sandbox_sk_secretSecret1234'],
  ]
  it.each(refused)('refuses on a %s profile the key %s, without quoting it whole', (environment, key) => {
    let caught: unknown
    try {
      checkKeyMatchesEnvironment(environment, key)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ConfigError)
    const error = caught as ConfigError
    expect(error.reason).toBe('key-environment-mismatch')
    expect(error.message).not.toContain('secretSecret')
    expect(error.message).toContain('…1234')
  })

  const accepted: Array<[Environment, string]> = [
    ['sandbox', 'sandbox_sk_x12345'],
    ['local', 'sandbox_pk_x12345'],
    ['production', 'live_sk_x12345'],
    ['production', JWT],
    ['sandbox', JWT],
    ['local', 'opaque-token-123'],
  ]
  it.each(accepted)('accepts on a %s profile the key %s', (environment, key) => {
    expect(() => checkKeyMatchesEnvironment(environment, key)).not.toThrow()
  })
})

describe('maskCredential', () => {
  it.each([
    ['sandbox_sk_abcdefghijkla1b2', 'sandbox_sk_…a1b2'],
    ['live_api_0123456789abcdefWXYZ', 'live_api_…WXYZ'],
    [JWT, 'eyJ…9z8k'],
    ['opaque-token-value-7f3e', '…7f3e'],
    // Short secrets show a third of their length at most.
    ['sandbox_pk_abcdef', 'sandbox_pk_…ef'],
    ['abc', '…c'],
    ['ab', '…'],
    ['sandbox_sk_', 'sandbox_sk_…'],
  ])('%s → %s', (key, masked) => {
    expect(maskCredential(key)).toBe(masked)
  })

  it('never shows more than 4 characters of the secret part', () => {
    for (const key of [`sandbox_sk_${'x'.repeat(100)}`, JWT, 'y'.repeat(200)]) {
      const shown = maskCredential(key).split('…')[1] ?? ''
      expect(shown.length).toBeLessThanOrEqual(4)
    }
  })
})

describe('isLoopbackUrl', () => {
  it.each(['http://127.0.0.1:4010', 'http://localhost:3000/x', 'http://[::1]:80', 'http://127.1.2.3', 'https://api.localhost'])('%s is this machine', (url) =>
    expect(isLoopbackUrl(url)).toBe(true),
  )
  it.each(['https://sandbox.example.com', 'http://10.0.0.1', 'http://emulator:4010', 'not a url'])('%s is not', (url) => expect(isLoopbackUrl(url)).toBe(false))
})

describe('parseProfile', () => {
  const base = {
    name: 'dev',
    environment: 'sandbox',
    baseUrl: 'https://sandbox.example.com',
    credentialKind: 'merchant-secret-key',
    credential: 'sandbox_sk_abcdefgh1234',
  }

  it('accepts a valid profile and drops optional fields given as undefined', () => {
    const profile = parseProfile({ ...base, merchantId: undefined, customerId: 'cust_ZqCNoNcm_22WeZ-j' })
    expect(profile).toEqual({ ...base, customerId: 'cust_ZqCNoNcm_22WeZ-j' })
    expect(Object.keys(profile)).not.toContain('merchantId')
  })

  it.each([
    ['a name with a space', { name: 'my dev' }, 'name'],
    ['a name longer than 64', { name: 'a'.repeat(65) }, 'name'],
    ['an unknown environment', { environment: 'staging' }, 'environment'],
    ['a base URL that is not http(s)', { baseUrl: 'ftp://files.example.com' }, 'baseUrl'],
    ['a base URL that is not a URL', { baseUrl: 'sandbox.example.com' }, 'baseUrl'],
    ['an unknown credential kind', { credentialKind: 'password' }, 'credentialKind'],
    ['a kind the key contradicts', { credentialKind: 'merchant-public-key' }, 'credentialKind'],
    ['a merchant id without mcht_', { merchantId: 'cust_abc' }, 'merchantId'],
    ['a marketplace id without mktp_', { marketplaceId: 'mcht_abc' }, 'marketplaceId'],
    ['a customer id without cust_', { customerId: 'abc' }, 'customerId'],
    ['an unknown field', { colour: 'blue' }, 'colour'],
    ['plain http for production', { environment: 'production', credential: 'live_sk_abc12345', baseUrl: 'http://api.example.com' }, 'baseUrl'],
  ])('refuses %s', (_label, change, field) => {
    let caught: unknown
    try {
      parseProfile({ ...base, ...change })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ConfigError)
    expect((caught as ConfigError).reason).toBe('invalid')
    expect((caught as ConfigError).message).toContain(field)
  })

  it('refuses a key of the other environment', () => {
    expect(() => parseProfile({ ...base, credential: 'live_sk_abcdefgh1234' })).toThrow(/live key/)
  })

  it('accepts a JWT of any JWT kind, and http to this machine for production', () => {
    expect(parseProfile({ ...base, credentialKind: 'customer-jwt', credential: JWT }).credentialKind).toBe('customer-jwt')
    expect(parseProfile({ ...base, environment: 'production', credential: 'live_sk_abc12345', baseUrl: 'http://127.0.0.1:8443' }).baseUrl).toBe(
      'http://127.0.0.1:8443',
    )
  })
})

describe('BUILTIN_LOCAL_PROFILE', () => {
  it('is the emulator with its well-known seed, and valid', () => {
    expect(BUILTIN_LOCAL_PROFILE).toEqual({
      name: 'local',
      environment: 'local',
      baseUrl: LOCAL_BASE_URL,
      credentialKind: 'merchant-secret-key',
      credential: WELL_KNOWN.credentials.merchantSecretKey,
      merchantId: WELL_KNOWN.merchantId,
      marketplaceId: WELL_KNOWN.marketplaceId,
    })
    expect(parseProfile({ ...BUILTIN_LOCAL_PROFILE })).toEqual(BUILTIN_LOCAL_PROFILE)
    expect(Object.isFrozen(BUILTIN_LOCAL_PROFILE)).toBe(true)
  })
})
