// The operation journal: every command that moves money records what it is about to send
// (intent) before sending it, and what came of it after, so that a re-run of the same operation
// whose outcome was lost looks on the service before it sends anything again.
//
// Records are keyed by what the operation acts on, never by a profile name, the spelling of a URL
// or flags, which key was used, or which context headers happened to be set:
//   - the service: its canonical origin (scheme, lower-case host, port with default ports written
//     out, the path without trailing slashes, every loopback name (localhost, 127.x.x.x, ::1) as one);
//   - what it acts on: an operation on a transaction or an order (a refund, a capture, a payment)
//     is known by that id alone, which names the merchant that owns it: a marketplace's key and the
//     merchant's own key, with or without a customer context, are the same operation. An operation
//     that makes something (a payout of a balance, an order with a reference) is known by the party
//     it is made for: `merchant:<id>` (the Merchant-Id context, else the key's own merchant, learnt
//     once per key: key-scopes.ts), else `marketplace:<id>` for a marketplace key without a
//     merchant, else `key:<fingerprint>` when the service does not tell;
//   - then, per record, the operation: its kind, target, amount and reference.
// So `--profile dev` and PAYFAC_BASE_URL/PAYFAC_API_KEY naming the same service share one journal,
// `localhost` and `127.0.0.1` are the same place, and a redundant --merchant-id, a Customer-Id or
// a second key of the same merchant is the same operation.
//
// Where records are kept is the journal store's (journal-store.ts): one file per operation,
// <config dir>/operations/<scope>/<operation key>.json, written atomically (journal.ts), 0600 in
// 0700 folders, read fail-closed (fs-check.ts); or rows of a shared PostgreSQL journal. Pure fs + zod.
import { createHash } from 'node:crypto'
import path from 'node:path'
import { z } from 'zod'

import { ConfigError } from './errors.js'
import { NOT_JSON, readPrivateFileAsync, readPrivateJson } from './fs-check.js'
import { writeJsonAtomic } from './journal.js'
import { thisRunner } from './runner.js'

export const OPERATION_FORMAT = 'payfac-operation'
/** 2: the identity is the party acted for (`actingFor`), not a credential fingerprint and context. */
export const OPERATION_VERSION = 2

/** Where one record (and its reservation) is kept. */
export interface Slot {
  /** The operation scope's hash (operations.ts operationScope): a folder, or a column. */
  scope: string
  /** `refund-<hash>`, `reference-<hash>`, `bulk-<command>-<hash>`: a file name without `.json`, or a key. */
  name: string
}

export interface ServiceContext {
  marketplaceId?: string | undefined
  merchantId?: string | undefined
  customerId?: string | undefined
}

export interface ServiceIdentity {
  /** A short stable hash of the parts below: the scope of what is made for this party (operationScope). */
  id: string
  origin: string
  /** `merchant:mcht_…`, `marketplace:mktp_…` or `key:<fingerprint>`. */
  actingFor: string
  /** Always '': a context header is not part of what an operation acts on (kept for the record's shape). */
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
  // The customer context is a header the caller happened to set, not what the operation acts on:
  // left out (the hash keeps its old form with an empty customer, so that records already kept
  // for a party stay where they were).
  const id = createHash('sha256').update(`${origin}\n${actingFor.party}\n`).digest('hex').slice(0, 20)
  return { id, origin, actingFor: actingFor.party, customer: '' }
}

/**
 * The scope of an operation's record: for an operation on an existing thing (a transaction, an
 * order), the service and that thing alone, whoever acts on it; for one that makes something (a
 * payout, an order), the party it is made for (identity.id).
 */
export function operationScope(identity: ServiceIdentity, key: OperationKey): string {
  if (key.target === '') return identity.id
  return createHash('sha256').update(`${identity.origin}\ntarget\n`).digest('hex').slice(0, 20)
}

/** Where an operation's record is kept, in any journal store. */
export function operationSlot(identity: ServiceIdentity, key: OperationKey): Slot {
  return { scope: operationScope(identity, key), name: `${key.kind.replace(/[^a-z0-9-]/gi, '_')}-${operationKeyHash(key)}` }
}

/** The slot whose reservation stands for a reference (`orders create --reference`, `payto pay`): it never holds a record. */
export function referenceSlot(identity: ServiceIdentity, reference: string): Slot {
  return { scope: identity.id, name: `reference-${createHash('sha256').update(reference).digest('hex').slice(0, 24)}` }
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
  /** Who wrote it last (absent in records written before it was kept). */
  runner: z.object({ host: z.string(), user: z.string(), pid: z.number().int(), tag: z.string() }).optional(),
})
export type OperationRecord = z.infer<typeof operationRecordSchema>

/** A stable file name for an operation key. */
export function operationKeyHash(key: OperationKey): string {
  const text = JSON.stringify([key.kind, key.target, key.amount?.minorCurrencyUnits ?? null, key.amount?.currency.toUpperCase() ?? null, key.reference ?? null])
  return createHash('sha256').update(text).digest('hex').slice(0, 24)
}

/** `<configDir>/operations/<scope>/<name>.json`: a slot in the local journal. */
export function slotPath(configDir: string, slot: Slot): string {
  return path.join(configDir, 'operations', slot.scope, `${slot.name}.json`)
}

/** `<configDir>/operations/<scope>/<kind>-<key hash>.json`. */
export function operationPath(configDir: string, identity: ServiceIdentity, key: OperationKey): string {
  return slotPath(configDir, operationSlot(identity, key))
}

/**
 * The record at `file`, or undefined. Anything but a regular private file of the user, or a file
 * that is not a record, is a ConfigError (exit 3, damaged-store), left as it is; `check` is the
 * command that shows on the service what the operation did.
 */
export function readOperation(file: string, check?: string): OperationRecord | undefined {
  return parseOperation(readPrivateJson(file, { what: 'operation record', check }), file, check)
}

/** readOperation on the thread pool (fs-check.ts, readPrivateFileAsync), for the rows of a bulk run. */
export async function readOperationAsync(file: string, check?: string): Promise<OperationRecord | undefined> {
  const text = await readPrivateFileAsync(file, { what: 'operation record', check })
  if (text === undefined) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = NOT_JSON
  }
  return parseOperation(value, file, check)
}

function parseOperation(value: unknown, file: string, check: string | undefined): OperationRecord | undefined {
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

/** Writes the record atomically; sets `updatedAt` and `runner`. */
export function writeOperation(file: string, record: OperationRecord, now: Date = new Date()): OperationRecord {
  const saved = savedOperation(record, now)
  writeJsonAtomic(file, saved)
  return saved
}

/**
 * The record as writeOperation saves it (checked, `updatedAt` and `runner` set), for a writer that
 * puts several on disk at once (the rows of a bulk run: cli/bulk/journal.ts, with atomic-file.ts's
 * replaceJsonFiles).
 */
export function savedOperation(record: OperationRecord, now: Date = new Date()): OperationRecord {
  return operationRecordSchema.parse({ ...record, updatedAt: now.toISOString(), runner: thisRunner() })
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
