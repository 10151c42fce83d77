// Which profile, address, credential and context ids a command uses. Pure: the environment
// variables and the store are passed in, nothing here touches the process or the disk.
//
// Precedence, strongest first:
//   1. flags                      --base-url, --merchant-id, --marketplace-id, --customer-id
//   2. a profile named by a flag  --profile
//   3. environment variables      PAYFAC_BASE_URL, PAYFAC_API_KEY, PAYFAC_MERCHANT_ID, …
//   4. a profile named by env     PAYFAC_PROFILE
//   5. the active profile         (profiles use …)
//   6. the built-in `local`       the emulator with its well-known seed
// A profile's values carry the rank of whatever chose the profile, and a single named setting
// beats the profile chosen at its own level: `--profile prod` outranks PAYFAC_BASE_URL, while
// PAYFAC_BASE_URL outranks the base URL of the profile named by PAYFAC_PROFILE.
//
// With PAYFAC_API_KEY (or PAYFAC_CREDENTIAL_COMMAND) and no profile chosen in any way, the setup is
// "env-only": no profile at all, PAYFAC_BASE_URL (or --base-url) is required, and the environment
// is inferred. Which
// environment is in effect follows the values used, not only a profile's label: environment.ts.
//
// Every disagreement between two sources that both gave a value yields one notice naming the
// winner and what was ignored. The built-in profile's values are a fallback nobody chose, so
// overriding them is not reported. Credentials only ever appear masked. A command prints the
// notices only for a person (stderr a terminal) or with --debug, so that a CI script that sets
// PAYFAC_BASE_URL on purpose is not told so by every command; `whoami` always shows, for each
// setting, its source and what it overrode (`overridden`).
//
// A credential kept in the OS keychain or printed by a command is not read here (that is I/O):
// `pendingSecret` says which one the settings will use, the caller fetches it (secrets.ts) and
// passes it back as `revealed`. So a command whose credential comes from PAYFAC_API_KEY or the
// file never loads the keychain nor runs a command.
import {
  BUILTIN_LOCAL_PROFILE,
  CREDENTIAL_KINDS,
  contextIdProblem,
  LOCAL_PROFILE_NAME,
  checkKeyMatchesEnvironment,
  hasUrlCredentials,
  inferCredentialKind,
  isHttpUrl,
  isLoopbackUrl,
  maskCredential,
  secretStoreOf,
  unknownProfile,
  type CredentialKind,
  type Environment,
  type Profile,
} from './profiles.js'
import { decideEnvironment } from './environment.js'
import { ConfigError } from './errors.js'

export { inferEnvironment } from './environment.js'

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

export interface SettingsContext {
  marketplaceId?: string
  merchantId?: string
  customerId?: string
}

export interface ResolvedSettings {
  /** The profile in use; undefined for an env-only setup (PAYFAC_API_KEY without a profile). */
  profileName: string | undefined
  /** What chose the profile (or 'env' for an env-only setup). */
  source: SettingsSource
  /** The environment in effect (environment.ts): it decides the production guard. */
  environment: Environment
  /** Why that environment, in words: "profile prod says production", "PAYFAC_BASE_URL replaces …". */
  environmentReason?: string
  baseUrl: string
  credential: string
  credentialKind: CredentialKind
  /** Where the credential comes from: PAYFAC_API_KEY (env), the profile file, the OS keychain, a command. */
  credentialStore?: CredentialStore
  context: SettingsContext
  /** One line per conflict between sources, for stderr. Never holds a raw credential. */
  notices: string[]
  /** Where each setting that has a value came from: "--base-url", "PAYFAC_API_KEY", "profile dev". */
  origins?: Partial<Record<'baseUrl' | 'credential' | keyof SettingsContext, string>>
  /** For each setting, the other sources that gave a value and lost (what `notices` says), for `whoami`. */
  overridden?: Partial<Record<'profile' | 'baseUrl' | 'credential' | keyof SettingsContext, string[]>>
}

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
} as const

const CONTEXT_FIELDS = [
  { field: 'marketplaceId', flag: '--marketplace-id', env: SETTINGS_ENV.marketplaceId, words: 'marketplace id' },
  { field: 'merchantId', flag: '--merchant-id', env: SETTINGS_ENV.merchantId, words: 'merchant id' },
  { field: 'customerId', flag: '--customer-id', env: SETTINGS_ENV.customerId, words: 'customer id' },
] as const

interface Candidate {
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
function choose(candidates: Candidate[], notices: string[], overridden?: (labels: string[]) => void): Candidate | undefined {
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
function given(value: string | undefined): string | undefined {
  const text = value?.trim()
  return text ? text : undefined
}

interface Chosen {
  source: SettingsSource
  profile: Profile | undefined
}

/** Which profile (if any) is in use, and what chose it. */
function chooseProfile(input: ResolveInput, notices: string[], overridden: NonNullable<ResolvedSettings['overridden']>): Chosen {
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
function ranked({ source }: Chosen, flag: Candidate[], envValue: Candidate[], profileValue: Candidate[]): Candidate[] {
  return source === 'flag' ? [...flag, ...profileValue, ...envValue] : [...flag, ...envValue, ...profileValue]
}

function fromProfile({ source, profile }: Chosen, value: string | undefined, label: string, extra: Partial<Candidate> = {}): Candidate[] {
  return profile ? [{ value, label, origin: `profile ${profile.name}`, profile, fallback: source === 'builtin', ...extra }] : []
}

/**
 * The credential candidates, strongest first. One kept elsewhere (the keychain, a command) stands
 * for itself by a placeholder value that no key can equal, until it wins and is fetched.
 */
function credentialCandidates(input: ResolveInput, chosen: Chosen): Candidate[] {
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
      fromStore = fromProfile(chosen, `\u0000keychain ${profile.name}`, `the credential ${profile.credentialMasked ?? ''} of profile ${profile.name} in the OS keychain`, {
        store: 'keychain',
        pending: { store: 'keychain', ref: profile.credentialKeychain, profileName: profile.name, origin },
      })
    } else if (kept === 'command' && profile.credentialCommand !== undefined) {
      fromStore = fromProfile(chosen, `\u0000command ${profile.credentialCommand}`, `the credential command of profile ${profile.name}`, {
        store: 'command',
        pending: { store: 'command', command: profile.credentialCommand, origin },
      })
    } else {
      const key = profile.credential
      fromStore = fromProfile(chosen, key, key ? `the credential ${maskCredential(key)} of profile ${profile.name}` : '', { store: chosen.source === 'builtin' || (profile.name === LOCAL_PROFILE_NAME && !input.store.get(LOCAL_PROFILE_NAME)) ? 'builtin' : 'file' })
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

export function resolveSettings(input: ResolveInput): ResolvedSettings {
  const { flags, env } = input
  const notices: string[] = []
  const overridden: NonNullable<ResolvedSettings['overridden']> = {}

  // Which profile.
  const chosen = chooseProfile(input, notices, overridden)
  const { source, profile } = chosen

  // Base URL.
  const flagUrl = given(flags.baseUrl)
  const envUrl = given(env[SETTINGS_ENV.baseUrl])
  const url = choose(
    ranked(
      chosen,
      [{ value: flagUrl, label: `--base-url ${flagUrl}`, origin: '--base-url' }],
      [{ value: envUrl, label: `${SETTINGS_ENV.baseUrl}=${envUrl}`, origin: SETTINGS_ENV.baseUrl }],
      fromProfile(chosen, profile?.baseUrl, `the base URL ${profile?.baseUrl} of profile ${profile?.name}`),
    ),
    notices,
    (labels) => (overridden.baseUrl = labels),
  )
  if (!url?.value) {
    throw new ConfigError(`${given(env[SETTINGS_ENV.apiKey]) ? SETTINGS_ENV.apiKey : SETTINGS_ENV.credentialCommand} is set, but there is no base URL to send it to.`, {
      reason: 'missing',
      hint: `Set ${SETTINGS_ENV.baseUrl} (or --base-url), or use a profile.`,
    })
  }
  if (!isHttpUrl(url.value)) {
    throw new ConfigError(`The base URL from ${url.origin} is not an http:// or https:// URL.`, { reason: 'invalid' })
  }
  if (hasUrlCredentials(url.value)) {
    throw new ConfigError(`The base URL from ${url.origin} holds a user name or password.`, {
      reason: 'invalid',
      hint: 'Remove them from the URL: the credential goes in a profile or PAYFAC_API_KEY.',
    })
  }
  const baseUrl = url.value

  // Credential: a flag-chosen profile keeps its own; otherwise PAYFAC_API_KEY (then
  // PAYFAC_CREDENTIAL_COMMAND) overrides. One kept elsewhere is the secret fetched for it.
  const credential = choose(credentialCandidates(input, chosen), notices, (labels) => (overridden.credential = labels)) as Candidate
  if (credential.pending) {
    const revealed = given(input.revealed)
    if (revealed === undefined) throw new ConfigError(`The credential from ${credential.origin} was not fetched.`, { reason: 'missing' })
    credential.value = revealed
  }
  const credentialKind = credential.profile ? credential.profile.credentialKind : envCredentialKind(credential.value as string, env, credential.origin)
  if (credential.profile && credential.pending) {
    const inferred = inferCredentialKind(credential.value as string)
    if (inferred && inferred !== credentialKind) {
      throw new ConfigError(`Profile ${credential.profile.name} says ${credentialKind}, but its credential (${maskCredential(credential.value as string)}) is a ${inferred}.`, {
        reason: 'invalid',
        hint: `Add it again with the right --credential-kind: payfac profiles add ${credential.profile.name} --replace …`,
      })
    }
  }
  // A key naming the other environment than the profile's label is refused; otherwise the
  // environment follows the values in effect (environment.ts).
  if (profile) checkKeyMatchesEnvironment(profile.environment, credential.value as string)
  const decided = decideEnvironment({
    profile,
    replaced: Boolean(profile) && (!url.profile || !credential.profile),
    credential: credential.value as string,
    baseUrl,
    urlOrigin: url.origin,
    credentialOrigin: credential.origin,
  })
  const environment = decided.environment
  if (environment === 'production' && new URL(baseUrl).protocol === 'http:' && !isLoopbackUrl(baseUrl)) {
    throw new ConfigError(`A production credential is only sent over https; the base URL from ${url.origin} is http.`, {
      reason: 'invalid',
      hint: 'Use the https:// address of the service.',
    })
  }

  const origins: ResolvedSettings['origins'] = { baseUrl: url.origin, credential: credential.origin }

  // Context ids.
  const context: SettingsContext = {}
  for (const { field, flag, env: envName, words } of CONTEXT_FIELDS) {
    const flagValue = given(flags[field])
    const envValue = given(env[envName])
    const profileValue = profile?.[field]
    const winner = choose(
      ranked(
        chosen,
        [{ value: flagValue, label: `${flag} ${flagValue}`, origin: flag }],
        [{ value: envValue, label: `${envName}=${envValue}`, origin: envName }],
        fromProfile(chosen, profileValue, `the ${words} ${profileValue} of profile ${profile?.name}`),
      ),
      notices,
      (labels) => (overridden[field] = labels),
    )
    if (!winner?.value) continue
    const problem = contextIdProblem(field, winner.value)
    if (problem) throw new ConfigError(`The ${words} from ${winner.origin} (${winner.value}) ${problem}.`, { reason: 'invalid' })
    context[field] = winner.value
    origins[field] = winner.origin
  }

  return {
    profileName: profile?.name,
    source,
    environment,
    environmentReason: decided.reason,
    baseUrl,
    credential: credential.value as string,
    credentialKind,
    credentialStore: credential.store ?? 'file',
    context,
    notices,
    origins,
    overridden,
  }
}

/** The kind of PAYFAC_API_KEY (or of what PAYFAC_CREDENTIAL_COMMAND printed): inferred from its prefix, or given by PAYFAC_CREDENTIAL_KIND. */
function envCredentialKind(key: string, env: Record<string, string | undefined>, origin: string): CredentialKind {
  const inferred = inferCredentialKind(key)
  const stated = given(env[SETTINGS_ENV.credentialKind])
  if (stated !== undefined && !(CREDENTIAL_KINDS as readonly string[]).includes(stated)) {
    throw new ConfigError(`${SETTINGS_ENV.credentialKind}=${stated} is not a credential kind.`, {
      reason: 'invalid',
      hint: `Use one of: ${CREDENTIAL_KINDS.join(', ')}.`,
    })
  }
  if (inferred && stated && stated !== inferred) {
    throw new ConfigError(
      `${SETTINGS_ENV.credentialKind}=${stated}, but ${origin} holds a ${inferred} (${maskCredential(key)}).`,
      { reason: 'invalid' },
    )
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
