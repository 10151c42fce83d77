// The OS keychain: macOS Keychain, Windows Credential Manager, the Secret Service on Linux
// (gnome-keyring, KWallet), through @napi-rs/keyring. Loaded only when a secret goes there or
// comes from there (a dynamic import: ~15 ms and a native binary); a command whose profile keeps
// its secret in the file, or that takes PAYFAC_API_KEY, never loads it.
//
// A profile's secret is one entry: service `payfac`, account `<profile name>#<8 random hex>`, so
// that two config folders (PAYFAC_CONFIG_DIR) with a profile of the same name never share one.
// The profile file keeps only that reference and the masked key.
import { randomBytes } from 'node:crypto'
import { ConfigError } from './errors.js'

export const KEYCHAIN_SERVICE = 'payfac'

export interface KeychainRef {
  service: string
  account: string
}

type Binding = typeof import('@napi-rs/keyring')

/** Why the keychain cannot be used: the binding's own words (they never hold a secret). */
export class KeychainUnavailable extends Error {
  override name = 'KeychainUnavailable'
}

let binding: Promise<Binding> | undefined

async function load(): Promise<Binding> {
  binding ??= import('@napi-rs/keyring').catch((error: unknown) => {
    binding = undefined
    throw new KeychainUnavailable(`the keychain library could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`)
  })
  return binding
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split('\n')[0]?.slice(0, 200) ?? 'unknown error'
}

/** A new reference for a profile's secret. */
export function newKeychainRef(profileName: string): KeychainRef {
  return { service: KEYCHAIN_SERVICE, account: `${profileName}#${randomBytes(4).toString('hex')}` }
}

/**
 * Whether a reference is one payfac made for this profile: service `payfac`, account
 * `<profile>#<8 hex>`. A store edited to point a profile at another profile's entry (or at another
 * program's, `github.com`…) would send that secret to the profile's base URL, or delete it on
 * `profiles remove`; payfac neither reads nor deletes such an entry.
 */
export function refBelongsTo(ref: KeychainRef, profileName: string): boolean {
  if (ref.service !== KEYCHAIN_SERVICE || !ref.account.startsWith(`${profileName}#`)) return false
  return /^[0-9a-f]{8}$/.test(ref.account.slice(profileName.length + 1))
}

/** The keychain, loaded: its calls are synchronous, so they can run under the store's lock. */
export interface Keychain {
  /** Stores the secret and reads it back; throws KeychainUnavailable when the keychain refuses. */
  put(ref: KeychainRef, secret: string): void
  /** The secret, or undefined when the entry is not there; throws KeychainUnavailable. */
  get(ref: KeychainRef): string | undefined
  /** Removes the entry; false when it was not there or the keychain cannot be reached. */
  remove(ref: KeychainRef): boolean
}

/** Loads the binding; throws KeychainUnavailable when it cannot be loaded on this system. */
export async function openKeychain(): Promise<Keychain> {
  const { Entry, findCredentials } = await load()
  return {
    put(ref, secret) {
      try {
        const entry = new Entry(ref.service, ref.account)
        entry.setPassword(secret)
        if (entry.getPassword() !== secret) throw new Error('the secret read back differs from the one stored')
      } catch (error) {
        throw new KeychainUnavailable(reason(error))
      }
    },
    get(ref) {
      try {
        const secret = new Entry(ref.service, ref.account).getPassword()
        if (secret !== null) return secret
        // The binding answers null both for "no such entry" and for a keychain it cannot reach;
        // a search of a service nobody uses tells them apart (it throws when unreachable).
        findCredentials(`${KEYCHAIN_SERVICE}-probe`)
        return undefined
      } catch (error) {
        throw new KeychainUnavailable(reason(error))
      }
    },
    remove(ref) {
      try {
        return new Entry(ref.service, ref.account).deletePassword()
      } catch {
        return false
      }
    },
  }
}

/** A profile's secret from the keychain, or a ConfigError that says why not (never the secret). */
export async function readKeychainSecret(ref: KeychainRef, profileName: string): Promise<string> {
  if (!refBelongsTo(ref, profileName)) {
    throw new ConfigError(
      `The OS keychain reference of profile ${profileName} (service ${ref.service}, account ${ref.account}) is not one payfac made for it; payfac will not read it.`,
      {
        reason: 'invalid',
        hint: `Check who edited the profile store; add the profile again: payfac profiles add ${profileName} --replace …`,
      },
    )
  }
  let secret: string | undefined
  try {
    secret = (await openKeychain()).get(ref)
  } catch (error) {
    throw new ConfigError(`The credential of profile ${profileName} is in the OS keychain, which cannot be reached: ${reason(error)}.`, {
      reason: 'missing',
      hint: 'Unlock the keychain (on Linux: a desktop session with gnome-keyring or KWallet running), or use PAYFAC_API_KEY or a --credential-command profile on a machine without one.',
    })
  }
  if (secret === undefined) {
    throw new ConfigError(`The OS keychain holds no credential for profile ${profileName} (service ${ref.service}, account ${ref.account}).`, {
      reason: 'missing',
      hint: `Add it again: payfac profiles add ${profileName} --replace …`,
    })
  }
  return secret
}
