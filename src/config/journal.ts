// The journal of a resumable flow (`payfac payto pay`): what each step created, written after
// every step, so that a run stopped by a failure, Ctrl-C or a crash carries on where it stopped
// and never creates a second agreement or order, nor pays twice. Pure fs + zod: no client.
//
// One file per run: <config dir>/journal/<scope>/<reference>.json, where the scope is the profile
// name (or `url-<hash>` of the base URL when no profile is in use) and the reference is the
// run's name (the order's referenceOrderId). Each write goes to a temporary file in the same
// folder, is flushed, then renamed over the journal: a crash leaves the old journal or the new
// one, never half of either. Files are 0600 and folders 0700, like the profile store, and are
// read fail-closed (fs-check.ts): anything but a private regular file of the user is damaged.
//
// No full account number at rest: the customer's account (BSB and account number, or alias) is
// kept masked for people (`***678`) and as an HMAC-SHA256 under a random key of this config folder
// (<config dir>/journal-key, 0600) for matching a re-run's inputs. Format 2; a format-1 journal
// (which kept the account as sent) is read and rewritten in format 2 at its next step.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

import { writeJsonAtomic as writeFileAtomic } from './atomic-file.js'
import { ConfigError } from './errors.js'
import { NOT_JSON, readPrivateFile, readPrivateJson } from './fs-check.js'

export const JOURNAL_FORMAT = 'payfac-journal'
export const JOURNAL_VERSION = 2

const Money = z.object({ minorCurrencyUnits: z.number().int(), currency: z.string() })
const Timestamp = z.string()

/** What a run was asked to do; a re-run with other inputs is refused unless it restarts. */
export const payToPayInputsSchema = z.object({
  customerName: z.string(),
  /** `Bban` or the alias type (`Phone`, `Email` …); the value masked, and its keyed hash (protectAccount). */
  account: z.object({ type: z.string(), masked: z.string(), hash: z.string() }),
  amount: Money,
  purpose: z.string().nullable(),
  description: z.string().nullable(),
})
export type PayToPayInputs = z.infer<typeof payToPayInputsSchema>

/**
 * A step's request is journaled as `requested` before it is sent, so that a crash while it is in
 * flight is noticed; `unknown` means it ended without an answer (it may have been applied).
 */
export const payToPayRunSchema = z.object({
  format: z.literal(JOURNAL_FORMAT),
  version: z.literal(JOURNAL_VERSION),
  flow: z.literal('payto-pay'),
  reference: z.string(),
  /** A fresh id per run (a restart makes a new one); sent as the order's metadata `payfacRun`. */
  runId: z.string(),
  startedAt: Timestamp,
  updatedAt: Timestamp,
  inputs: payToPayInputsSchema,
  agreement: z.object({ state: z.enum(['requested', 'unknown', 'sent']), token: z.string().nullable(), approved: z.boolean(), at: Timestamp }).nullable(),
  paymentToken: z.object({ paymentTokenId: z.string(), at: Timestamp }).nullable(),
  order: z.object({ state: z.enum(['requested', 'unknown', 'created']), orderId: z.string().nullable(), at: Timestamp }).nullable(),
  payment: z
    .object({ state: z.enum(['requested', 'unknown', 'paid']), transactionId: z.string().nullable(), status: z.string().nullable(), at: Timestamp })
    .nullable(),
  /** Runs of the same reference that were started over with --restart. */
  previousRuns: z.array(z.object({ runId: z.string(), agreementToken: z.string().nullable(), orderId: z.string().nullable(), restartedAt: Timestamp })),
})
export type PayToPayRun = z.infer<typeof payToPayRunSchema>

/** A new run of `payto pay`, nothing done yet. */
export function newPayToPayRun(reference: string, inputs: PayToPayInputs, now: Date = new Date()): PayToPayRun {
  return {
    format: JOURNAL_FORMAT,
    version: JOURNAL_VERSION,
    flow: 'payto-pay',
    reference,
    runId: `run_${randomBytes(9).toString('base64url')}`,
    startedAt: now.toISOString(),
    updatedAt: now.toISOString(),
    inputs,
    agreement: null,
    paymentToken: null,
    order: null,
    payment: null,
    previousRuns: [],
  }
}

/** The inputs that differ between two runs, by name (empty when they are the same). */
export function changedInputs(before: PayToPayInputs, after: PayToPayInputs): string[] {
  const changed: string[] = []
  if (before.customerName !== after.customerName) changed.push('name')
  if (before.account.type !== after.account.type || before.account.hash !== after.account.hash) changed.push('account')
  if (before.amount.minorCurrencyUnits !== after.amount.minorCurrencyUnits) changed.push('amount')
  if (before.amount.currency !== after.amount.currency) changed.push('currency')
  if (before.purpose !== after.purpose) changed.push('purpose')
  if (before.description !== after.description) changed.push('description')
  return changed
}

/** The folder of a profile's journals: the profile name, or `url-<hash>` of the base URL without one. */
export function journalScope(profileName: string | undefined, baseUrl: string): string {
  if (profileName && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(profileName)) return profileName
  return `url-${createHash('sha256').update(baseUrl.replace(/\/+$/, '')).digest('hex').slice(0, 16)}`
}

/** A file name for a reference: itself when it is plain, otherwise a cleaned form plus a hash. */
export function journalFileName(reference: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(reference) && !reference.endsWith('.')) return `${reference}.json`
  const cleaned = reference
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, 60)
  const hash = createHash('sha256').update(reference).digest('hex').slice(0, 12)
  return `${cleaned ? `${cleaned}-` : ''}${hash}.json`
}

/** `<configDir>/journal/<scope>/<reference>.json`. */
export function journalPath(configDir: string, scope: string, reference: string): string {
  return path.join(configDir, 'journal', scope, journalFileName(reference))
}

function damaged(file: string, detail: string, check: string | undefined): ConfigError {
  return new ConfigError(`The journal ${file} is damaged: ${detail}. Nothing was sent; it has been left as it is.`, {
    reason: 'damaged-store',
    hint: `Check on the service what the run did with: ${check ?? 'payfac orders list --reference <reference>'} (and the order's transactions).`,
  })
}

/** A format-1 run: the account as sent. */
const payToPayRunV1Schema = payToPayRunSchema.extend({
  version: z.literal(1),
  inputs: payToPayInputsSchema.extend({ account: z.object({ type: z.string(), value: z.string() }) }),
})

/**
 * The run journaled at `file`, or undefined when there is none. Anything but a private regular
 * file of the user, or a file that is not a run, is a ConfigError (exit 3, damaged-store); never
 * blocks. A format-1 run is read with its account protected under `key` (written so at its next step).
 */
export function readPayToPayRun(file: string, key?: Buffer, check?: string): PayToPayRun | undefined {
  const value = readPrivateJson(file, { what: 'journal of payto pay', check })
  if (value === undefined) return undefined
  if (value === NOT_JSON) throw damaged(file, 'it is not valid JSON', check)
  const parsed = payToPayRunSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const old = payToPayRunV1Schema.safeParse(value)
  if (old.success) {
    if (!key) throw damaged(file, `it is of an older payfac (format 1); this one reads format ${JOURNAL_VERSION}`, check)
    const { type, value: account } = old.data.inputs.account
    return { ...old.data, version: JOURNAL_VERSION, inputs: { ...old.data.inputs, account: protectAccount(key, type, account) } }
  }
  const issue = parsed.error.issues[0]
  throw damaged(file, issue ? `${issue.path.join('.') || 'the file'}: ${issue.message}` : 'unexpected shape', check)
}

/** `***678` for an account number, `j***om` for an alias: enough for a person to recognise it. */
export function maskAccount(type: string, value: string): string {
  const text = value.trim()
  if (type === 'Bban') return `***${text.replace(/\D/g, '').slice(-3)}`
  if (text.length <= 4) return '***'
  return `${text.slice(0, 1)}***${text.slice(-2)}`
}

/** An account as the journal keeps it: masked, and an HMAC-SHA256 under the config folder's key. */
export function protectAccount(key: Buffer, type: string, value: string): PayToPayInputs['account'] {
  const hash = createHmac('sha256', key).update(`${type}\n${value.trim()}`).digest('hex')
  return { type, masked: maskAccount(type, value), hash: `hmac-sha256:${hash}` }
}

/** The random key of this config folder's journal (<config dir>/journal-key, 0600), made on first use. */
export function journalKey(configDir: string): Buffer {
  const file = path.join(configDir, 'journal-key')
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const text = readPrivateFile(file, { what: 'journal key' })
    if (text !== undefined) {
      const key = Buffer.from(text.trim(), 'hex')
      if (key.length < 32) {
        throw new ConfigError(`The journal key ${file} is damaged: it is not 32 bytes of hex. Nothing was sent.`, {
          reason: 'damaged-store',
          hint: 'It only protects account numbers in journals; check what earlier runs did on the service (payfac orders list), then remove the file to make a new key.',
        })
      }
      return key
    }
    try {
      fs.mkdirSync(configDir, { recursive: true, mode: 0o700 })
      makeKeyFile(file, `${randomBytes(32).toString('hex')}\n`)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new ConfigError(`Cannot write the journal key ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`, {
          hint: 'Check the permissions of the folder, or set PAYFAC_CONFIG_DIR to another folder.',
        })
      }
    }
  }
  throw new ConfigError(`Cannot read the journal key ${file}.`, { reason: 'damaged-store' })
}

/**
 * Makes `file` with `text` unless it exists, whole or not at all: written to a file of this
 * process's, then linked into place (a link fails when the name exists). Two payfac runs making
 * the key at once then agree on one key, and neither reads the other's half-written file (which
 * `writeFileSync` with `wx` shows empty for a moment: a concurrent run called it damaged).
 */
function makeKeyFile(file: string, text: string): void {
  const own = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  fs.writeFileSync(own, text, { flag: 'wx', mode: 0o600 })
  try {
    fs.linkSync(own, file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // A file system without hard links: made as before.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EXDEV' || code === 'ENOSYS') fs.writeFileSync(file, text, { flag: 'wx', mode: 0o600 })
    else throw error
  } finally {
    fs.rmSync(own, { force: true })
  }
}

/** Writes the run atomically (temporary file, flush, rename), 0600 in a 0700 folder. Sets `updatedAt`. */
export function writePayToPayRun(file: string, run: PayToPayRun, now: Date = new Date()): PayToPayRun {
  const saved = payToPayRunSchema.parse({ ...run, updatedAt: now.toISOString() })
  writeJsonAtomic(file, saved)
  return saved
}

/** Writes `value` as JSON at `file` atomically, 0600 in a 0700 folder (atomic-file.ts). */
export function writeJsonAtomic(file: string, value: unknown): void {
  try {
    writeFileAtomic(file, value)
  } catch (error) {
    throw new ConfigError(`Cannot write the journal ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`, {
      hint: 'Check the permissions of the folder, or set PAYFAC_CONFIG_DIR to another folder.',
      cause: error,
    })
  }
}
