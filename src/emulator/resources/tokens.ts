// Payment tokens: single-use references to a source of funds, bound to an amount, a currency and
// a merchant (and to a customer when made from a customer's saved source or by a signed-in
// customer). A token does not expire (the contract gives it no lifetime) unless the emulator runs
// with a token lifetime (`paymentTokenLifetimeSeconds`, emulator time). Using one is `claimToken`
// in orders-pay.ts.
import { z } from 'zod'
import { isKnownCurrency } from '../../client/money.js'
import type { CreatePayToToken, CreateSavedPaymentSourceToken } from '../../client/schemas/tokens.js'
import { Money } from '../../client/schemas/common.js'
import { conflict, forbidden, notFound, unprocessable } from '../api-error.js'
import { ANY_CREDENTIAL, mayActForMerchant, requireMerchant, visibleOr404 } from '../auth.js'
import { addSeconds, timestamp } from '../clock.js'
import { surchargeFor } from '../fees.js'
import { action, route, type HandlerContext } from '../route.js'
import { getOr404, lookup, type CardDetails, type MerchantRecord, type TokenRecord } from '../store.js'
import { agreementStatus, visibleAgreement } from './payto.js'

/** When a token made now expires: never, unless the emulator was given a token lifetime. */
export function tokenExpiry(ctx: HandlerContext, now: Date): string | null {
  const seconds = ctx.rules?.paymentTokenLifetimeSeconds ?? null
  return seconds === null ? null : timestamp(addSeconds(now, seconds))
}

export type TokenStatus = 'Unused' | 'Used' | 'Expired'

export function tokenStatus(token: TokenRecord, now: Date): TokenStatus {
  if (token.usedAt !== null) return 'Used'
  return token.expiresAt !== null && token.expiresAt <= timestamp(now) ? 'Expired' : 'Unused'
}

/** `GET /tokens/{id}`: the record real integrations read, and the emulator's status fields. */
export function tokenView(token: TokenRecord, now: Date) {
  return {
    paymentTokenId: token.paymentTokenId,
    paymentSourceId: token.paymentSourceId,
    amount: token.amount,
    surchargeAmount: token.surchargeAmount,
    payType: token.payType,
    method: token.method,
    payPlanVariant: token.payPlanVariant,
    merchantId: token.merchantId,
    customerId: token.customerId,
    accountIdentifierHint: token.accountIdentifierHint,
    status: tokenStatus(token, now),
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
  }
}

function checkAmount(amount: { minorCurrencyUnits: number; currency: string }): void {
  if (amount.minorCurrencyUnits <= 0) throw unprocessable('invalid_amount', 'The amount must be greater than zero')
  if (!isKnownCurrency(amount.currency)) throw unprocessable('unsupported_currency', `Unknown currency ${amount.currency}`)
}

function newToken(
  ctx: HandlerContext,
  merchant: MerchantRecord,
  fields: Omit<
    TokenRecord,
    'paymentTokenId' | 'merchantId' | 'createdAt' | 'expiresAt' | 'usedAt' | 'usedByOrderId' | 'payType' | 'payPlanVariant' | 'surchargeAmount'
  >,
): TokenRecord {
  const now = ctx.clock.now()
  const token: TokenRecord = {
    paymentTokenId: ctx.ids.next('ptkn'),
    merchantId: merchant.merchantId,
    payType: 'payinfull',
    payPlanVariant: null,
    surchargeAmount: surchargeFor(fields.method, fields.amount.minorCurrencyUnits),
    createdAt: timestamp(now),
    expiresAt: tokenExpiry(ctx, now),
    usedAt: null,
    usedByOrderId: null,
    ...fields,
  }
  ctx.store.tokens.set(token.paymentTokenId, token)
  return token
}

export function createPayToToken(ctx: HandlerContext, body: CreatePayToToken) {
  const merchant = requireMerchant(ctx.store, ctx.scope)
  checkAmount(body.amount)
  const agreement = visibleAgreement(ctx, body.agreementToken)
  if (agreement.merchantId !== merchant.merchantId) throw notFound('PayTo agreement', body.agreementToken)
  const status = agreementStatus(agreement, ctx.clock.now())
  if (status !== 'Active') {
    throw conflict('agreement_not_active', `The PayTo agreement is ${status}; only an Active agreement can make payment tokens`)
  }
  if (body.amount.currency !== 'AUD') throw unprocessable('unsupported_currency', `PayTo payments are in AUD; got ${body.amount.currency}`)
  if (agreement.agreementType === 'OneOff') {
    if (agreement.usedAt !== null) throw conflict('agreement_used', 'This one-off PayTo agreement has already made its payment')
    const fixed = agreement.amount as { minorCurrencyUnits: number; currency: string }
    if (fixed.minorCurrencyUnits !== body.amount.minorCurrencyUnits || fixed.currency !== body.amount.currency) {
      throw unprocessable(
        'amount_mismatch',
        `A one-off agreement pays exactly its amount: ${fixed.minorCurrencyUnits} ${fixed.currency}, not ${body.amount.minorCurrencyUnits} ${body.amount.currency}`,
      )
    }
  }
  const token = newToken(ctx, merchant, {
    kind: 'PayToToken',
    customerId: ctx.scope.customerId,
    paymentSourceId: null,
    method: 'PayTo',
    amount: { ...body.amount },
    agreementToken: agreement.token,
    agreementUid: agreement.agreementUid,
    accountIdentifierHint: agreement.accountIdentifierHint,
  })
  return {
    PayToToken: {
      paymentTokenId: token.paymentTokenId,
      amount: token.amount,
      surchargeAmount: token.surchargeAmount,
      agreementUid: agreement.agreementUid,
      accountIdentifierHint: token.accountIdentifierHint,
    },
  }
}

function createSourceToken(ctx: HandlerContext, body: CreateSavedPaymentSourceToken, cardOnly: boolean) {
  if (ctx.principal.kind === 'public') {
    throw forbidden('customer_source_forbidden', 'A merchant public key cannot use a customer-specific payment source')
  }
  const merchant = requireMerchant(ctx.store, ctx.scope)
  checkAmount(body.amount)
  const source = visibleOr404(ctx, ctx.store.sources, body.paymentSourceId, 'Payment source')
  if (ctx.scope.customerId !== null && source.customerId !== ctx.scope.customerId) {
    throw forbidden('customer_source_forbidden', 'The payment source belongs to another customer; a customer can make tokens only for themselves')
  }
  if (source.merchantId !== merchant.merchantId) throw notFound('Payment source', body.paymentSourceId)
  if (cardOnly && source.card === null) throw unprocessable('payment_method_mismatch', 'CardPaymentSourceId needs a saved card source')
  let agreementUid: string | null = null
  let hint: string
  if (source.card !== null) {
    hint = `${source.card.brand} ending ${source.card.last4}`
  } else {
    const agreement = getOr404(ctx.store.agreements, source.agreementToken as string, 'PayTo agreement')
    const status = agreementStatus(agreement, ctx.clock.now())
    if (status !== 'Active') throw conflict('agreement_not_active', `The PayTo agreement behind this source is ${status}`)
    if (body.amount.currency !== 'AUD') throw unprocessable('unsupported_currency', `PayTo payments are in AUD; got ${body.amount.currency}`)
    agreementUid = agreement.agreementUid
    hint = agreement.accountIdentifierHint
  }
  const token = newToken(ctx, merchant, {
    kind: 'SavedPaymentSourceToken',
    customerId: source.customerId,
    paymentSourceId: source.paymentSourceId,
    method: source.card !== null ? 'Card' : 'PayTo',
    amount: { ...body.amount },
    agreementToken: source.agreementToken,
    agreementUid,
    accountIdentifierHint: hint,
  })
  return {
    SavedPaymentSourceToken: {
      paymentTokenId: token.paymentTokenId,
      paymentSourceId: source.paymentSourceId,
      amount: token.amount,
      surchargeAmount: token.surchargeAmount,
      payType: token.payType,
      method: token.method,
      accountIdentifierHint: hint,
    },
  }
}

/**
 * A single-use card token for a card typed into the emulator's checkout page (pages/checkout.ts):
 * the card is not saved as a source; the token carries what paying with it does.
 */
export function createCheckoutCardToken(
  ctx: HandlerContext,
  order: { amount: { minorCurrencyUnits: number; currency: string }; customerId: string | null },
  card: CardDetails,
): TokenRecord {
  const merchant = requireMerchant(ctx.store, ctx.scope)
  checkAmount(order.amount)
  return newToken(ctx, merchant, {
    kind: 'CheckoutCardToken',
    customerId: order.customerId,
    paymentSourceId: null,
    method: 'Card',
    amount: { ...order.amount },
    agreementToken: null,
    agreementUid: null,
    accountIdentifierHint: `${card.brand} ending ${card.last4}`,
    card,
  })
}

/** The emulator's fields for `CardPaymentSourceId` (the contract names the variant only). */
const CardPaymentSourceIdBody = z.strictObject({ paymentSourceId: z.string().min(1), amount: Money })

/** The emulator's fields for a surcharge quote. */
const SurchargeQuoteBody = z.strictObject({
  amount: Money,
  paymentMethodType: z.enum(['PayTo', 'Card']),
})

export const routes = [
  route({
    method: 'POST',
    path: '/tokens',
    allow: ANY_CREDENTIAL,
    actions: {
      CreatePayToToken: action<CreatePayToToken>((ctx, body) => createPayToToken(ctx, body)),
      CreateSavedPaymentSourceToken: action<CreateSavedPaymentSourceToken>((ctx, body) => createSourceToken(ctx, body, false)),
      CardPaymentSourceId: action(CardPaymentSourceIdBody, (ctx, body) => createSourceToken(ctx, body, true)),
      CreateApplePayToken: action(() => {
        throw unprocessable('wallet_not_supported', 'Apple Pay tokens come from a device wallet; the emulator has none. Use a saved card source instead')
      }),
    },
  }),
  route({
    method: 'GET',
    path: '/tokens/{paymentTokenId}',
    allow: ANY_CREDENTIAL,
    handle: (ctx, req) => {
      const id = req.params.paymentTokenId as string
      const token = lookup(ctx.store.tokens, id)
      const visible =
        token !== undefined &&
        mayActForMerchant(ctx.store, ctx.scope, token.merchantId) &&
        (ctx.principal.kind !== 'customer' || token.customerId === ctx.principal.customerId)
      if (!visible || !token) throw notFound('Payment token', id)
      return tokenView(token, ctx.clock.now())
    },
  }),
  route({
    method: 'POST',
    path: '/tokens/{merchantId}/surchargequote',
    allow: ANY_CREDENTIAL,
    body: SurchargeQuoteBody,
    handle: (ctx, req) => {
      const merchantId = req.params.merchantId as string
      const merchant = lookup(ctx.store.merchants, merchantId)
      if (!merchant) throw notFound('Merchant', merchantId)
      if (!mayActForMerchant(ctx.store, ctx.scope, merchantId)) {
        throw forbidden('context_forbidden', `This credential may not act for merchant ${merchantId}`)
      }
      checkAmount(req.body.amount)
      const surchargeAmount = surchargeFor(req.body.paymentMethodType, req.body.amount.minorCurrencyUnits)
      return {
        merchantId,
        paymentMethodType: req.body.paymentMethodType,
        amount: req.body.amount,
        surchargeAmount,
        totalAmount: { minorCurrencyUnits: req.body.amount.minorCurrencyUnits + surchargeAmount, currency: req.body.amount.currency },
      }
    },
  }),
]
