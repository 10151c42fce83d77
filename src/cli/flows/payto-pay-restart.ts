// `payfac payto pay --restart`, and the look-ups the flow shares with it: an order's payment,
// and the order a run created (its reference and the run's id in metadata.payfacRun).
import type { PayfacClient } from '../../client/client.js'
import { ApiError } from '../../client/errors.js'
import type { Order } from '../../client/schemas/orders.js'
import { type PayToPayInputs, type PayToPayRun, newPayToPayRun, writePayToPayRun } from '../../config/journal.js'
import { UsageError } from '../errors/index.js'
import { paymentOf } from '../safety/order-ops.js'

export interface PaymentFound {
  transactionId: string
  status: string
}

/** The order's transaction that took money, if there is one. */
export async function paymentSummary(client: PayfacClient, orderId: string): Promise<PaymentFound | undefined> {
  const paid = await paymentOf(client, orderId)
  const id = paid?.purchaseDetails?.transactionId
  return paid && id ? { transactionId: id, status: paid.purchaseDetails?.status ?? paid.paymentMethod?.paymentStatus ?? 'paid' } : undefined
}

/** The order a run created: same reference, and the run's id in its metadata; not cancelled. */
export async function orderOfRun(client: PayfacClient, reference: string, runId: string): Promise<Order | undefined> {
  const page = await client.orders.list({ referenceOrderId: reference, limit: 100 })
  return page.items.find((order) => order.referenceOrderId === reference && order.metadata?.payfacRun === runId && order.status !== 'cancelled')
}

export interface RestartContext {
  client: PayfacClient
  inputs: PayToPayInputs
  journalFile: string
  /** A dry run: the new run is not written. */
  dryRun: boolean
  log: (line: string) => void
  now: () => Date
}

/** Starts over: refused when the earlier run paid; its unpaid order is cancelled so it can never be paid. */
export async function restartRun(old: PayToPayRun, c: RestartContext): Promise<PayToPayRun> {
  const refuse = (orderId: string, transactionId: string) =>
    new UsageError(
      `Run "${old.reference}" already paid order ${orderId} (transaction ${transactionId}); --restart would take a second payment`,
      'Use a new --reference for a new payment',
    )
  const orderId = old.order?.orderId ?? (old.order ? (await orderOfRun(c.client, old.reference, old.runId))?.orderId : undefined)
  if (orderId) {
    const paid = await paymentSummary(c.client, orderId)
    if (paid) throw refuse(orderId, paid.transactionId)
    try {
      await c.client.orders.cancel(orderId)
    } catch (error) {
      const found = error instanceof ApiError && error.status === 409 ? await paymentSummary(c.client, orderId) : undefined
      if (found) throw refuse(orderId, found.transactionId)
      throw error
    }
    c.log(`Restart: cancelled order ${orderId} of the earlier run, so that it can never be paid.`)
  } else if (old.payment?.state === 'paid' && old.payment.transactionId) {
    throw refuse('(unrecorded)', old.payment.transactionId)
  }
  const fresh = newPayToPayRun(old.reference, c.inputs, c.now())
  fresh.previousRuns = [
    ...old.previousRuns,
    { runId: old.runId, agreementToken: old.agreement?.token ?? null, orderId: orderId ?? null, restartedAt: c.now().toISOString() },
  ]
  c.log(`Restart: starting run "${old.reference}" over${old.agreement?.token ? ` (agreement ${old.agreement.token} is left unused)` : ''}.`)
  return c.dryRun ? fresh : writePayToPayRun(c.journalFile, fresh, c.now())
}
