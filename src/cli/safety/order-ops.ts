// Orders at most once: `orders create` looks for an order with the same referenceOrderId before
// it makes one (--if-exists), `orders pay` refuses an order that already has a payment, and both
// are journaled so that a re-run after a lost answer finds what the first run did.
import type { PayfacClient } from '../../client/client.js'
import { formatMoney } from '../../client/money.js'
import type { PayOrderEnvelope, PayResult } from '../../client/resources/orders.js'
import type { Order } from '../../client/schemas/orders.js'
import type { Transaction } from '../../client/schemas/transactions.js'
import { RefusedError } from '../errors/index.js'
import { readForDryRun } from './dry-run.js'
import { operationIdentity, runOperation, withReservation } from './journal-ops.js'
import type { SafetySession } from './session.js'
import { bodyHash } from './transaction-ops.js'
import { sanitizeLine } from '../../output/sanitize.js'

/** Statuses of a transaction that took no money: the order may be paid again. */
const NOT_PAID = new Set(['failed', 'declined', 'rejected', 'cancelled', 'canceled'])

/** A status that says the payment took no money. No status at all is not such a word: it counts as paid. */
export function tookNoMoney(status: string | null | undefined): boolean {
  return typeof status === 'string' && NOT_PAID.has(status.toLowerCase())
}

/** The order's transaction that took (or is taking) money, if there is one. */
export async function paymentOf(client: PayfacClient, orderId: string): Promise<Transaction | undefined> {
  const page = await client.transactions.list({ orderId, limit: 100 })
  return page.items.find((t) => {
    const p = t.purchaseDetails
    const status = p?.status ?? t.paymentMethod?.paymentStatus ?? undefined
    // A transaction of the order without a status is taken as a payment: paying again on a
    // guess is the one mistake that moves money twice.
    return p?.transactionId && p.orderId === orderId && !tookNoMoney(status)
  })
}

/** Orders with this referenceOrderId that are not cancelled. */
export async function ordersWithReference(client: PayfacClient, reference: string): Promise<Order[]> {
  const page = await client.orders.list({ referenceOrderId: reference, limit: 100 })
  return page.items.filter((o) => o.referenceOrderId === reference && o.status !== 'cancelled')
}

/** A found payment, shaped like the answer of pay. */
function asPayResult(t: Transaction): PayResult {
  const p = t.purchaseDetails
  return {
    kind: 'PayOrderComplete',
    transaction: {
      transactionId: p?.transactionId ?? '',
      transactionStatus: p?.status ?? 'paid',
      transactionDetails: t.purchaseDetails ? (t as never) : null,
      amount: p?.amount?.minorCurrencyUnits ?? null,
      currency: p?.amount?.currency ?? null,
    },
  }
}

/** `orders pay`: refused when the order already has a payment; at most once. */
export async function payOperation(session: SafetySession, client: PayfacClient, orderId: string, envelope: PayOrderEnvelope): Promise<PayResult> {
  return runOperation<PayResult>(session, {
    key: { kind: 'pay', target: orderId },
    action: `payment of order ${orderId}`,
    check: `${session.bin} transactions list --order-id ${orderId}`,
    look: 'a transaction that is not failed or cancelled means it is paid',
    reconcile: async () => {
      const paid = await paymentOf(client, orderId)
      return paid
        ? { found: asPayResult(paid), note: `order ${orderId} is paid by transaction ${paid.purchaseDetails?.transactionId} (${paid.purchaseDetails?.status})` }
        : 'absent'
    },
    guard: async () => {
      const paid = await readForDryRun(session.dryRun, `the payments of order ${orderId}`, () => paymentOf(client, orderId))
      if (paid) {
        throw new RefusedError(
          `Order ${orderId} already has a payment: transaction ${paid.purchaseDetails?.transactionId} (${paid.purchaseDetails?.status}). Nothing was sent.`,
        )
      }
    },
    send: () => client.orders.pay(orderId, envelope),
    resultId: (r) => (r.kind === 'PayOrderComplete' ? r.transaction.transactionId : undefined),
  })
}

export type IfExists = 'fail' | 'reuse' | 'create'

/**
 * `orders create`: with a referenceOrderId, an order that already has it is refused (fail: exit
 * 6 naming it), printed (reuse) or ignored (create); at most once either way.
 */
export async function createOrderOperation(
  session: SafetySession,
  client: PayfacClient,
  envelope: Record<string, Record<string, unknown>>,
  ifExists: IfExists,
): Promise<Order> {
  const body = Object.values(envelope)[0] ?? {}
  const reference = typeof body.referenceOrderId === 'string' ? body.referenceOrderId : undefined
  if (!reference || session.dryRun) return createOrderOnce(session, client, envelope, ifExists, reference)
  // Two creates with one reference at once make one order: the second waits here, then finds the first's.
  const journal = await session.journal()
  const { referenceSlot } = await import('../../config/operations.js')
  const { identity } = await operationIdentity(session.settings, session.controller.signal)
  const words = { what: `order reference ${reference}`, check: `${session.bin} orders list --reference ${reference}` }
  return withReservation(journal, referenceSlot(identity, reference), words, () => createOrderOnce(session, client, envelope, ifExists, reference))
}

async function createOrderOnce(
  session: SafetySession,
  client: PayfacClient,
  envelope: Record<string, Record<string, unknown>>,
  ifExists: IfExists,
  reference: string | undefined,
): Promise<Order> {
  const body = Object.values(envelope)[0] ?? {}
  const amount = moneyOf(body.amount)
  const existing = reference
    ? await readForDryRun(session.dryRun, `orders with reference ${reference}`, () => ordersWithReference(client, reference))
    : undefined
  const first = existing?.[0]
  if (first && ifExists === 'reuse') {
    process.stderr.write(`${sanitizeLine(`Order ${first.orderId} already has reference ${reference}: reusing it (nothing was sent).`)}\n`)
    return first
  }
  return runOperation<Order, string[]>(session, {
    key: { kind: 'order-create', target: '', amount, reference: reference ?? bodyHash(envelope) },
    action: `creation of order ${reference ? `with reference ${reference}` : '(no reference)'}${amount ? ` for ${formatMoney(amount)}` : ''}`,
    check: reference ? `${session.bin} orders list --reference ${reference}` : `${session.bin} orders list`,
    before: async () => (existing ?? []).map((o) => o.orderId),
    reconcile: async (before) => {
      if (!reference) return 'cannot-tell'
      const made = (await ordersWithReference(client, reference)).find((o) => !(before ?? []).includes(o.orderId))
      return made ? { found: made, note: `order ${made.orderId} has reference ${reference}` } : 'absent'
    },
    guard: async () => {
      if (first && ifExists === 'fail') {
        throw new RefusedError(
          `Order ${first.orderId} already has reference ${reference} (${first.status ?? 'status unknown'}): nothing was sent. ` +
            'Use --if-exists reuse to print it, or --if-exists create to make another order with the same reference.',
        )
      }
    },
    send: () => client.orders.create(envelope as never),
    resultId: (o) => o.orderId,
    deliberate: ifExists === 'create',
  })
}

function moneyOf(value: unknown): { minorCurrencyUnits: number; currency: string } | undefined {
  if (!value || typeof value !== 'object') return undefined
  const { minorCurrencyUnits, currency } = value as { minorCurrencyUnits?: unknown; currency?: unknown }
  return typeof minorCurrencyUnits === 'number' && typeof currency === 'string' ? { minorCurrencyUnits, currency } : undefined
}
