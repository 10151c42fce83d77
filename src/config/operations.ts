// The operation journal: every command that moves money records what it is about to send
// (intent) before sending it, and what came of it after, so that a re-run of the same operation
// whose outcome was lost looks on the service before it sends anything again.
//
// Records are keyed by the SERVICE IDENTITY, never by a profile name or the spelling of a URL:
//   - the canonical origin: scheme, lower-case host, port (default ports written out), the path
//     without trailing slashes, and every loopback name (localhost, 127.x.x.x, ::1) as one;
//   - the context: marketplace, merchant and customer ids in force;
//   - a fingerprint of the credential (a SHA-256 prefix; the credential itself is never stored).
// So `--profile dev` and PAYFAC_BASE_URL/PAYFAC_API_KEY naming the same service, key and context
// share one journal, and `localhost` and `127.0.0.1` are the same place.
//
// One file per operation: <config dir>/operations/<identity>/<operation key>.json, written
// atomically (journal.ts), 0600 in 0700 folders. Pure fs + zod: no client.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

import { ConfigError } from './errors.js'
import { writeJsonAtomic } from './journal.js'

export const OPERATION_FORMAT = 'payfac-operation'
export const OPERATION_VERSION = 1

export interface ServiceContext {
  marketplaceId?: string | undefined
  merchantId?: string | undefined
  customerId?: string | undefined
}

export interface ServiceIdentity {
  /** A short stable hash of the three parts below: the folder of this service's journal. */
  id: string
  origin: string
  context: string
  /** SHA-256 prefix of the credential. */
  credential: string
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

export function serviceIdentity(baseUrl: string, context: ServiceContext, credential: string): ServiceIdentity {
  const origin = canonicalOrigin(baseUrl)
  const ctx = [`marketplace=${context.marketplaceId ?? ''}`, `merchant=${context.merchantId ?? ''}`, `customer=${context.customerId ?? ''}`].join(';')
  const fingerprint = credentialFingerprint(credential)
  const id = createHash('sha256').update(`${origin}\n${ctx}\n${fingerprint}`).digest('hex').slice(0, 20)
  return { id, origin, context: ctx, credential: fingerprint }
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
  identity: z.object({ origin: z.string(), context: z.string(), credential: z.string() }),
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

/** The record at `file`, or undefined. A damaged one is a ConfigError (exit 3), left as it is. */
export function readOperation(file: string): OperationRecord | undefined {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new ConfigError(`Cannot read the operation journal ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`, {
      hint: 'Check the permissions of the file and its folder, or set PAYFAC_CONFIG_DIR to another folder.',
    })
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  const parsed = operationRecordSchema.safeParse(value)
  if (!parsed.success) {
    throw new ConfigError(`The operation journal ${file} is damaged. It has been left as it is.`, {
      reason: 'damaged-store',
      hint: `Move it aside (mv "${file}" "${file}.damaged"), check on the service what the operation did, and run again.`,
    })
  }
  return parsed.data
}

/** Writes the record atomically; sets `updatedAt`. */
export function writeOperation(file: string, record: OperationRecord, now: Date = new Date()): OperationRecord {
  const saved = operationRecordSchema.parse({ ...record, updatedAt: now.toISOString() })
  writeJsonAtomic(file, saved)
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
    identity: { origin: identity.origin, context: identity.context, credential: identity.credential },
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
