// Digital card issuing (store.digitalCards): virtual cards a merchant hands to its staff,
// typically drawing on its trade-account loan. `POST /issuer/card` administers cards with a
// single-key envelope (the emulator's own actions):
//   IssueDigitalCard {cardholderName, limit, loanId?}     → a new Active card
//   UpdateDigitalCardLimit {cardId, limit}
//   SuspendDigitalCard {cardId}     Active → Suspended
//   ResumeDigitalCard {cardId}      Suspended → Active
//   CancelDigitalCard {cardId}      Active | Suspended → Cancelled (final)
// Cards on a loan: their limits together stay within the loan's credit limit, in its currency.
// The card number is never shown: only `maskedPan` (`**** **** **** 1234`), brand and expiry.
import { createHash } from 'node:crypto'
import { z } from 'zod'
import { isKnownCurrency } from '../../client/money.js'
import { Money } from '../../client/schemas/common.js'
import type { DigitalCardRecord } from '../account-records.js'
import { conflict, notFound, unprocessable } from '../api-error.js'
import { PRIVATE, requireMerchant, visibleMerchantIds, visibleOr404 } from '../auth.js'
import { timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { action, route, type HandlerContext } from '../route.js'
import { lookup } from '../store.js'
import { loanCardLimits } from './loan-figures.js'

/** Years a new card is valid for. */
export const CARD_VALIDITY_YEARS = 3

export function cardView(card: DigitalCardRecord) {
  return {
    cardId: card.cardId,
    merchantId: card.merchantId,
    loanId: card.loanId,
    cardholderName: card.cardholderName,
    brand: card.brand,
    maskedPan: `**** **** **** ${card.last4}`,
    last4: card.last4,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    limit: card.limit,
    status: card.status,
    createdAt: card.createdAt,
    updatedAt: card.updatedAt,
  }
}

function visibleCard(ctx: HandlerContext, id: string): DigitalCardRecord {
  return visibleOr404(ctx, ctx.store.digitalCards, id, 'Digital card')
}

/** Refuses a limit that is not positive, in an unknown currency, or beyond what the card's loan allows. */
function checkLimit(ctx: HandlerContext, loanId: string | null, limit: { minorCurrencyUnits: number; currency: string }, exceptCardId?: string): void {
  if (limit.minorCurrencyUnits <= 0) throw unprocessable('invalid_amount', 'The card limit must be greater than zero')
  if (!isKnownCurrency(limit.currency)) throw unprocessable('unsupported_currency', `Unknown currency ${limit.currency}`)
  if (loanId === null) return
  const loan = lookup(ctx.store.loans, loanId)
  if (!loan) throw notFound('Loan', loanId)
  if (loan.status !== 'Active') throw conflict('loan_not_active', `Loan ${loanId} is ${loan.status}`)
  if (limit.currency !== loan.creditLimit.currency) {
    throw unprocessable('currency_mismatch', `The loan is in ${loan.creditLimit.currency}; the card limit is in ${limit.currency}`)
  }
  const used = loanCardLimits(ctx.store, loanId, exceptCardId)
  if (used + limit.minorCurrencyUnits > loan.creditLimit.minorCurrencyUnits) {
    throw unprocessable(
      'card_limit_exceeds_loan',
      `The cards on loan ${loanId} would have limits of ${used + limit.minorCurrencyUnits} together; the loan's credit limit is ${loan.creditLimit.minorCurrencyUnits}`,
    )
  }
}

const IssueBody = z.strictObject({
  cardholderName: z.string().trim().min(1).max(26),
  limit: Money,
  loanId: z.string().min(1).optional(),
})
const CardIdBody = z.strictObject({ cardId: z.string().min(1) })
const LimitBody = z.strictObject({ cardId: z.string().min(1), limit: Money })

function issue(ctx: HandlerContext, body: z.output<typeof IssueBody>) {
  const merchant = requireMerchant(ctx.store, ctx.scope)
  const loanId = body.loanId ?? null
  if (loanId !== null) {
    const loan = lookup(ctx.store.loans, loanId)
    if (!loan || loan.merchantId !== merchant.merchantId) throw notFound('Loan', loanId)
  }
  checkLimit(ctx, loanId, body.limit)
  const now = ctx.clock.now()
  const cardId = ctx.ids.next('card')
  const digits = createHash('sha256').update(cardId).digest().readUInt32BE(0) % 10_000
  const card: DigitalCardRecord = {
    cardId,
    merchantId: merchant.merchantId,
    loanId,
    cardholderName: body.cardholderName,
    brand: 'Visa',
    last4: String(digits).padStart(4, '0'),
    expiryMonth: now.getUTCMonth() + 1,
    expiryYear: now.getUTCFullYear() + CARD_VALIDITY_YEARS,
    limit: { ...body.limit },
    status: 'Active',
    createdAt: timestamp(now),
    updatedAt: timestamp(now),
  }
  ctx.store.digitalCards.set(cardId, card)
  emitEvent(ctx, 'DigitalCardIssued', card.merchantId, { card: cardView(card) })
  return cardView(card)
}

function change(ctx: HandlerContext, card: DigitalCardRecord, what: string, apply: () => void) {
  apply()
  card.updatedAt = timestamp(ctx.clock.now())
  emitEvent(ctx, 'DigitalCardUpdated', card.merchantId, { change: what, card: cardView(card) })
  return cardView(card)
}

function setStatus(ctx: HandlerContext, cardId: string, from: ReadonlyArray<DigitalCardRecord['status']>, to: DigitalCardRecord['status'], what: string) {
  const card = visibleCard(ctx, cardId)
  if (!from.includes(card.status)) throw conflict('card_status_conflict', `A ${card.status} card cannot be made ${to}`)
  return change(ctx, card, what, () => {
    card.status = to
  })
}

export const routes = [
  route({
    method: 'POST',
    path: '/issuer/card',
    allow: PRIVATE,
    actions: {
      IssueDigitalCard: action(IssueBody, issue),
      UpdateDigitalCardLimit: action(LimitBody, (ctx, body) => {
        const card = visibleCard(ctx, body.cardId)
        if (card.status === 'Cancelled') throw conflict('card_status_conflict', 'A Cancelled card cannot be changed')
        checkLimit(ctx, card.loanId, body.limit, card.cardId)
        return change(ctx, card, 'UpdateDigitalCardLimit', () => {
          card.limit = { ...body.limit }
        })
      }),
      SuspendDigitalCard: action(CardIdBody, (ctx, body) => setStatus(ctx, body.cardId, ['Active'], 'Suspended', 'SuspendDigitalCard')),
      ResumeDigitalCard: action(CardIdBody, (ctx, body) => setStatus(ctx, body.cardId, ['Suspended'], 'Active', 'ResumeDigitalCard')),
      CancelDigitalCard: action(CardIdBody, (ctx, body) => setStatus(ctx, body.cardId, ['Active', 'Suspended'], 'Cancelled', 'CancelDigitalCard')),
    },
  }),
  route({
    method: 'GET',
    path: '/issuer/card',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const cardIds = f.list('cardId')
      const loanIds = f.list('loanId')
      const merchantIds = f.list('merchantId')
      const statuses = f.list('status')
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.digitalCards.select({
        ids: cardIds,
        where: { merchantId: merchantsWithin(visible, merchantIds), loanId: loanIds },
        after,
        before,
        filter: statuses === undefined ? undefined : (c) => oneOf(statuses, c.status),
        filterKey: JSON.stringify(statuses),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (c) => c.createdAt, status: (c) => c.status, cardholderName: (c) => c.cardholderName },
        view: cardView,
      })
    },
  }),
]
