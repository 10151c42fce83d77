// Builds transaction queries and action bodies from parsed flags. Pure: no I/O, no client.
import type { Transaction } from '../../client/schemas/transactions.js'
import type { TransferOutcome } from '../../output/views/transactions.js'
import { UsageError } from '../errors/index.js'
import { minorUnitsFrom } from '../flags/index.js'
import { checkNonEmpty } from '../validate/index.js'

/** Transaction statuses (field notes): the values of `--status`. */
export const TRANSACTION_STATUSES = [
  'accepted',
  'paid',
  'refunded',
  'partially_refunded',
  'pending',
  'failed',
  'cancelled',
  'disputed',
  'not_captured',
  'incomplete',
] as const

/**
 * A single-key envelope from a `--data` body: the whole envelope `{"<kind>": {...}}`, or the bare
 * body, which is wrapped in `kind`. An envelope naming one of `others` (another action of the same
 * operation, sent by another command) is refused.
 */
export function envelopeFromData(kind: string, data: Record<string, unknown>, others: readonly string[] = []): Record<string, Record<string, unknown>> {
  const keys = Object.keys(data)
  const only = keys.length === 1 ? (keys[0] as string) : undefined
  if (only === kind) {
    const body = data[kind]
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new UsageError(`--data: the value of ${kind} must be a JSON object`)
    return { [kind]: body as Record<string, unknown> }
  }
  if (only !== undefined && others.includes(only)) {
    throw new UsageError(`--data holds ${only}, but this command sends ${kind}`, `Give the fields of ${kind}, or use the command for ${only}`)
  }
  return { [kind]: data }
}

export interface TransactionListFlags {
  'order-id'?: string[] | undefined
  status?: string[] | undefined
  customer?: string[] | undefined
  'created-after'?: string | undefined
  'created-before'?: string | undefined
  amount?: string | undefined
  currency?: string | undefined
}

/** The `GET /transactions` query (filters of the field notes). */
export function transactionQuery(f: TransactionListFlags, merchantIds: string[] | undefined) {
  return {
    orderId: f['order-id'],
    status: f.status,
    customerId: f.customer,
    merchantId: merchantIds,
    createdAfter: f['created-after'],
    createdBefore: f['created-before'],
    amount: amountFilter(f.amount, f.currency),
  }
}

/** `--amount` with `--currency` as a filter in minor units. */
export function amountFilter(amount: string | undefined, currency: string | undefined): number | undefined {
  if (amount === undefined) return undefined
  if (!currency) throw new UsageError('--amount needs --currency to be converted to minor units')
  return minorUnitsFrom(amount, currency)
}

/** A decimal amount's form (digits, an optional fraction), checked before anything is sent. */
export function checkDecimal(input: string, flag: string): string {
  const value = input.trim()
  if (!/^\d+(\.\d+)?$/.test(value)) {
    throw new UsageError(`${flag}: "${input}" is not an amount`, 'Write the amount in major units with a dot, such as 12.50')
  }
  if (/^[0.]+$/.test(value)) throw new UsageError(`${flag} must be greater than zero (got "${input}")`)
  return value
}

/** The actions of `PATCH /transactions/{id}`. */
export const TRANSACTION_ACTIONS = ['CreateRefund', 'CaptureFunds', 'CancelAuthorisation', 'TransferFunds', 'ReverseFundsTransfer'] as const

/**
 * Checks the flags of a transfer before anything is sent: `--to` and `--amount` are needed, and
 * with `--currency` the amount is converted at once (otherwise after reading the transaction).
 */
export function checkTransferFlags(f: { to?: string | undefined; amount?: string | undefined; currency?: string | undefined }): void {
  if (!f.to || !f.amount) throw new UsageError('A transfer needs --to and --amount (or the whole body with --data)')
  if (f.currency) minorUnitsFrom(f.amount, f.currency)
}

/** `TransferFunds` (fields defined by the emulator, the contract shows none). */
export function transferBody(destinationMerchantId: string, amount: number, description: string | undefined) {
  return { amount, destinationMerchantId, ...(description === undefined ? {} : { description: checkNonEmpty(description, '--description') }) }
}

/** `ReverseFundsTransfer` (fields defined by the emulator): the transfer and, optionally, how much. */
export function reverseTransferBody(transferId: string, amount: number | undefined) {
  return { transferId: checkNonEmpty(transferId, '--transfer').trim(), ...(amount === undefined ? {} : { amount }) }
}

/**
 * What a transfer made, read from the transaction the service answered with: the identifier of
 * its newest `FundsTransferred` timeline entry (by time; the later one of two at the same time).
 */
export function transferOutcome(after: Transaction): TransferOutcome {
  let transferId: string | undefined
  let newest = -Infinity
  for (const entry of after.timelines ?? []) {
    if (entry.eventType !== 'FundsTransferred' || !entry.identifier) continue
    const time = Date.parse(entry.eventTime ?? '')
    const at = Number.isNaN(time) ? newest : time
    if (at >= newest) [transferId, newest] = [entry.identifier, at]
  }
  return { transferId, transaction: after }
}
