// The journal of a resumable flow (`payfac payto pay`): what each step created, written after
// every step, so that a run stopped by a failure, Ctrl-C or a crash carries on where it stopped
// and never creates a second agreement or order, nor pays twice. Pure fs + zod: no client.
//
// One file per run: <config dir>/journal/<scope>/<reference>.json, where the scope is the profile
// name (or `url-<hash>` of the base URL when no profile is in use) and the reference is the
// run's name (the order's referenceOrderId). Each write goes to a temporary file in the same
// folder, is flushed, then renamed over the journal: a crash leaves the old journal or the new
// one, never half of either. Files are 0600 and folders 0700, like the profile store.
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

import { writeJsonAtomic as writeFileAtomic } from './atomic-file.js'
import { ConfigError } from './errors.js'

export const JOURNAL_FORMAT = 'payfac-journal'
export const JOURNAL_VERSION = 1

const Money = z.object({ minorCurrencyUnits: z.number().int(), currency: z.string() })
const Timestamp = z.string()

/** What a run was asked to do; a re-run with other inputs is refused unless it restarts. */
export const payToPayInputsSchema = z.object({
  customerName: z.string(),
  /** `Bban` or the alias type (`Phone`, `Email` …), and the value as sent. */
  account: z.object({ type: z.string(), value: z.string() }),
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
  agreement: z
    .object({ state: z.enum(['requested', 'unknown', 'sent']), token: z.string().nullable(), approved: z.boolean(), at: Timestamp })
    .nullable(),
  paymentToken: z.object({ paymentTokenId: z.string(), at: Timestamp }).nullable(),
  order: z.object({ state: z.enum(['requested', 'unknown', 'created']), orderId: z.string().nullable(), at: Timestamp }).nullable(),
  payment: z
    .object({ state: z.enum(['requested', 'unknown', 'paid']), transactionId: z.string().nullable(), status: z.string().nullable(), at: Timestamp })
    .nullable(),
  /** Runs of the same reference that were started over with --restart. */
  previousRuns: z.array(
    z.object({ runId: z.string(), agreementToken: z.string().nullable(), orderId: z.string().nullable(), restartedAt: Timestamp }),
  ),
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
  if (before.account.type !== after.account.type || before.account.value !== after.account.value) changed.push('account')
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
  const cleaned = reference.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._-]+/, '').slice(0, 60)
  const hash = createHash('sha256').update(reference).digest('hex').slice(0, 12)
  return `${cleaned ? `${cleaned}-` : ''}${hash}.json`
}

/** `<configDir>/journal/<scope>/<reference>.json`. */
export function journalPath(configDir: string, scope: string, reference: string): string {
  return path.join(configDir, 'journal', scope, journalFileName(reference))
}

function damaged(file: string, detail: string): ConfigError {
  return new ConfigError(`The journal ${file} is damaged: ${detail}. It has been left as it is.`, {
    reason: 'damaged-store',
    hint: `Move it aside (mv "${file}" "${file}.damaged"), check what the run created with list commands, and run again.`,
  })
}

/** The run journaled at `file`, or undefined when there is none. A damaged file is a ConfigError (exit 3). */
export function readPayToPayRun(file: string): PayToPayRun | undefined {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new ConfigError(`Cannot read the journal ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`, {
      hint: 'Check the permissions of the file and its folder, or set PAYFAC_CONFIG_DIR to another folder.',
    })
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw damaged(file, 'it is not valid JSON')
  }
  const parsed = payToPayRunSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw damaged(file, issue ? `${issue.path.join('.') || 'the file'}: ${issue.message}` : 'unexpected shape')
  }
  return parsed.data
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
