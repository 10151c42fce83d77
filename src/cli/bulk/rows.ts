// What one row of each bulk command is: the request its flags build (the single command's own
// builder, so a row and the same flags mean the same), the money it moves (for the production
// confirmation's totals), and how it is sent (the single command's own operation: its guards,
// its second witness and its look after a lost answer). customers upsert and webhooks create are
// not journaled as single commands; a row of them is, so that a re-run skips it.
import type { PayfacClient } from '../../client/client.js'
import type { ResolvedSettings } from '../../config/resolve.js'
import { minorUnitsFrom } from '../flags/index.js'
import { customerEnvelope } from '../requests/customers.js'
import { payoutBody } from '../requests/money.js'
import { orderEnvelope } from '../requests/orders.js'
import { unknownEvents } from '../validate/known-names.js'
import { webhookEnvelope, webhookLevel } from '../requests/webhooks.js'
import { type IfExists, createOrderOperation } from '../safety/order-ops.js'
import { payoutOperation } from '../safety/creation-ops.js'
import { checkPayoutPossible } from '../safety/payout-checks.js'
import { runOperation } from '../safety/journal-ops.js'
import type { SafetySession } from '../safety/session.js'
import { bodyHash, refundOperation } from '../safety/transaction-ops.js'

export interface RowContext {
  settings: ResolvedSettings
  bin: string
  /** Told of what a row's check noticed but does not refuse (unknown event names), once per value. */
  warn: (key: string, message: string) => void
}

/** Money a row moves: exact minor units in a currency, or a decimal in a currency only the service knows (a refund without --currency). */
export type RowMoney = { currency: string; units: number } | { currency: undefined; amount: string }

export interface RowKind<R = unknown> {
  /** Builds the row's request from its flags; throws a UsageError as the single command would. */
  build(flags: Record<string, unknown>, ctx: RowContext): { request: R; money?: RowMoney | undefined }
  /** Sends it as the single command does; returns what it made, for the results. */
  send(session: SafetySession, client: PayfacClient, request: R, ctx: RowContext): Promise<string | undefined>
}

type Flags = Record<string, unknown>
const text = (f: Flags, name: string) => f[name] as string | undefined
const moneyOf = (body: Record<string, unknown>): RowMoney | undefined => {
  const m = body.amount as { minorCurrencyUnits?: number; currency?: string } | undefined
  return typeof m?.minorCurrencyUnits === 'number' && m.currency ? { currency: m.currency, units: m.minorCurrencyUnits } : undefined
}

const refund: RowKind<{
  transactionId: string
  amount: string
  currency: string | undefined
  expectRefunded: string | undefined
  repeatWindow: string | undefined
}> = {
  build(f) {
    const amount = text(f, 'amount') as string
    const currency = text(f, 'currency')
    const units = currency ? minorUnitsFrom(amount, currency) : undefined
    const request = {
      transactionId: text(f, 'transactionId') as string,
      amount,
      currency,
      expectRefunded: text(f, 'expect-refunded'),
      repeatWindow: text(f, 'repeat-window'),
    }
    return { request, money: currency && units !== undefined ? { currency, units } : { currency: undefined, amount } }
  },
  async send(session, client, request) {
    const done = await refundOperation(session, client, request)
    return done.purchaseDetails.refundIds?.at(-1) ?? undefined
  },
}

const ordersCreate: RowKind<{ envelope: Record<string, Record<string, unknown>>; ifExists: IfExists }> = {
  build(f) {
    const envelope = orderEnvelope(f['pay-by-link'] ? 'CreatePayByLinkOrder' : 'CreateOnlineOrder', undefined, f) as Record<string, Record<string, unknown>>
    return { request: { envelope, ifExists: (text(f, 'if-exists') ?? 'fail') as IfExists }, money: moneyOf(Object.values(envelope)[0] ?? {}) }
  },
  async send(session, client, request) {
    return (await createOrderOperation(session, client, request.envelope, request.ifExists)).orderId ?? undefined
  },
}

const customersUpsert: RowKind<Record<string, Record<string, unknown>>> = {
  build: (f) => ({ request: customerEnvelope(f, undefined) }),
  async send(session, client, envelope) {
    const body = Object.values(envelope)[0] ?? {}
    const key = String(body.emailAddress ?? body.referenceCustomerId ?? '')
    const made = await runOperation(session, {
      key: { kind: 'customer-upsert', target: '', reference: bodyHash(envelope) },
      action: `upsert of customer ${key}`,
      check: `${session.bin} customers list --email ${key}`,
      // An upsert sent again updates the same customer (keyed by its e-mail or reference): a lost answer is sent again.
      reconcile: async () => 'absent',
      // Not refused as a repeat, nor kept in a record of its own: an upsert sent again changes nothing more.
      repeatable: true,
      send: () => client.customers.upsert(envelope as never),
      resultId: (c) => c.customerId,
    })
    return made.customerId
  },
}

const webhooksCreate: RowKind<ReturnType<typeof webhookEnvelope>> = {
  build(f, ctx) {
    const events = f.events as string[]
    for (const name of unknownEvents(events)) ctx.warn(`event ${name}`, `"${name}" is not an event payfac knows; sending as given`)
    const level = webhookLevel(ctx.settings.credentialKind, ctx.settings.context.merchantId)
    return {
      request: webhookEnvelope(level, { url: f.url as string, events, description: text(f, 'description'), metadata: f.metadata as string[] | undefined }),
    }
  },
  async send(session, client, envelope) {
    const body = Object.values(envelope)[0] as { url: string; events: string[] }
    const sameUrl = async () => (await client.webhooks.list({ limit: 500 })).items.filter((s) => s.url === body.url)
    const made = await runOperation(session, {
      key: { kind: 'webhook-create', target: '', reference: bodyHash(envelope) },
      action: `subscription of ${body.url}`,
      check: `${session.bin} webhooks list`,
      before: async () => (await sameUrl()).map((s) => s.id),
      reconcile: async (before: string[] | undefined) => {
        const found = (await sameUrl()).find((s) => !(before ?? []).includes(s.id) && [...(s.events ?? [])].sort().join() === [...body.events].sort().join())
        return found ? { found, note: `subscription ${found.id} of ${body.url} exists` } : 'absent'
      },
      send: () => client.webhooks.create(envelope as never),
      resultId: (s) => s.id,
    })
    return made.id
  },
}

const payoutsRequest: RowKind<{ body: Record<string, unknown>; repeatWindow: string | undefined }> = {
  build(f) {
    const body = payoutBody({ amount: text(f, 'amount'), currency: text(f, 'currency'), description: text(f, 'description') })
    return { request: { body, repeatWindow: text(f, 'repeat-window') }, money: moneyOf(body) }
  },
  async send(session, client, request, ctx) {
    const merchantId = ctx.settings.context.merchantId
    const payout = await payoutOperation(session, client, request.body, () => checkPayoutPossible(client, merchantId, request.body), {
      repeatWindow: request.repeatWindow,
      merchantId,
    })
    return typeof payout.payoutId === 'string' ? payout.payoutId : undefined
  },
}

/** The row kinds by command id. */
export const ROW_KINDS: Record<string, RowKind<never>> = {
  'transactions:refund': refund as RowKind<never>,
  'orders:create': ordersCreate as RowKind<never>,
  'customers:upsert': customersUpsert as RowKind<never>,
  'webhooks:create': webhooksCreate as RowKind<never>,
  'payouts:request': payoutsRequest as RowKind<never>,
}
