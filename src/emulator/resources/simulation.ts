// POST /simulation: sandbox-only events from outside the service, as single-key actions. The
// action table is the place to add more: give each a strict schema and a handler (disputes,
// payouts and blocked cards add theirs here).
import { z } from 'zod'
import { Money } from '../../client/schemas/common.js'
import { isKnownCurrency } from '../../client/money.js'
import { unprocessable } from '../api-error.js'
import { PRIVATE, visibleOr404 } from '../auth.js'
import { timestamp } from '../clock.js'
import { appendLedger } from '../ledger.js'
import { action, route, type ActionSpec } from '../route.js'
import { AGREEMENT_STATUSES, agreementView, overrideAgreementStatus, visibleAgreement } from './payto.js'
import { simulationMoneyActions } from './simulation-money.js'
import { threeDSActions } from './three-ds.js'

/** Longest single clock advance: ten years. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 86_400

export const simulationActions: Record<string, ActionSpec> = {
  /** Moves emulator time forward (agreements activate, tokens and sessions expire, money becomes available). */
  AdvanceClock: action(z.strictObject({ seconds: z.number().positive().max(MAX_ADVANCE_SECONDS) }), (ctx, body) => {
    ctx.clock.advance(body.seconds)
    return { now: timestamp(ctx.clock.now()), advancedBySeconds: body.seconds }
  }),

  /** Sets a PayTo agreement's status from now on, cancelling any scripted change still to come. */
  SetPayToAgreementStatus: action(z.strictObject({ token: z.string().min(1), status: z.enum(AGREEMENT_STATUSES as [string, ...string[]]) }), (ctx, body) => {
    const agreement = visibleAgreement(ctx, body.token)
    overrideAgreementStatus(agreement, body.status as (typeof AGREEMENT_STATUSES)[number], ctx.clock.now())
    return agreementView(agreement, ctx.clock.now())
  }),

  /** Money arriving from the merchant's bank account: a BankTransfer ledger entry (available at once). */
  IncomingBankTransfer: action(z.strictObject({ merchantId: z.string().min(1), amount: Money, description: z.string().min(1).optional() }), (ctx, body) => {
    const merchant = visibleOr404(ctx, ctx.store.merchants, body.merchantId, 'Merchant')
    if (body.amount.minorCurrencyUnits <= 0) throw unprocessable('invalid_amount', 'The amount must be greater than zero')
    if (!isKnownCurrency(body.amount.currency)) throw unprocessable('unsupported_currency', `Unknown currency ${body.amount.currency}`)
    return appendLedger(ctx, {
      merchantId: merchant.merchantId,
      type: 'BankTransfer',
      amount: body.amount,
      description: body.description ?? 'Incoming bank transfer',
      availableOn: timestamp(ctx.clock.now()).slice(0, 10),
    })
  }),

  /** Disputes, payouts, manual-payout setting, blocked cards (simulation-money.ts). */
  ...simulationMoneyActions,

  /** SetThreeDSOutcome: what the customer did on a 3DS challenge page (three-ds.ts). */
  ...threeDSActions,
}

export const routes = [route({ method: 'POST', path: '/simulation', allow: PRIVATE, actions: simulationActions })]
