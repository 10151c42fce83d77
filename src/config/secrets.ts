// Where a profile's secret is put, and how one kept elsewhere is fetched.
//
// - `profiles add` puts the secret in the OS keychain (keychain.ts) and the profile file keeps the
//   reference and the masked key. When no keychain can be reached (a headless server, a container
//   without a session bus), the secret goes in the 0600 file and the caller says so once;
//   `--insecure-storage` chooses the file on purpose. A credential command is stored as the
//   command, never its output.
// - `profiles migrate-secrets` moves the secrets of the file into the keychain, under the store's
//   lock; if anything fails, nothing is changed and the entries made so far are removed.
// - `revealSecret` fetches what resolve.ts's pendingSecret asks for: from the keychain, or by
//   running the command (credential-command.ts).
// Loaded only on those paths (this file is imported dynamically, the keychain binding too).
import { runCredentialCommand } from './credential-command.js'
import { ConfigError } from './errors.js'
import { newKeychainRef, openKeychain, readKeychainSecret, refBelongsTo, KeychainUnavailable, type Keychain, type KeychainRef } from './keychain.js'
import { maskCredential, secretStoreOf, type Profile, type SecretStore } from './profiles.js'
import type { PendingSecret } from './resolve.js'
import type { AddProfileOptions, ProfileStore } from './store.js'

/** The credential a pending secret stands for; ConfigError when it cannot be had (never quoting it). */
export async function revealSecret(pending: PendingSecret): Promise<string> {
  if (pending.store === 'keychain') return readKeychainSecret(pending.ref, pending.profileName)
  return runCredentialCommand(pending.command, { origin: pending.origin })
}

export interface SaveOptions extends AddProfileOptions {
  /** Keep the secret in the 0600 file even when a keychain is there. */
  insecureStorage?: boolean | undefined
}

export interface Saved {
  profile: Profile
  /** Where the secret went. */
  store: SecretStore
  /** Why the keychain was not used, when it was wanted and could not be reached. */
  noKeychain?: string | undefined
}

async function keychainOrWhy(): Promise<Keychain | string> {
  try {
    return await openKeychain()
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** A profile whose secret is in the file, turned into one whose secret is in the keychain (put there). */
function intoKeychain(keychain: Keychain, profile: Profile, made: KeychainRef[]): Profile {
  const { credential, ...rest } = profile
  const ref = newKeychainRef(profile.name)
  keychain.put(ref, credential as string)
  made.push(ref)
  return { ...rest, credentialKeychain: ref, credentialMasked: maskCredential(credential as string) }
}

/** Stores a checked profile (parseProfile), its secret in the keychain when there is one. */
export async function saveProfile(store: ProfileStore, profile: Profile, options: SaveOptions = {}): Promise<Saved> {
  const before = store.get(profile.name)
  let saved: Saved = { profile, store: secretStoreOf(profile) }
  let keychain: Keychain | undefined
  const made: KeychainRef[] = []
  if (saved.store === 'file' && !options.insecureStorage) {
    const opened = await keychainOrWhy()
    if (typeof opened === 'string') saved = { ...saved, noKeychain: opened }
    else {
      keychain = opened
      try {
        saved = { profile: intoKeychain(keychain, profile, made), store: 'keychain' }
      } catch (error) {
        if (!(error instanceof KeychainUnavailable)) throw error
        saved = { ...saved, noKeychain: error.message }
      }
    }
  }
  try {
    saved.profile = await store.add(saved.profile, options)
  } catch (error) {
    for (const ref of made) keychain?.remove(ref)
    throw error
  }
  // A replaced profile's old keychain entry is of no use any more.
  if (before?.credentialKeychain && options.replace) await forgetSecret(before)
  return saved
}

/** Removes the keychain entry of a profile (after the profile itself is gone); quiet when there is none. */
export async function forgetSecret(profile: Profile): Promise<void> {
  // A reference payfac did not make for this profile (an edited store) names someone else's entry.
  if (!profile.credentialKeychain || !refBelongsTo(profile.credentialKeychain, profile.name)) return
  try {
    ;(await openKeychain()).remove(profile.credentialKeychain)
  } catch {
    // No keychain here: nothing to remove.
  }
}

/** Moves every secret kept in the file into the keychain. The names of the profiles moved. */
export async function migrateSecrets(store: ProfileStore): Promise<string[]> {
  if (!store.list().some((profile) => secretStoreOf(profile) === 'file')) return []
  let keychain: Keychain
  try {
    keychain = await openKeychain()
  } catch (error) {
    throw noKeychain(error)
  }
  const made: KeychainRef[] = []
  const moved: string[] = []
  try {
    await store.rewrite((profile) => {
      if (secretStoreOf(profile) !== 'file') return profile
      moved.push(profile.name)
      return intoKeychain(keychain, profile, made)
    })
  } catch (error) {
    for (const ref of made) keychain.remove(ref)
    throw error instanceof KeychainUnavailable ? noKeychain(error) : error
  }
  return moved
}

function noKeychain(error: unknown): ConfigError {
  const why = error instanceof Error ? error.message : String(error)
  return new ConfigError(`No OS keychain can be reached (${why}); nothing was moved.`, {
    reason: 'missing',
    hint: 'Run it in a desktop session (on Linux: gnome-keyring or KWallet with a session bus), or keep the 0600 file and use a --credential-command profile instead.',
  })
}
