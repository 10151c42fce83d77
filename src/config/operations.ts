// The operation journal: every command that moves money records what it is about to send
// (intent) before sending it, and what came of it after, so that a re-run of the same operation
// whose outcome was lost looks on the service before it sends anything again.
//
// Records are keyed by what the operation acts on, never by a profile name, the spelling of a URL
// or flags, or which key was used:
//   - the service: its canonical origin (scheme, lower-case host, port with default ports written
//     out, the path without trailing slashes, every loopback name (localhost, 127.x.x.x, ::1) as one);
//   - the party acted for: `merchant:<id>` (the Merchant-Id context, else the key's own merchant,
//     learnt once per key: key-scopes.ts), else `marketplace:<id>` for a marketplace key without a
//     merchant, else `key:<fingerprint>` when the service does not tell; plus the customer context;
//   - then, per file, the operation: its kind, target, amount and reference.
// So `--profile dev` and PAYFAC_BASE_URL/PAYFAC_API_KEY naming the same service share one journal,
// `localhost` and `127.0.0.1` are the same place, and a redundant --merchant-id or a second key of
// the same merchant is the same operation.
//
// One file per operation: <config dir>/operations/<identity>/<operation key>.json, written
// atomically (journal.ts), 0600 in 0700 folders, read fail-closed (fs-check.ts). Pure fs + zod.
import { createHash } from 'node:crypto'
import path from 'node:path'
import { z } from 'zod'

import { ConfigError } from './errors.js'
import { readPrivateJson } from './fs-check.js'
import { writeJsonAtomicAsync } from './atomic-file.js'
import { writeJsonAtomic } from './journal.js'

export const OPERATION_FORMAT = 'payfac-operation'
/** 2: the identity is the party acted for (`actingFor`), not a credential fingerprint and context. */
export const OPERATION_VERSION = 2

export interface ServiceContext {
  marketplaceId?: string | undefined
  merchantId?: string | undefined
  customerId?: string | undefined
}

export interface ServiceIdentity {
  /** A short stable hash of the parts below: the folder of this service's journal. */
  id: string
  origin: string
  /** `merchant:mcht_…`, `marketplace:mktp_…` or `key:<fingerprint>`. */
  actingFor: string
  /** The Customer-Id context, or ''. */
  customer: string
}

/** Who an operation is made for, as the identity keeps it. */
export interface ActingFor {
  /** `merchant:mcht_…`, `marketplace:mktp_…` or `key:<fingerprint>` (actingForOf). */
  party: string
  customerId?: string | undefined
}

const LOOPBACK = 'loopback'

/** `https://api.example.com:443/v3`: scheme, lower-case host, explicit port, path without trailing slashes; loopback names as one. */
export function canonicalOrigin(baseUrl: string): string {
  const url = new URL(baseUrl)
  const scheme = url.protocol.replace(/:$/, '').toLowerCase()
  const host = url.hostname.toLowerCase().replace(/\.$/, '')
  const port = url.port || (scheme === 'https' ? '443' : scheme === 'http' ? '80' : '')
  const bare = host.replace(/^\[|\]$/g, '')
  const loopback = bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)
  const pathname = url.pathname.replace(/\/+$/, '')
  return `${scheme}://${loopback ? LOOPBACK : host}:${port}${pathname}`
}

/** A credential's fingerprint: enough to tell two apart, useless to anyone who reads it. */
export function credentialFingerprint(credential: string): string {
  return createHash('sha256').update(credential.trim()).digest('hex').slice(0, 16)
}

/**
 * The party acted for from what is known without asking the service: the Merchant-Id context,
 * else `keyScope` (what the service told of the key: key-scopes.ts), else the marketplace context,
 * else the key's fingerprint.
 */
export function actingForOf(context: ServiceContext, credential: string, keyScope?: string | undefined): ActingFor {
  const party = context.merchantId
    ? `merchant:${context.merchantId}`
    : (keyScope ?? (context.marketplaceId ? `marketplace:${context.marketplaceId}` : `key:${credentialFingerprint(credential)}`))
  return { party, customerId: context.customerId }
}

export function serviceIdentity(baseUrl: string, actingFor: ActingFor): ServiceIdentity {
  const origin = canonicalOrigin(baseUrl)
  const customer = actingFor.customerId ?? ''
  const id = createHash('sha256').update(`${origin}\n${actingFor.party}\n${customer}`).digest('hex').slice(0, 20)
  return { id, origin, actingFor: actingFor.party, customer }
}

/** What makes two runs "the same operation": its kind, target, amount and reference. */
export interface OperationKey {
  /** `refund`, `pay`, `order-create` … */
  kind: string
  /** The id acted on (a transaction, an order), or '' for a creation. */
  target: string
  /** Minor units and currency, when the operation has an amount. */
  amount?: { minorCurrencyUnits: number; currency: string } | undefined
  /** Anything else that tells two operations apart (a reference, a destination, a body hash). */
  reference?: string | undefined
}

export const OPERATION_STATES = ['sending', 'unknown', 'done', 'refused'] as const
export type OperationState = (typeof OPERATION_STATES)[number]

export const operationRecordSchema = z.object({
  format: z.literal(OPERATION_FORMAT),
  version: z.literal(OPERATION_VERSION),
  identity: z.object({ origin: z.string(), actingFor: z.string(), customer: z.string() }),
  kind: z.string(),
  target: z.string(),
  amount: z.object({ minorCurrencyUnits: z.number().int(), currency: z.string() }).nullable(),
  reference: z.string().nullable(),
  /**
   * sending: the request was about to leave (a crash while in flight leaves it so);
   * unknown: it left and its answer was lost; done: the service answered success (or a
   * re-run found it happened); refused: the service answered that it did not happen.
   */
  state: z.enum(OPERATION_STATES),
  /** What the operation is, in words. */
  action: z.string(),
  /** The command that shows whether it happened. */
  check: z.string(),
  intentAt: z.string(),
  updatedAt: z.string(),
  /** What the service showed before sending, to compare with after (shape per kind). */
  before: z.unknown().optional(),
  /** The id of what it made, when known. */
  resultId: z.string().nullable(),
  /** How many times this operation was done (a deliberate repeat with --again counts). */
  doneCount: z.number().int().min(0),
})
export type OperationRecord = z.infer<typeof operationRecordSchema>

/** A stable file name for an operation key. */
export function operationKeyHash(key: OperationKey): string {
  const text = JSON.stringify([key.kind, key.target, key.amount?.minorCurrencyUnits ?? null, key.amount?.currency.toUpperCase() ?? null, key.reference ?? null])
  return createHash('sha256').update(text).digest('hex').slice(0, 24)
}

/** `<configDir>/operations/<identity id>/<kind>-<key hash>.json`. */
export function operationPath(configDir: string, identity: ServiceIdentity, key: OperationKey): string {
  const kind = key.kind.replace(/[^a-z0-9-]/gi, '_')
  return path.join(configDir, 'operations', identity.id, `${kind}-${operationKeyHash(key)}.json`)
}

/**
 * The name the lock of a reference is taken on (`orders create --reference`, `payto pay`): beside
 * the records of the identity; only its `.lock` folder is ever made.
 */
export function referenceLockPath(configDir: string, identity: ServiceIdentity, reference: string): string {
  return path.join(configDir, 'operations', identity.id, `reference-${createHash('sha256').update(reference).digest('hex').slice(0, 24)}`)
}

/**
 * The record at `file`, or undefined. Anything but a regular private file of the user, or a file
 * that is not a record, is a ConfigError (exit 3, damaged-store), left as it is; `check` is the
 * command that shows on the service what the operation did.
 */
export function readOperation(file: string, check?: string): OperationRecord | undefined {
  const value = readPrivateJson(file, { what: 'operation record', check })
  if (value === undefined) return undefined
  const parsed = operationRecordSchema.safeParse(value)
  if (!parsed.success) {
    const version = (value as { format?: unknown; version?: unknown } | undefined)?.version
    const old = (value as { format?: unknown } | undefined)?.format === OPERATION_FORMAT && typeof version === 'number' && version < OPERATION_VERSION
    throw new ConfigError(
      old
        ? `The operation record ${file} is of an older payfac (format ${version}); this one reads format ${OPERATION_VERSION}. Nothing was sent.`
        : `The operation record ${file} is damaged: it is not a record payfac wrote. Nothing was sent; it has been left as it is.`,
      {
        reason: 'damaged-store',
        hint: check ? `Check on the service what the operation did with: ${check}.` : 'Check on the service what the operation did (its list command).',
      },
    )
  }
  return parsed.data
}

/** Writes the record atomically; sets `updatedAt`. */
export function writeOperation(file: string, record: OperationRecord, now: Date = new Date()): OperationRecord {
  const saved = operationRecordSchema.parse({ ...record, updatedAt: now.toISOString() })
  writeJsonAtomic(file, saved)
  return saved
}

/** writeOperation without blocking, for many records written at once (the rows of a bulk run). */
export async function writeOperationAsync(file: string, record: OperationRecord, now: Date = new Date()): Promise<OperationRecord> {
  const saved = operationRecordSchema.parse({ ...record, updatedAt: now.toISOString() })
  await writeJsonAtomicAsync(file, saved)
  return saved
}

/** A fresh record of an intent, before anything is sent. */
export function newOperation(
  identity: ServiceIdentity,
  key: OperationKey,
  words: { action: string; check: string },
  before: unknown,
  doneCount: number,
  now: Date = new Date(),
): OperationRecord {
  return {
    format: OPERATION_FORMAT,
    version: OPERATION_VERSION,
    identity: { origin: identity.origin, actingFor: identity.actingFor, customer: identity.customer },
    kind: key.kind,
    target: key.target,
    amount: key.amount ? { minorCurrencyUnits: key.amount.minorCurrencyUnits, currency: key.amount.currency.toUpperCase() } : null,
    reference: key.reference ?? null,
    state: 'sending',
    action: words.action,
    check: words.check,
    intentAt: now.toISOString(),
    updatedAt: now.toISOString(),
    before,
    resultId: null,
    doneCount,
  }
}
