// Builds sign-in and service-token request bodies and queries from parsed flags. Pure: no I/O,
// no client.
import { UsageError } from '../errors/index.js'
import { durationMs } from '../validate/durations.js'
import { checkEmail, checkNonEmpty, findPreviousGenerationFields, refusePreviousGenerationFields } from '../validate/index.js'

export const SIGN_IN_KINDS = ['SignInConsumer', 'SignInDelegate', 'SignInDelegateByReferenceId'] as const

export interface SignInFlagValues {
  customer?: string | undefined
  delegate?: string | undefined
  'delegate-reference'?: string | undefined
  email?: string | undefined
}

/**
 * The sign-in envelope: `SignInConsumer {customerId}` from --customer, `SignInDelegate
 * {customerDelegateId}` from --delegate, `SignInDelegateByReferenceId {referenceCustomerId,
 * emailAddress}` from --delegate-reference and --email, or the whole envelope from --data.
 * Returns the envelope and warnings to print (previous-generation names in bodies the contract
 * does not show).
 */
export function signInEnvelope(
  f: SignInFlagValues,
  data: Record<string, unknown> | undefined,
): { envelope: Record<string, Record<string, unknown>>; warnings: string[] } {
  if (data) {
    const { kind, body } = unwrapData(data, SIGN_IN_KINDS, undefined, '--data')
    if (kind === 'SignInConsumer') {
      refusePreviousGenerationFields(body)
      return { envelope: { [kind]: body }, warnings: [] }
    }
    return { envelope: { [kind]: body }, warnings: previousGenerationWarnings(body) }
  }
  if (f.customer) return { envelope: { SignInConsumer: { customerId: f.customer } }, warnings: [] }
  if (f.delegate) return { envelope: { SignInDelegate: { customerDelegateId: f.delegate } }, warnings: [] }
  if (f['delegate-reference']) {
    if (!f.email)
      throw new UsageError(
        '--delegate-reference needs --email, the e-mail address of the delegate',
        'For example --delegate-reference acme-01 --email jo@acme.example',
      )
    return {
      envelope: {
        SignInDelegateByReferenceId: {
          referenceCustomerId: checkNonEmpty(f['delegate-reference'], '--delegate-reference'),
          emailAddress: checkEmail(f.email, '--email'),
        },
      },
      warnings: [],
    }
  }
  throw new UsageError('Give one of --customer, --delegate, --delegate-reference or --data')
}

/** One warning line per previous-generation field name found in a body the contract does not show. */
export function previousGenerationWarnings(body: unknown): string[] {
  return findPreviousGenerationFields(body).map(
    ([path, old, now]) => `Warning: --data uses "${old}" (at ${path}), a previous-generation field name; version 3.0 calls it "${now}".`,
  )
}

export interface TokenQueryValues {
  merchantIds: string[] | undefined
  marketplaceIds: string[] | undefined
  status?: string[] | undefined
  expired?: boolean | undefined
  'created-from'?: string | undefined
  'created-to'?: string | undefined
  'expires-from'?: string | undefined
  'expires-to'?: string | undefined
}

/** The `GET /auth/servicetokens` query; at least one merchant or marketplace filter is required. */
export function serviceTokenQuery(f: TokenQueryValues) {
  if (!f.merchantIds?.length && !f.marketplaceIds?.length) {
    throw new UsageError(
      'Listing service tokens needs --merchant-id or --marketplace-id (either may repeat)',
      'Give the merchants or marketplaces whose tokens to list',
    )
  }
  return {
    merchantId: f.merchantIds,
    marketplaceId: f.marketplaceIds,
    status: f.status,
    expired: f.expired,
    createdFromInclusive: f['created-from'],
    createdToExclusive: f['created-to'],
    expiresAtFromInclusive: f['expires-from'],
    expiresAtToExclusive: f['expires-to'],
  }
}

/** `--expires-in`: a duration such as 90d, 12h, 30m or 3600s, in whole seconds (at least 1). */
export function expiresInSeconds(input: string, flag = '--expires-in'): number {
  const days = /^(\d+)d$/.exec(input.trim())
  const seconds = days ? Number(days[1]) * 86_400 : Math.floor(durationMs(input, flag) / 1000)
  if (!Number.isSafeInteger(seconds) || seconds < 1) {
    throw new UsageError(`${flag} must be at least one second, such as 90d, 12h or 30m (got "${input}")`)
  }
  return seconds
}

export interface CreateTokenFlagValues {
  owner?: string | undefined
  description?: string | undefined
  'expires-at'?: string | undefined
  'expires-in'?: string | undefined
}

/** Fields from flags for `CreateServiceToken`; `--data` fields are kept unless a flag sets them too. */
export function createServiceTokenEnvelope(f: CreateTokenFlagValues, data: Record<string, unknown> | undefined) {
  const { body, warnings } = dataBody(data, 'CreateServiceToken')
  if (f.owner) {
    if (f.owner.startsWith('mcht_')) body.merchantId = f.owner
    else if (f.owner.startsWith('mktp_')) body.marketplaceId = f.owner
    else throw new UsageError(`--owner must be a merchant (mcht_…) or a marketplace (mktp_…) id (got "${f.owner}")`)
  }
  if (f.description !== undefined) body.description = f.description
  if (f['expires-at']) body.expiresAt = toTimestamp(f['expires-at'])
  if (f['expires-in']) body.expiresInSeconds = expiresInSeconds(f['expires-in'])
  return { envelope: { CreateServiceToken: body }, warnings }
}

export interface UpdateTokenFlagValues {
  revoke?: boolean | undefined
  description?: string | undefined
  'expires-at'?: string | undefined
}

/** `UpdateServiceToken` from --revoke, --description, --expires-at and/or --data; something must change. */
export function updateServiceTokenEnvelope(f: UpdateTokenFlagValues, data: Record<string, unknown> | undefined) {
  const { body, warnings } = dataBody(data, 'UpdateServiceToken')
  if (f.revoke) body.status = 'Revoked'
  if (f.description !== undefined) body.description = f.description
  if (f['expires-at']) body.expiresAt = toTimestamp(f['expires-at'])
  if (Object.keys(body).length === 0) {
    throw new UsageError('Nothing to update: give --revoke, --description, --expires-at or --data')
  }
  return { envelope: { UpdateServiceToken: body }, warnings }
}

/** A date flag's value as a timestamp: a bare date means its start, in UTC. */
export function toTimestamp(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value
}

function dataBody(data: Record<string, unknown> | undefined, kind: string) {
  if (!data) return { body: {} as Record<string, unknown>, warnings: [] }
  const { body } = unwrapData(data, [kind], kind, '--data')
  return { body: { ...body }, warnings: previousGenerationWarnings(body) }
}

/**
 * Opens a `--data` body: a single-key envelope naming one of `kinds` (`{"SignInDelegate": {…}}`),
 * or, when `fallback` is given, the bare body of that kind. Shared by the request builders of
 * this topic and its neighbours (customers, merchants).
 */
export function unwrapData<K extends string>(
  data: Record<string, unknown>,
  kinds: readonly K[],
  fallback: K | undefined,
  flag = '--data',
): { kind: K; body: Record<string, unknown> } {
  const keys = Object.keys(data)
  const only = keys.length === 1 ? (keys[0] as string) : undefined
  if (only !== undefined && (kinds as readonly string[]).includes(only)) {
    const body = data[only]
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new UsageError(`${flag}: the value of "${only}" must be a JSON object`)
    return { kind: only as K, body: body as Record<string, unknown> }
  }
  if (only !== undefined && /^[A-Z]/.test(only)) {
    throw new UsageError(`${flag}: "${only}" is not one of ${kinds.join(', ')}`)
  }
  if (fallback === undefined) throw new UsageError(`${flag} must be one envelope: {"<kind>": {…}} where kind is one of ${kinds.join(', ')}`)
  return { kind: fallback, body: data }
}
