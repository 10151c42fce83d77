// Where each setting can come from, and which credential: the candidates resolve.ts chooses
// among, the profile in use, and the secret to fetch first when the credential in use is kept in
// the OS keychain or printed by a command (pendingSecret). Pure, as resolve.ts is.
import {
  BUILTIN_LOCAL_PROFILE,
  CREDENTIAL_KINDS,
  LOCAL_PROFILE_NAME,
  inferCredentialKind,
  maskCredential,
  secretStoreOf,
  unknownProfile,
  type CredentialKind,
  type Profile,
} from './profiles.js'
import { ConfigError } from './errors.js'

export interface SettingsFlags {
  profile?: string | undefined
  baseUrl?: string | undefined
  merchantId?: string | undefined
  marketplaceId?: string | undefined
  customerId?: string | undefined
}

/** What resolution needs from a store. `list` is optional; with it, errors name the known profiles. */
export interface ProfileSource {
  get(name: string): Profile | undefined
  activeName(): string | undefined
  list?(): Profile[]
}

export type SettingsSource = 'flag' | 'env' | 'active' | 'builtin'

/** Where the credential in use comes from ('builtin': the built-in local profile's well-known key). */
export type CredentialStore = 'env' | 'file' | 'keychain' | 'command' | 'builtin'

/** A credential that must be fetched before the settings can be resolved (pendingSecret). */
export type PendingSecret =
  | { store: 'keychain'; ref: { service: string; account: string }; profileName: string; origin: string }
  | { store: 'command'; command: string; origin: string }

export interface ResolveInput {
  flags: SettingsFlags
  env: Record<string, string | undefined>
  store: ProfileSource
  /** The secret that pendingSecret asked for, fetched. */
  revealed?: string | undefined
}

/** Environment variables read by resolveSettings. */
export const SETTINGS_ENV = {
  profile: 'PAYFAC_PROFILE',
  apiKey: 'PAYFAC_API_KEY',
  /** A command that prints the credential (credential-command.ts); PAYFAC_API_KEY wins over it. */
  credentialCommand: 'PAYFAC_CREDENTIAL_COMMAND',
  /** Needed only when PAYFAC_API_KEY holds a credential whose kind cannot be inferred (a JWT). */
  credentialKind: 'PAYFAC_CREDENTIAL_KIND',
  baseUrl: 'PAYFAC_BASE_URL',
  merchantId: 'PAYFAC_MERCHANT_ID',
  marketplaceId: 'PAYFAC_MARKETPLACE_ID',
  customerId: 'PAYFAC_CUSTOMER_ID',
  /** A shared operation journal (postgres://…): journal-url.ts. */
  journalUrl: 'PAYFAC_JOURNAL_URL',
} as const

export interface Candidate {
  value: string | undefined
  /** How the value is named in a notice or error, value included (masked for credentials). */
  label: string
  /** Where it came from, for error messages: "--base-url", "PAYFAC_BASE_URL", "profile dev". */
  origin: string
  /** Set for candidates taken from a profile. */
  profile?: Profile
  /** The built-in fallback: losing to anything is not worth a notice. */
  fallback?: boolean
  /** For a credential: where it is kept, and what must be fetched when it wins. */
  store?: CredentialStore
  pending?: PendingSecret
}

/**
 * The first present candidate wins; every other present candidate with a different value is
 * named in one notice.
 */
export function choose(candidates: Candidate[], notices: string[], overridden?: (labels: string[]) => void): Candidate | undefined {
  const present = candidates.filter((c) => c.value !== undefined)
  const winner = present[0]
  if (!winner) return undefined
  const ignored = present.slice(1).filter((c) => c.value !== winner.value && !c.fallback)
  if (ignored.length > 0) {
    notices.push(`using ${winner.label} (${ignored.map((c) => c.label).join(', ')} ignored)`)
    overridden?.(ignored.map((c) => c.label))
  }
  return winner
}

/** Trimmed value, with an empty or blank string counting as absent. */
export function given(value: string | undefined): string | undefined {
  const text = value?.trim()
  return text ? text : undefined
}

export interface Chosen {
  source: SettingsSource
  profile: Profile | undefined
}

/** Which profile (if any) is in use, and what chose it. */
export function chooseProfile(input: ResolveInput, notices: string[], overridden: { profile?: string[] | undefined }): Chosen {
  const { flags, env, store } = input
  const flagProfile = given(flags.profile)
  const envProfile = given(env[SETTINGS_ENV.profile])
  const knownNames = () => store.list?.().map((p) => p.name) ?? []
  const lookup = (name: string, from: string): Profile => {
    const found = store.get(name) ?? (name === LOCAL_PROFILE_NAME ? { ...BUILTIN_LOCAL_PROFILE } : undefined)
    if (!found) throw unknownProfile(name, knownNames(), from)
    return found
  }
  if (flagProfile !== undefined) {
    if (envProfile !== undefined && envProfile !== flagProfile) {
      notices.push(`using --profile ${flagProfile} (${SETTINGS_ENV.profile}=${envProfile} ignored)`)
      overridden.profile = [`${SETTINGS_ENV.profile}=${envProfile}`]
    }
    return { source: 'flag', profile: lookup(flagProfile, '--profile') }
  }
  if (envProfile !== undefined) return { source: 'env', profile: lookup(envProfile, SETTINGS_ENV.profile) }
  const active = given(store.activeName())
  if (active !== undefined) return { source: 'active', profile: lookup(active, 'the active profile') }
  if (given(env[SETTINGS_ENV.apiKey]) !== undefined || given(env[SETTINGS_ENV.credentialCommand]) !== undefined) return { source: 'env', profile: undefined }
  return { source: 'builtin', profile: { ...BUILTIN_LOCAL_PROFILE } }
}

/** A profile's values sit just below flags when a flag chose it, just below named env settings otherwise. */
export function ranked({ source }: Chosen, flag: Candidate[], envValue: Candidate[], profileValue: Candidate[]): Candidate[] {
  return source === 'flag' ? [...flag, ...profileValue, ...envValue] : [...flag, ...envValue, ...profileValue]
}

export function fromProfile({ source, profile }: Chosen, value: string | undefined, label: string, extra: Partial<Candidate> = {}): Candidate[] {
  return profile ? [{ value, label, origin: `profile ${profile.name}`, profile, fallback: source === 'builtin', ...extra }] : []
}

/**
 * The credential candidates, strongest first. One kept elsewhere (the keychain, a command) stands
 * for itself by a placeholder value that no key can equal, until it wins and is fetched.
 */
export function credentialCandidates(input: ResolveInput, chosen: Chosen): Candidate[] {
  const { env } = input
  const envKey = given(env[SETTINGS_ENV.apiKey])
  const envCommand = given(env[SETTINGS_ENV.credentialCommand])
  const fromEnv: Candidate[] = [
    { value: envKey, label: envKey ? `${SETTINGS_ENV.apiKey}=${maskCredential(envKey)}` : '', origin: SETTINGS_ENV.apiKey, store: 'env' },
    {
      value: envCommand === undefined ? undefined : `\u0000command ${envCommand}`,
      label: `the credential printed by ${SETTINGS_ENV.credentialCommand}`,
      origin: SETTINGS_ENV.credentialCommand,
      store: 'command',
      ...(envCommand === undefined ? {} : { pending: { store: 'command' as const, command: envCommand, origin: SETTINGS_ENV.credentialCommand } }),
    },
  ]
  const profile = chosen.profile
  let fromStore: Candidate[] = []
  if (profile) {
    const origin = `profile ${profile.name}`
    const kept = secretStoreOf(profile)
    if (kept === 'keychain' && profile.credentialKeychain) {
      fromStore = fromProfile(
        chosen,
        `\u0000keychain ${profile.name}`,
        `the credential ${profile.credentialMasked ?? ''} of profile ${profile.name} in the OS keychain`,
        {
          store: 'keychain',
          pending: { store: 'keychain', ref: profile.credentialKeychain, profileName: profile.name, origin },
        },
      )
    } else if (kept === 'command' && profile.credentialCommand !== undefined) {
      fromStore = fromProfile(chosen, `\u0000command ${profile.credentialCommand}`, `the credential command of profile ${profile.name}`, {
        store: 'command',
        pending: { store: 'command', command: profile.credentialCommand, origin },
      })
    } else {
      const key = profile.credential
      fromStore = fromProfile(chosen, key, key ? `the credential ${maskCredential(key)} of profile ${profile.name}` : '', {
        store: chosen.source === 'builtin' || (profile.name === LOCAL_PROFILE_NAME && !input.store.get(LOCAL_PROFILE_NAME)) ? 'builtin' : 'file',
      })
    }
  }
  return ranked(chosen, [], fromEnv, fromStore)
}

/**
 * The credential the settings will use, when it is kept in the OS keychain or printed by a
 * command: the caller fetches it and passes it to resolveSettings as `revealed`. Undefined when
 * the credential is at hand (PAYFAC_API_KEY, the profile file, the built-in profile).
 */
export function pendingSecret(input: ResolveInput): PendingSecret | undefined {
  const chosen = chooseProfile(input, [], {})
  return credentialCandidates(input, chosen).find((c) => c.value !== undefined)?.pending
}

/** The kind of PAYFAC_API_KEY (or of what PAYFAC_CREDENTIAL_COMMAND printed): inferred from its prefix, or given by PAYFAC_CREDENTIAL_KIND. */
export function envCredentialKind(key: string, env: Record<string, string | undefined>, origin: string): CredentialKind {
  const inferred = inferCredentialKind(key)
  const stated = given(env[SETTINGS_ENV.credentialKind])
  if (stated !== undefined && !(CREDENTIAL_KINDS as readonly string[]).includes(stated)) {
    throw new ConfigError(`${SETTINGS_ENV.credentialKind}=${stated} is not a credential kind.`, {
      reason: 'invalid',
      hint: `Use one of: ${CREDENTIAL_KINDS.join(', ')}.`,
    })
  }
  if (inferred && stated && stated !== inferred) {
    throw new ConfigError(`${SETTINGS_ENV.credentialKind}=${stated}, but ${origin} holds a ${inferred} (${maskCredential(key)}).`, { reason: 'invalid' })
  }
  const kind = inferred ?? (stated as CredentialKind | undefined)
  if (!kind) {
    throw new ConfigError(`The kind of credential in ${origin} (${maskCredential(key)}) cannot be told from its form.`, {
      reason: 'missing',
      hint: `Set ${SETTINGS_ENV.credentialKind} (for example customer-jwt), or add a profile with its kind.`,
    })
  }
  return kind
}
