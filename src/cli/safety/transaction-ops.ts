// The money operations on a transaction (refund, capture, cancel-authorisation, transfer,
// reverse-transfer) run through the operation journal, with the look on the service that tells
// whether an earlier run whose answer was lost did it: the transaction's timeline entries added
// since the intent (a refund also by its refunded amount), or its status. Refunds, transfers and
// reversals also ask the second witness (witness.ts) first: an identical one on the transaction
// within the repeat window is exit 6 unless --again, whatever the journal holds.
import { createHash } from 'node:crypto'

import type { PayfacClient } from '../../client/client.js'
import { ResponseFormatError } from '../../client/errors.js'
import { checkGuardRead } from '../../client/guard-read.js'
import { redactJson } from '../../client/redact.js'
import { formatMinorUnits } from '../../client/money.js'
import type { Transaction, TransactionDetails } from '../../client/schemas/transactions.js'
import { RefusedError, UsageError } from '../errors/index.js'
import { minorUnitsFrom } from '../flags/index.js'
import { currencyOf } from '../validate/transactions.js'
import { readForDryRun } from './dry-run.js'
import { type Reconciled, runOperation } from './journal-ops.js'
import type { SafetySession } from './session.js'
import { findRefund, findReversal, findTransfer, readTransactionTimed, repeatWindowMs } from './witness.js'

/** What a transaction looked like before an operation was sent. */
export interface TransactionSnapshot {
  status: string | null
  refundedAmount: number
  refundIds: string[]
  /** How many timeline entries it had (undefined: the service shows no timeline). */
  timeline: number | null
  /** Each timeline entry, as `entryKey` writes it (absent in records written before it was kept). */
  entries?: string[] | undefined
}

type Entry = NonNullable<Transaction['timelines']>[number]

/** An entry in words that tell it apart: type, amount, identifier and time. */
const entryKey = (e: Entry): string => JSON.stringify([e.eventType ?? null, e.amount ?? null, e.identifier ?? null, e.eventTime ?? null])

export function snapshotOf(t: Transaction): TransactionSnapshot {
  const p = t.purchaseDetails
  return {
    status: p?.status ?? null,
    refundedAmount: p?.refundedAmount ?? 0,
    refundIds: [...(p?.refundIds ?? [])],
    timeline: t.timelines ? t.timelines.length : null,
    entries: t.timelines ? t.timelines.map(entryKey) : undefined,
  }
}

/**
 * Timeline entries of `eventType` added since the snapshot; undefined when the service shows no
 * timeline. Found by what each entry is, not where it stands: the contract does not say the
 * timeline's order, and a newest-first timeline cut at the old length would show old entries as
 * new and hide the new one (a lost refund then sent again).
 */
export function entriesSince(t: Transaction, before: TransactionSnapshot | undefined, eventType: string) {
  if (!t.timelines || !before || before.timeline === null) return undefined
  if (!Array.isArray(before.entries)) return t.timelines.slice(before.timeline).filter((e) => e.eventType === eventType)
  const seen = new Map<string, number>()
  for (const key of before.entries) seen.set(key, (seen.get(key) ?? 0) + 1)
  return t.timelines.filter((e) => {
    const key = entryKey(e)
    const left = seen.get(key) ?? 0
    if (left > 0) {
      seen.set(key, left - 1)
      return false
    }
    return e.eventType === eventType
  })
}

const money = (units: number, currency: string) => `${formatMinorUnits(units, currency)} ${currency.toUpperCase()}`

/**
 * Did an earlier operation happen? true (or the id of what it made, such as the refund), false,
 * or undefined when the transaction cannot tell.
 */
type Happened = (t: Transaction, before: TransactionSnapshot | undefined) => boolean | string | undefined

export interface TransactionOperation {
  /** refund, capture, cancel-authorisation, transfer, reverse-transfer */
  kind: string
  transactionId: string
  envelope: Record<string, unknown>
  amount?: { minorCurrencyUnits: number; currency: string } | undefined
  /** Tells two operations of the same kind and amount apart (a destination, a transfer id). */
  reference?: string | undefined
  /** "refund of 10.00 AUD" */
  words: string
  /** What to look at in `transactions get` to see whether it happened. */
  look?: string | undefined
  happened: Happened
  guard?: (() => Promise<void>) | undefined
  /** The transaction as read before (reused for the snapshot and by the witness). */
  read?: Transaction | undefined
  /** The service's clock when `read` was answered (its Date header). */
  readAt?: number | undefined
  /**
   * The second witness: an identical operation on the transaction within `windowMs` of the
   * service's now, in words (witness.ts). Reads the transaction unless `read` is given; the
   * snapshot then reuses that read, so the witness costs no request of its own.
   */
  witness?: { windowMs: number; find: (t: Transaction, now: number, windowMs: number) => string | undefined } | undefined
}

/** Sends one PATCH /transactions/{id} action at most once. */
export async function transactionAction(session: SafetySession, client: PayfacClient, op: TransactionOperation): Promise<TransactionDetails> {
  const id = op.transactionId
  const reference = op.reference ?? (op.amount ? undefined : bodyHash(op.envelope))
  let latest = op.read
  const witness = op.witness && op.witness.windowMs > 0 ? op.witness : undefined
  return runOperation<TransactionDetails, TransactionSnapshot>(session, {
    key: { kind: op.kind, target: id, amount: op.amount, reference },
    action: `${op.words} on transaction ${id}`,
    check: `${session.bin} transactions get ${id}`,
    look: op.look,
    before: async () => snapshotOf(latest ?? (await client.transactions.get(id))),
    reconcile: async (before): Promise<Reconciled<TransactionDetails>> => {
      const now = await client.transactions.get(id)
      const happened = op.happened(now, before)
      if (happened === undefined) return 'cannot-tell'
      if (happened === false) return 'absent'
      const made = typeof happened === 'string' ? ` as ${happened}` : ''
      return { found: now as TransactionDetails, note: `the ${op.words} is on transaction ${id}${made} (status ${now.purchaseDetails?.status ?? 'unknown'})` }
    },
    guard: op.guard,
    send: () => client.transactions.update(id, op.envelope as never),
    resultId: (r) => r.purchaseDetails.refundIds?.at(-1) ?? undefined,
    witness: witness
      ? async () => {
          let now = op.readAt
          if (!latest) {
            const timed = await readTransactionTimed(client, id)
            latest = timed.transaction
            now = timed.serviceNow
          }
          return witness.find(latest, now ?? Date.now(), witness.windowMs)
        }
      : undefined,
  })
}

export interface RefundRequest {
  transactionId: string
  amount: string
  currency: string | undefined
  expectRefunded: string | undefined
  /** `--repeat-window`: how far back the service's refunds are searched (witness.ts). */
  repeatWindow?: string | undefined
}

/**
 * A refund: read the transaction (currency, what remains), then at most once. Refused (exit 6)
 * when it is more than what remains, or when `--expect-refunded` no longer holds.
 */
export async function refundOperation(session: SafetySession, client: PayfacClient, r: RefundRequest): Promise<TransactionDetails> {
  const id = r.transactionId
  const windowMs = repeatWindowMs('refund', r.repeatWindow)
  const timed = await readForDryRun(session.dryRun, `transaction ${id}`, () => readTransactionTimed(client, id))
  const read = timed?.transaction
  // What remains to refund is judged from the amount: an answer without it stops the refund (exit 7).
  if (read) checkRefundRead(read, id)
  if (!read && !r.currency) throw new UsageError('A dry run that cannot read the transaction needs --currency', 'Add --currency, such as --currency AUD')
  const currency = read ? currencyOf(read, r.currency) : (r.currency as string)
  const units = minorUnitsFrom(r.amount, currency)
  const expected =
    r.expectRefunded === undefined ? undefined : /^[0.]+$/.test(r.expectRefunded) ? 0 : minorUnitsFrom(r.expectRefunded, currency, '--expect-refunded')
  return transactionAction(session, client, {
    kind: 'refund',
    transactionId: id,
    envelope: { CreateRefund: { refundAmount: units } },
    amount: { minorCurrencyUnits: units, currency },
    words: `refund of ${money(units, currency)}`,
    look: 'its refunded amount and refund ids',
    read,
    readAt: timed?.serviceNow,
    witness: { windowMs, find: (t, now, ms) => findRefund(t, units, currency, now, ms) },
    guard: async () => {
      if (read) checkRefundable(read, units, currency, expected)
    },
    happened: (t, before) => {
      // The look after a lost answer decides whether to send again: its refunded amount is checked as the guard's is.
      checkGuardRead(t, { method: 'GET', path: `/transactions/${id}` }, [['purchaseDetails.refundedAmount', 'amount']])
      const entries = entriesSince(t, before, 'PaymentRefunded')
      if (entries) {
        const entry = entries.find((e) => e.amount === units)
        return entry ? (entry.identifier ?? true) : false
      }
      if (!before) return undefined
      return (t.purchaseDetails?.refundedAmount ?? 0) - before.refundedAmount >= units
    },
  })
}

/**
 * What a refund decides from (what remains: the amount less what was refunded) must be there and
 * make sense: the amount and its currency, and the refunded amount as a whole number of minor
 * units from 0 to the amount. A negative, fractional, missing or larger refunded amount (a
 * hostile or broken answer) is exit 7, nothing sent: it would let a refund of more than was paid through.
 */
export function checkRefundRead(read: Transaction, id: string): void {
  const at = { method: 'GET', path: `/transactions/${id}` }
  checkGuardRead(read, at, [
    ['purchaseDetails.amount.minorCurrencyUnits', 'amount'],
    ['purchaseDetails.amount.currency', 'currency'],
    ['purchaseDetails.refundedAmount', 'amount'],
  ])
  const p = read.purchaseDetails as { amount: { minorCurrencyUnits: number }; refundedAmount: number }
  if (p.refundedAmount > p.amount.minorCurrencyUnits) {
    throw new ResponseFormatError({
      ...at,
      status: 200,
      body: redactJson(read),
      reason: `purchaseDetails.refundedAmount: ${p.refundedAmount} is more than the amount paid (${p.amount.minorCurrencyUnits})`,
    })
  }
}

/** Refuses (exit 6) a refund larger than what remains, or one whose expected refunded amount is not the service's. */
export function checkRefundable(t: Transaction, units: number, currency: string, expectedRefunded: number | undefined): void {
  const refunded = t.purchaseDetails?.refundedAmount ?? 0
  if (expectedRefunded !== undefined && refunded !== expectedRefunded) {
    throw new RefusedError(
      `Transaction ${t.purchaseDetails?.transactionId ?? ''} has ${money(refunded, currency)} refunded, not the ${money(expectedRefunded, currency)} expected (--expect-refunded): someone refunded in between. Nothing was sent.`,
    )
  }
  const total = t.purchaseDetails?.amount?.minorCurrencyUnits
  if (total === undefined || total === null) return
  const remaining = total - refunded
  if (units > remaining) {
    throw new RefusedError(
      `The refund of ${money(units, currency)} is more than what remains to refund: ${money(remaining, currency)} of ${money(total, currency)}. Nothing was sent.` +
        (remaining > 0 ? ` Refund at most ${formatMinorUnits(remaining, currency)}.` : ' Nothing remains to refund.'),
    )
  }
}

/** How the other transaction actions are recognised on the service after a lost answer. */
export const HAPPENED: Record<'capture' | 'cancel-authorisation' | 'transfer' | 'reverse-transfer', (units?: number, transferId?: string) => Happened> = {
  capture: () => (t) => {
    const status = t.purchaseDetails?.status
    return status ? status !== 'not_captured' : undefined
  },
  'cancel-authorisation': () => (t) => {
    const status = t.purchaseDetails?.status
    return status ? status === 'cancelled' : undefined
  },
  transfer: (units) => (t, before) => entriesSince(t, before, 'FundsTransferred')?.some((e) => units === undefined || e.amount === units),
  'reverse-transfer': (_units, transferId) => (t, before) =>
    entriesSince(t, before, 'FundsTransferReversed')?.some((e) => transferId === undefined || e.identifier === transferId),
}

/**
 * A stable short hash of a request body, to tell two operations apart by what they send: its
 * keys in sorted order, so that the same body written in another order (`--data`) is the same
 * operation (and takes the same lock).
 */
export function bodyHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body, sortedKeys)).digest('hex').slice(0, 16)
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  const record = value as Record<string, unknown>
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key]]),
  )
}

const KIND_BY_ACTION: Record<string, keyof typeof HAPPENED> = {
  CaptureFunds: 'capture',
  CancelAuthorisation: 'cancel-authorisation',
  TransferFunds: 'transfer',
  ReverseFundsTransfer: 'reverse-transfer',
}

/**
 * Capture, cancel-authorisation, transfer or reverse-transfer (by the envelope's action), at most
 * once. A transfer or reversal first asks the second witness, over `repeatWindow` (witness.ts).
 */
export async function transactionActionOnce(
  session: SafetySession,
  client: PayfacClient,
  transactionId: string,
  envelope: Record<string, Record<string, unknown>>,
  options: { repeatWindow?: string | undefined } = {},
): Promise<TransactionDetails> {
  const [action, body] = Object.entries(envelope)[0] ?? ['', {}]
  const kind = KIND_BY_ACTION[action]
  if (!kind) throw new UsageError(`${action} is not a transaction action payfac journals`)
  const units = typeof body.amount === 'number' ? body.amount : undefined
  const transferId = typeof body.transferId === 'string' ? body.transferId : undefined
  const destination = typeof body.destinationMerchantId === 'string' ? body.destinationMerchantId : undefined
  const words: Record<typeof kind, string> = {
    capture: 'capture',
    'cancel-authorisation': 'cancellation of the authorisation',
    transfer: `transfer${units === undefined ? '' : ` of ${units} minor units`}${typeof body.destinationMerchantId === 'string' ? ` to ${body.destinationMerchantId}` : ''}`,
    'reverse-transfer': `reversal of transfer ${transferId ?? '(from --data)'}`,
  }
  return transactionAction(session, client, {
    kind,
    transactionId,
    envelope,
    reference: bodyHash(envelope),
    words: words[kind],
    look: kind === 'capture' || kind === 'cancel-authorisation' ? 'its status' : 'its transfers and timeline',
    happened: HAPPENED[kind](units, transferId),
    witness: witnessOf(kind, units, destination, transferId, options.repeatWindow),
  })
}

/** The second witness of a transfer or a reversal (of a named transfer); none for the other actions. */
function witnessOf(
  kind: keyof typeof HAPPENED,
  units: number | undefined,
  destination: string | undefined,
  transferId: string | undefined,
  flag: string | undefined,
): TransactionOperation['witness'] {
  if (kind === 'transfer') return { windowMs: repeatWindowMs(kind, flag), find: (t, now, ms) => findTransfer(t, units, destination, now, ms) }
  // A reversal of "all that is left" cannot move money twice: a repeat finds nothing left.
  if (kind === 'reverse-transfer' && transferId !== undefined && units !== undefined) {
    return { windowMs: repeatWindowMs(kind, flag), find: (t, now, ms) => findReversal(t, transferId, units, now, ms) }
  }
  return undefined
}
