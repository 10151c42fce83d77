// Simulated outside events of the money side, added to POST /simulation (simulation.ts spreads
// this table into its own):
//   OpenDispute {transactionId, amount?, reason?}      a customer disputes a payment (chargeback)
//   ResolveDispute {disputeId, outcome: Won|Lost}       the scheme decides
//   SettlePayout {payoutId}                             the bank confirms a payout: Pending → Paid
//   RunScheduledPayouts {merchantId?}                   the automatic payout run
//   SetMerchantManualPayouts {merchantId, enabled}      the service turns manual payouts on or off
//   RaiseBlockedCardEvent {paymentSourceId, reason?}    an issuer blocks a saved card
import { z } from 'zod'
import type { BlockedCardRecord } from '../store.js'
import { conflict, unprocessable } from '../api-error.js'
import { visibleMerchantIds, visibleOr404 } from '../auth.js'
import { timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { action, type ActionSpec, type HandlerContext } from '../route.js'
import { lookup, type MerchantRecord } from '../store.js'
import { merchantBalances } from './merchant-balances.js'
import { merchantView, visibleMerchant } from './merchants.js'
import { disputeView, openDispute, resolveDispute } from './disputes.js'
import { createPayout, payoutView, settlePayout, visiblePayout } from './payouts.js'
import { blockedCardView } from './sources.js'
import { visibleTransaction } from './transaction-details.js'

function scheduledPayouts(ctx: HandlerContext, merchant: MerchantRecord) {
  if (!merchant.bankAccounts.length) return []
  return merchantBalances(ctx.store, merchant, ctx.clock.now())
    .filter((b) => b.available.minorCurrencyUnits > 0)
    .map((b) => createPayout(ctx, merchant, { payoutType: 'Scheduled', currency: b.currency, description: 'Scheduled payout' }))
}

export const simulationMoneyActions: Record<string, ActionSpec> = {
  OpenDispute: action(
    z.strictObject({ transactionId: z.string().min(1), amount: z.number().int().positive().optional(), reason: z.string().trim().min(1).max(200).optional() }),
    (ctx, body) => {
      const txn = visibleTransaction(ctx, body.transactionId)
      return disputeView(
        openDispute(ctx, txn, { ...(body.amount !== undefined ? { amount: body.amount } : {}), ...(body.reason !== undefined ? { reason: body.reason } : {}) }),
      )
    },
  ),

  ResolveDispute: action(z.strictObject({ disputeId: z.string().min(1), outcome: z.enum(['Won', 'Lost']) }), (ctx, body) => {
    const dispute = visibleOr404(ctx, ctx.store.disputes, body.disputeId, 'Dispute')
    return disputeView(resolveDispute(ctx, dispute, body.outcome))
  }),

  SettlePayout: action(z.strictObject({ payoutId: z.string().min(1) }), (ctx, body) =>
    payoutView(ctx.store, settlePayout(ctx, visiblePayout(ctx, body.payoutId))),
  ),

  /**
   * Pays out the whole available balance (per currency) of every merchant of the scope that has
   * manual payouts disabled, or of the one merchant named (whatever its setting).
   */
  RunScheduledPayouts: action(z.strictObject({ merchantId: z.string().min(1).optional() }), (ctx, body) => {
    const merchants =
      body.merchantId !== undefined
        ? [visibleMerchant(ctx, body.merchantId)]
        : [...visibleMerchantIds(ctx.store, ctx.scope)]
            .map((id) => lookup(ctx.store.merchants, id))
            .filter((m): m is MerchantRecord => m !== undefined && !m.manualPayoutsEnabled)
    return { payouts: merchants.flatMap((m) => scheduledPayouts(ctx, m)).map((p) => payoutView(ctx.store, p)) }
  }),

  SetMerchantManualPayouts: action(z.strictObject({ merchantId: z.string().min(1), enabled: z.boolean() }), (ctx, body) => {
    const merchant = visibleMerchant(ctx, body.merchantId)
    merchant.manualPayoutsEnabled = body.enabled
    merchant.updatedAt = timestamp(ctx.clock.now())
    return merchantView(ctx.store, merchant)
  }),

  RaiseBlockedCardEvent: action(z.strictObject({ paymentSourceId: z.string().min(1), reason: z.string().trim().min(1).max(200).optional() }), (ctx, body) => {
    const source = visibleOr404(ctx, ctx.store.sources, body.paymentSourceId, 'Payment source')
    if (source.card === null) throw unprocessable('not_a_card', 'Only a saved card can be blocked')
    const blocked = ctx.store.blockedCards.byIndex('paymentSourceId', source.paymentSourceId, 'creation').find((b) => b.status === 'Blocked')
    if (blocked) throw conflict('card_already_blocked', `The card is already blocked (${blocked.cardBlockId})`)
    const now = timestamp(ctx.clock.now())
    const record: BlockedCardRecord = {
      cardBlockId: ctx.ids.next('cblk'),
      merchantId: source.merchantId,
      customerId: source.customerId,
      paymentSourceId: source.paymentSourceId,
      cardHint: `${source.card.brand} ending ${source.card.last4}`,
      reason: body.reason ?? 'Reported lost',
      status: 'Blocked',
      createdAt: now,
      updatedAt: now,
    }
    ctx.store.blockedCards.set(record.cardBlockId, record)
    emitEvent(ctx, 'CardBlocked', record.merchantId, { blockedCard: blockedCardView(record) })
    return blockedCardView(record)
  }),
}
