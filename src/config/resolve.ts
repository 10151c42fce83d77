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
  contextIdProblem,
  checkKeyMatchesEnvironment,
  hasUrlCredentials,
  inferCredentialKind,
  isHttpUrl,
  isLoopbackUrl,
  maskCredential,
  type CredentialKind,
  type Environment,
} from './profiles.js'
import { decideEnvironment } from './environment.js'
import { ConfigError } from './errors.js'
import { checkJournalUrl, redactJournalUrl } from './journal-url.js'
import {
  SETTINGS_ENV,
  choose,
  chooseProfile,
  credentialCandidates,
  envCredentialKind,
  fromProfile,
  given,
  ranked,
  type Candidate,
  type CredentialStore,
  type ResolveInput,
  type SettingsSource,
} from './resolve-sources.js'

export { inferEnvironment } from './environment.js'
export {
  SETTINGS_ENV,
  pendingSecret,
  type CredentialStore,
  type PendingSecret,
  type ProfileSource,
  type ResolveInput,
  type SettingsFlags,
  type SettingsSource,
} from './resolve-sources.js'

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
  /** A shared operation journal (PAYFAC_JOURNAL_URL, or the profile's journalUrl), or undefined for the local one. */
  journal?: { url: string; origin: string } | undefined
}

const CONTEXT_FIELDS = [
  { field: 'marketplaceId', flag: '--marketplace-id', env: SETTINGS_ENV.marketplaceId, words: 'marketplace id' },
  { field: 'merchantId', flag: '--merchant-id', env: SETTINGS_ENV.merchantId, words: 'merchant id' },
  { field: 'customerId', flag: '--customer-id', env: SETTINGS_ENV.customerId, words: 'customer id' },
] as const

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
    throw new ConfigError(
      `${given(env[SETTINGS_ENV.apiKey]) ? SETTINGS_ENV.apiKey : SETTINGS_ENV.credentialCommand} is set, but there is no base URL to send it to.`,
      {
        reason: 'missing',
        hint: `Set ${SETTINGS_ENV.baseUrl} (or --base-url), or use a profile.`,
      },
    )
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
      throw new ConfigError(
        `Profile ${credential.profile.name} says ${credentialKind}, but its credential (${maskCredential(credential.value as string)}) is a ${inferred}.`,
        {
          reason: 'invalid',
          hint: `Add it again with the right --credential-kind: payfac profiles add ${credential.profile.name} --replace …`,
        },
      )
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

  // The shared journal: PAYFAC_JOURNAL_URL or the profile's, ranked as every setting (no flag).
  const envJournal = given(env[SETTINGS_ENV.journalUrl])
  const journalChoice = choose(
    ranked(
      chosen,
      [],
      [{ value: envJournal, label: `${SETTINGS_ENV.journalUrl}=${envJournal ? redactJournalUrl(envJournal) : ''}`, origin: SETTINGS_ENV.journalUrl }],
      fromProfile(chosen, profile?.journalUrl, `the journal ${profile?.journalUrl ? redactJournalUrl(profile.journalUrl) : ''} of profile ${profile?.name}`),
    ),
    notices,
  )
  const journal = journalChoice?.value ? { url: checkJournalUrl(journalChoice.value, journalChoice.origin), origin: journalChoice.origin } : undefined

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
    journal,
  }
}
