// The profile store is read without zod when it is sound (soundStore): that fast answer must be
// exactly storeSchema's, accepting only what storeSchema accepts and returning it unchanged.
import { describe, expect, it } from 'vitest'
import { soundStore, storeSchema } from '../../src/config/profiles.js'

const dev = {
  name: 'dev',
  environment: 'sandbox',
  baseUrl: 'https://sandbox.example.test',
  credentialKind: 'merchant-secret-key',
  credential: 'sandbox_sk_abcdefghijkl0001',
  merchantId: 'mcht_Abc123',
}
const prod = { ...dev, name: 'prod', environment: 'production', baseUrl: 'https://api.example.test', credential: 'live_sk_abcdefghijkl0001' }
const good = { version: 1, active: 'dev', profiles: { dev, prod }, editor: 'kept as it is' }

const variants: Array<[string, unknown]> = [
  ['a sound store', good],
  ['an empty store', { version: 1, profiles: {} }],
  ['the built-in profile active', { ...good, active: 'local' }],
  ['another version', { ...good, version: 2 }],
  ['no profiles', { version: 1 }],
  ['an unknown field in a profile', { ...good, profiles: { dev: { ...dev, colour: 'blue' } } }],
  ['a name that is not its key', { ...good, profiles: { dev: { ...dev, name: 'other' } } }],
  ['a profile named local', { version: 1, profiles: { local: { ...dev, name: 'local' } } }],
  ['an active name with no profile', { ...good, active: 'gone' }],
  ['a base URL that is not http(s)', { ...good, profiles: { dev: { ...dev, baseUrl: 'ftp://x.test' } } }],
  ['a base URL that is not a URL', { ...good, profiles: { dev: { ...dev, baseUrl: 'nowhere' } } }],
  ['a base URL with a password', { ...good, profiles: { dev: { ...dev, baseUrl: 'https://u:p@x.test' } } }],
  ['plain http to a remote production host', { ...good, profiles: { dev, prod: { ...prod, baseUrl: 'http://api.example.test' } } }],
  ['plain http to this machine in production', { ...good, profiles: { dev, prod: { ...prod, baseUrl: 'http://127.0.0.1:4010' } } }],
  ['a credential of another kind', { ...good, profiles: { dev: { ...dev, credentialKind: 'marketplace-api-key' } } }],
  ['a credential with a space', { ...good, profiles: { dev: { ...dev, credential: 'sandbox_sk abc' } } }],
  ['a merchant id of the wrong kind', { ...good, profiles: { dev: { ...dev, merchantId: 'cust_1' } } }],
  ['an unknown environment', { ...good, profiles: { dev: { ...dev, environment: 'staging' } } }],
  ['a profile that is not an object', { ...good, profiles: { dev: 'x' } }],
  ['a list', [good]],
  ['null', null],
]

describe('soundStore', () => {
  it.each(variants)('agrees with storeSchema on %s', (_label, value) => {
    const parsed = storeSchema.safeParse(value)
    const sound = soundStore(value)
    if (sound !== undefined) {
      expect(parsed.success).toBe(true)
      expect(sound).toBe(value)
      expect(parsed.data).toEqual(value)
    } else {
      // Only a store that storeSchema also refuses is left to it, so the message stays zod's.
      expect(parsed.success).toBe(false)
    }
  })

  it('takes the sound stores as they are', () => {
    const accepted = variants.filter(([, value]) => soundStore(value) !== undefined).map(([label]) => label)
    expect(accepted).toEqual(['a sound store', 'an empty store', 'the built-in profile active', 'plain http to this machine in production'])
  })
})
