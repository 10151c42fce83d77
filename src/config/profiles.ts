// Profiles: named sets of (environment, base URL, credential, context ids). This file is pure:
// the shape of a profile and of the store file, credential kinds, key inference, the
// environment check and masking. The file itself is handled by store.ts, so importing these
// helpers never touches the file system.
import { journalUrlProblem } from './journal-url.js'
import { z } from 'zod'
import { fastCheck } from '../client/fast-check.js'
import { PREFIXED_KEY, keyEnvironment } from '../client/key-prefix.js'
import { LOCAL_BASE_URL, WELL_KNOWN } from '../well-known.js'
import { ConfigError } from './errors.js'

export const ENVIRONMENTS = ['sandbox', 'production', 'local'] as const
export type Environment = (typeof ENVIRONMENTS)[number]

/** The contract's credential kinds (Authentication, item 2) as kebab-case ids. */
export const CREDENTIAL_KINDS = [
  'merchant-public-key',
  'merchant-secret-key',
  'marketplace-api-key',
  'customer-jwt',
  'merchant-jwt',
  'platform-jwt',
  'auth-token',
  'enterprise-api-key',
  'customer-api-key',
  'pay-by-link-token',
] as const
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number]

export { keyEnvironment }
export type { KeyEnvironment } from '../client/key-prefix.js'

export const PROFILE_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/i

/** The name of the built-in profile; reserved, so a stored profile can never shadow it. */
export const LOCAL_PROFILE_NAME = 'local'

// ---------------------------------------------------------------------------------------------
// Keys: inference, environment, masking

// `<env>_<kind>_<secret>`: sandbox_sk_…, live_pk_…, sandbox_api_… (the pattern is the client's)
const KIND_BY_PREFIX: Record<string, CredentialKind> = {
  sk: 'merchant-secret-key',
  pk: 'merchant-public-key',
  api: 'marketplace-api-key',
}

/**
 * The kind of a prefixed key (`sandbox_sk_…` → merchant-secret-key, `_pk_` → merchant-public-key,
 * `_api_` → marketplace-api-key). Undefined for a JWT (`eyJ…`) or anything else: its kind must be
 * given explicitly.
 */
export function inferCredentialKind(key: string): CredentialKind | undefined {
  const match = PREFIXED_KEY.exec(key.trim())
  return match ? KIND_BY_PREFIX[match[2] as string] : undefined
}

/**
 * Refuses, before anything is sent, a key that names the other environment: a `live_` key on a
 * sandbox or local profile, a `sandbox_` key on a production profile. Keys that name no
 * environment (JWTs, tokens) pass.
 */
export function checkKeyMatchesEnvironment(environment: Environment, key: string): void {
  const keyEnv = keyEnvironment(key)
  if (keyEnv === 'live' && environment !== 'production') {
    throw new ConfigError(`A live key (${maskCredential(key)}) cannot be used with a ${environment} profile.`, {
      reason: 'key-environment-mismatch',
      hint: `Use a sandbox_… key here, or put the live key in a profile whose environment is production.`,
    })
  }
  if (keyEnv === 'sandbox' && environment === 'production') {
    throw new ConfigError(`A sandbox key (${maskCredential(key)}) cannot be used with a production profile.`, {
      reason: 'key-environment-mismatch',
      hint: `Use a live_… key here, or put the sandbox key in a profile whose environment is sandbox.`,
    })
  }
}

/**
 * A credential made safe to show: the environment and kind prefix (not secret) and at most the
 * last 4 characters of the secret part.
 *   sandbox_sk_abcdefghijkla1b2 → sandbox_sk_…a1b2
 *   eyJhbGciOi…xyz9             → eyJ…xyz9
 *   anything else               → …wxyz
 * The tail shrinks for short secrets (a third of their length, at most 4), so a short token is
 * never mostly revealed.
 */
export function maskCredential(key: string): string {
  const text = key.trim()
  const prefixed = PREFIXED_KEY.exec(text)
  if (prefixed) {
    const prefix = `${prefixed[1]}_${prefixed[2]}_`
    return `${prefix}…${tail(prefixed[3] as string)}`
  }
  if (text.startsWith('eyJ')) return `eyJ…${tail(text.slice(3))}`
  return `…${tail(text)}`
}

function tail(secret: string): string {
  const shown = Math.min(4, Math.floor(secret.length / 3))
  return shown > 0 ? secret.slice(-shown) : ''
}

// ---------------------------------------------------------------------------------------------
// URLs

/** True for an http: or https: URL. */
export function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false
  const { protocol } = new URL(text)
  return protocol === 'http:' || protocol === 'https:'
}

/** True when the URL holds a user name or password (`https://user:pw@host`). */
export function hasUrlCredentials(text: string): boolean {
  if (!URL.canParse(text)) return false
  const url = new URL(text)
  return url.username !== '' || url.password !== ''
}

/** True when the URL's host is this machine: localhost, *.localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackUrl(text: string): boolean {
  if (!URL.canParse(text)) return false
  const host = new URL(text).hostname.toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

/** A production credential is only ever sent over https (or to this machine). */
function plainHttpToRemote(url: string): boolean {
  return URL.canParse(url) && new URL(url).protocol === 'http:' && !isLoopbackUrl(url)
}

// ---------------------------------------------------------------------------------------------
// Schemas

const ID_PREFIXES = { marketplaceId: 'mktp_', merchantId: 'mcht_', customerId: 'cust_' } as const
const idPattern = (prefix: string) => new RegExp(`^${prefix}[A-Za-z0-9_-]+$`)
const idMessage = (prefix: string) => `must be an id starting with ${prefix}`

/** What is wrong with a context identifier (as the profile schema says it), or undefined. */
export function contextIdProblem(field: keyof typeof ID_PREFIXES, value: string): string | undefined {
  const prefix = ID_PREFIXES[field]
  return idPattern(prefix).test(value) ? undefined : idMessage(prefix)
}

/** A context id field of a profile, checked as contextIdProblem does. */
const prefixedId = (prefix: string) => z.string().regex(idPattern(prefix), idMessage(prefix))

/** A credential command: one line, something other than blanks, no control characters. */
const COMMAND_TEXT = /^(?=.*\S)[^\u0000-\u001f\u007f]{1,4096}$/

/** Where a profile's secret is kept. */
export type SecretStore = 'file' | 'keychain' | 'command'

/** Where a stored profile's secret is: in the file, in the OS keychain, or printed by a command. */
export function secretStoreOf(profile: Pick<Profile, 'credential' | 'credentialKeychain' | 'credentialCommand'>): SecretStore {
  if (profile.credentialKeychain) return 'keychain'
  if (profile.credentialCommand !== undefined) return 'command'
  return 'file'
}

/** A profile's fields, its base URL checked by `baseUrl`. */
function profileFields<U extends z.ZodType<string>>(baseUrl: U) {
  return {
    name: z.string().regex(PROFILE_NAME_PATTERN, 'must be 1 to 64 letters, digits, "_" or "-", starting with a letter or digit'),
    environment: z.enum(ENVIRONMENTS),
    baseUrl,
    credentialKind: z.enum(CREDENTIAL_KINDS),
    // Exactly one of the three says where the secret is (profileIssues): in this file, in the OS
    // keychain (a reference, and the masked key to show), or printed by a command each time.
    credential: z.string().regex(/^\S+$/, 'must be a non-empty key or token without spaces').optional(),
    credentialKeychain: z.strictObject({ service: z.string().min(1), account: z.string().min(1) }).optional(),
    credentialMasked: z
      .string()
      .regex(/^\S*…\S*$/, 'must be a masked credential (with "…")')
      .optional(),
    credentialCommand: z.string().regex(COMMAND_TEXT, 'must be a command line on one line, without control characters').optional(),
    marketplaceId: prefixedId(ID_PREFIXES.marketplaceId).optional(),
    merchantId: prefixedId(ID_PREFIXES.merchantId).optional(),
    customerId: prefixedId(ID_PREFIXES.customerId).optional(),
    /** A shared operation journal (postgres://user@host/db), without a password (PGPASSWORD holds it): checked by profileIssues. */
    journalUrl: z.string().optional(),
  }
}

interface Issue {
  path: Array<string | number>
  message: string
}

interface ProfileFacts {
  credential?: string | undefined
  credentialKeychain?: { service: string; account: string } | undefined
  credentialMasked?: string | undefined
  credentialCommand?: string | undefined
  credentialKind: CredentialKind
  environment: Environment
  baseUrl: string
  journalUrl?: string | undefined
}

/**
 * What is wrong with a well-formed profile as a whole: where its secret is (one place exactly),
 * its key's kind, plain http to production.
 */
function profileIssues(profile: ProfileFacts): Issue[] {
  const issues: Issue[] = []
  const places = [profile.credential, profile.credentialKeychain, profile.credentialCommand].filter((place) => place !== undefined)
  if (places.length !== 1) {
    issues.push({
      path: ['credential'],
      message:
        places.length === 0
          ? 'is missing (give credential, credentialKeychain or credentialCommand)'
          : 'must be in one place only: credential, credentialKeychain or credentialCommand',
    })
  }
  if (profile.credentialMasked !== undefined && !profile.credentialKeychain) {
    issues.push({ path: ['credentialMasked'], message: 'goes only with credentialKeychain' })
  }
  const inferred = profile.credential === undefined ? undefined : inferCredentialKind(profile.credential)
  if (profile.credential !== undefined && inferred && inferred !== profile.credentialKind) {
    issues.push({
      path: ['credentialKind'],
      message: `is ${profile.credentialKind}, but the credential is a ${inferred} (${maskCredential(profile.credential)})`,
    })
  }
  if (profile.environment === 'production' && plainHttpToRemote(profile.baseUrl)) {
    issues.push({ path: ['baseUrl'], message: 'must use https:// for a production profile' })
  }
  if (profile.journalUrl !== undefined) {
    const problem = journalUrlProblem(profile.journalUrl)
    if (problem) issues.push({ path: ['journalUrl'], message: `${problem}: give postgres://user@host:5432/database` })
    else if (new URL(profile.journalUrl).password) issues.push({ path: ['journalUrl'], message: 'must not hold a password (set PGPASSWORD instead)' })
  }
  return issues
}

/** What is wrong with a well-formed store as a whole: names that differ from their keys, the active name. */
function storeIssues(store: { active?: string | undefined; profiles: Record<string, { name: string }> }): Issue[] {
  const issues: Issue[] = []
  for (const [key, profile] of Object.entries(store.profiles)) {
    if (profile.name !== key) issues.push({ path: ['profiles', key, 'name'], message: `must equal its key "${key}"` })
    if (key === LOCAL_PROFILE_NAME) issues.push({ path: ['profiles', key], message: `"${LOCAL_PROFILE_NAME}" is reserved for the built-in profile` })
  }
  if (store.active !== undefined && store.active !== LOCAL_PROFILE_NAME && !Object.hasOwn(store.profiles, store.active)) {
    issues.push({ path: ['active'], message: `names "${store.active}", which is not a profile in this file` })
  }
  return issues
}

export const profileSchema = z
  .strictObject(
    profileFields(
      z
        .string()
        .refine(isHttpUrl, 'must be an http:// or https:// URL')
        .refine((url) => !hasUrlCredentials(url), 'must not hold a user name or password'),
    ),
  )
  .superRefine((profile, ctx) => {
    for (const issue of profileIssues(profile)) ctx.addIssue({ code: 'custom', ...issue })
  })

export type Profile = z.infer<typeof profileSchema>

/** The whole file. Unknown top-level keys are kept as they are. */
export const storeSchema = z
  .looseObject({
    version: z.literal(1),
    active: z.string().optional(),
    profiles: z.record(z.string(), profileSchema),
  })
  .superRefine((store, ctx) => {
    for (const issue of storeIssues(store)) ctx.addIssue({ code: 'custom', ...issue })
  })

/**
 * The store's structure without its refinements: the part of storeSchema that a fast-check plan
 * can hold (the CLI bundle registers that plan when it is built; see soundStore).
 */
export const storeShape = z.looseObject({
  version: z.literal(1),
  active: z.string().optional(),
  profiles: z.record(z.string(), z.strictObject(profileFields(z.string()))),
})

/**
 * The store itself when storeSchema would accept it as it is, decided without building either
 * schema (or loading zod): the structure by its fast-check plan, then the same refinements.
 * undefined when only storeSchema can say (and word what is wrong).
 */
export function soundStore(value: unknown): StoreData | undefined {
  if (!fastCheck(storeShape)?.(value)) return undefined
  const store = value as StoreData
  for (const profile of Object.values(store.profiles)) {
    if (!isHttpUrl(profile.baseUrl) || hasUrlCredentials(profile.baseUrl) || profileIssues(profile).length > 0) return undefined
  }
  return storeIssues(store).length === 0 ? store : undefined
}

export type StoreData = z.infer<typeof storeSchema>

/** `path: message; path: message`: zod issues in one line (zod's messages never quote the input). */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`).join('; ')
}

// ---------------------------------------------------------------------------------------------
// The built-in profile

/** The local emulator with its well-known seed; used when nothing else is configured. */
export const BUILTIN_LOCAL_PROFILE: Readonly<Profile> = Object.freeze({
  name: LOCAL_PROFILE_NAME,
  environment: 'local',
  baseUrl: LOCAL_BASE_URL,
  credentialKind: 'merchant-secret-key',
  credential: WELL_KNOWN.credentials.merchantSecretKey,
  merchantId: WELL_KNOWN.merchantId,
  marketplaceId: WELL_KNOWN.marketplaceId,
})

/**
 * Validates a profile as given by a person (flags, prompts): its shape, and that its key belongs
 * to its environment. Optional fields given as undefined are dropped. Throws ConfigError.
 */
export function parseProfile(input: Record<string, unknown>): Profile {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))
  const parsed = profileSchema.safeParse(defined)
  if (!parsed.success) {
    throw new ConfigError(`Invalid profile: ${describeIssues(parsed.error)}.`, { reason: 'invalid' })
  }
  if (parsed.data.credential !== undefined) checkKeyMatchesEnvironment(parsed.data.environment, parsed.data.credential)
  return parsed.data
}

/** The error for a profile name that does not exist, listing the ones that do. */
export function unknownProfile(name: string, known: readonly string[], from?: string): ConfigError {
  const names = [...known].sort().concat(`${LOCAL_PROFILE_NAME} (built-in)`)
  return new ConfigError(`No profile named "${name}"${from ? ` (from ${from})` : ''}.`, {
    reason: 'unknown-profile',
    hint: `Known profiles: ${names.join(', ')}.`,
  })
}
