// Pay plans: a loan to the customer, repaid in instalments, while the merchant is paid in full.
//
//   POST /payplans/offer       an offer for a KYC'd customer, valid OFFER_TTL_SECONDS (emulator time)
//   POST /payplans             {offerId}: the pay plan and a payment token (payType `payplan`)
//   POST /orders/{id}/pay      PayByPaymentToken with that token pays an order of the same amount
//                              and merchant (orders-pay.ts); the transaction's payType is PayPlan
//   GET  /payplans[/{id}]      the plans; POST /payplans/max and /payplans/parameters
//
// The customer: a customer token fixes it; other callers name it with `Customer-Id` (the offer
// also takes `customerId` in its body). Pay plan status is computed from its token and the clock:
// Pending (token not used yet), Cancelled (token expired unused), Active (the order was paid),
// Completed (every instalment is due, and so paid: the emulator's customers always pay on time).
import { z } from 'zod'
import type { PayPlanOfferRequest } from '../../client/schemas/payplans.js'
import { Money as MoneyInput } from '../../client/schemas/common.js'
import type { Money } from '../../client/money.js'
import type { Instalment, PayPlanOfferRecord, PayPlanRecord } from '../account-records.js'
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../api-error.js'
import { ANY_CREDENTIAL, PRIVATE_OR_CUSTOMER, mayActForMerchant, visibleMerchantIds, visibleOr404 } from '../auth.js'
import { addSeconds, isoDate, timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { customersWithin, filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { route, type HandlerContext } from '../route.js'
import { lookup, type CustomerRecord, type Store, type TokenRecord } from '../store.js'
import { visibleCustomer } from './customers.js'
import { tokenExpiry, tokenStatus } from './tokens.js'
import { PAYPLAN_VARIANTS, schedule, variantSpec, type VariantSpec } from './payplan-schedule.js'

export { PAYPLAN_VARIANTS, schedule } from './payplan-schedule.js'

/** An offer is good for 10 minutes (contract). */
export const OFFER_TTL_SECONDS = 10 * 60
/** What one customer may owe on pay plans at once (the emulator's own rule). */
export const PAYPLAN_CUSTOMER_LIMIT: Money = { minorCurrencyUnits: 200_000, currency: 'AUD' }
export const PAYPLAN_CURRENCY = 'AUD'

// State ---------------------------------------------------------------------------------------

export type PayPlanStatus = 'Pending' | 'Cancelled' | 'Active' | 'Completed'

export function payPlanState(store: Store, plan: PayPlanRecord, now: Date): { status: PayPlanStatus; orderId: string | null; transactionId: string | null } {
  const token = lookup(store.tokens, plan.paymentTokenId)
  if (!token || token.usedAt === null) {
    return { status: token && tokenStatus(token, now) === 'Unused' ? 'Pending' : 'Cancelled', orderId: null, transactionId: null }
  }
  const order = token.usedByOrderId === null ? undefined : lookup(store.orders, token.usedByOrderId)
  const today = isoDate(now)
  const done = plan.instalments.every((i) => i.dueOn <= today)
  return { status: done ? 'Completed' : 'Active', orderId: order?.orderId ?? null, transactionId: order?.transactionId ?? null }
}

function instalmentViews(plan: { instalments: Instalment[] }, paidUpTo: string | null) {
  return plan.instalments.map((i) => ({ ...i, status: paidUpTo !== null && i.dueOn <= paidUpTo ? 'Paid' : 'Scheduled' }))
}

/** What the customer still owes on a plan (unpaid instalments; nothing on a cancelled plan). */
function owedOn(store: Store, plan: PayPlanRecord, now: Date): number {
  const { status } = payPlanState(store, plan, now)
  if (status === 'Cancelled' || status === 'Completed') return 0
  const today = isoDate(now)
  return plan.instalments
    .filter((i) => i.kind === 'Instalment' && (status === 'Pending' || i.dueOn > today))
    .reduce((s, i) => s + i.amount.minorCurrencyUnits, 0)
}

export function outstandingFor(store: Store, customerId: string, now: Date): number {
  return store.payPlans.byIndex('customerId', customerId).reduce((s, p) => s + owedOn(store, p, now), 0)
}

function isVerified(customer: CustomerRecord): boolean {
  return customer.kycStatus === 'Verified' || customer.isVerified
}

function eligibility(store: Store, customer: CustomerRecord, now: Date) {
  const outstanding = outstandingFor(store, customer.customerId, now)
  const verified = isVerified(customer)
  const max = verified ? Math.max(0, PAYPLAN_CUSTOMER_LIMIT.minorCurrencyUnits - outstanding) : 0
  return {
    customerId: customer.customerId,
    eligible: max > 0,
    maxAmount: { minorCurrencyUnits: max, currency: PAYPLAN_CURRENCY },
    limit: { ...PAYPLAN_CUSTOMER_LIMIT },
    outstanding: { minorCurrencyUnits: outstanding, currency: PAYPLAN_CURRENCY },
    reason: !verified ? 'customer_not_verified' : max === 0 ? 'limit_reached' : null,
    payPlanVariants: [...PAYPLAN_VARIANTS],
  }
}

function checkFinanced(store: Store, customer: CustomerRecord, financed: number, now: Date): void {
  if (!isVerified(customer)) {
    throw unprocessable(
      'customer_not_verified',
      'Pay plans are offered to customers who passed the KYC check (POST /customers/kyc) or are upserted with isVerified: true',
    )
  }
  const { maxAmount } = eligibility(store, customer, now)
  if (financed > maxAmount.minorCurrencyUnits) {
    throw unprocessable(
      'pay_plan_limit_exceeded',
      `The customer can borrow at most ${maxAmount.minorCurrencyUnits} ${PAYPLAN_CURRENCY} more; this plan needs ${financed}`,
    )
  }
}

/**
 * The customer of a pay plan request: the signed-in customer, else `Customer-Id` (or, for the
 * offer, `customerId` in the body). 400 when none is given, 403 when a signed-in customer names
 * another, 404 when the caller may not see the customer.
 */
function payPlanCustomer(ctx: HandlerContext, bodyCustomerId: string | undefined): CustomerRecord {
  if (ctx.principal.kind === 'customer') {
    if (bodyCustomerId !== undefined && bodyCustomerId !== ctx.principal.customerId) {
      throw forbidden('context_forbidden', 'A signed-in customer may ask for pay plans only for themselves')
    }
    return visibleCustomer(ctx, ctx.principal.customerId)
  }
  const headerId = ctx.scope.customerId
  if (headerId !== null && bodyCustomerId !== undefined && headerId !== bodyCustomerId) {
    throw badRequest('customer_mismatch', `The Customer-Id header (${headerId}) and "customerId" (${bodyCustomerId}) name different customers`)
  }
  const id = headerId ?? bodyCustomerId
  if (id === undefined) {
    throw badRequest('customer_required', 'Pay plans are for one customer: send the Customer-Id header (or use the customer’s token)')
  }
  return visibleCustomer(ctx, id)
}

// Views ---------------------------------------------------------------------------------------

export function offerView(offer: PayPlanOfferRecord, now: Date) {
  const status = offer.payPlanId !== null ? 'Accepted' : offer.expiresAt <= timestamp(now) ? 'Expired' : 'Offered'
  return {
    offerId: offer.offerId,
    merchantId: offer.merchantId,
    customerId: offer.customerId,
    status,
    amount: offer.amount,
    initialPayment: offer.initialPayment,
    financedAmount: { minorCurrencyUnits: offer.amount.minorCurrencyUnits - offer.initialPayment, currency: offer.amount.currency },
    payPlanVariant: offer.payPlanVariant,
    instalments: offer.instalments,
    payPlanId: offer.payPlanId,
    createdAt: offer.createdAt,
    expiresAt: offer.expiresAt,
  }
}

export function payPlanView(store: Store, plan: PayPlanRecord, now: Date) {
  const state = payPlanState(store, plan, now)
  const active = state.status === 'Active' || state.status === 'Completed'
  const instalments = instalmentViews(plan, active ? isoDate(now) : null)
  const paid = instalments.filter((i) => i.status === 'Paid').reduce((s, i) => s + i.amount.minorCurrencyUnits, 0)
  const c = plan.amount.currency
  return {
    payPlanId: plan.payPlanId,
    offerId: plan.offerId,
    merchantId: plan.merchantId,
    customerId: plan.customerId,
    status: state.status,
    amount: plan.amount,
    initialPayment: plan.initialPayment,
    financedAmount: { minorCurrencyUnits: plan.amount.minorCurrencyUnits - plan.initialPayment, currency: c },
    payPlanVariant: plan.payPlanVariant,
    instalments,
    paidAmount: { minorCurrencyUnits: paid, currency: c },
    outstandingAmount: { minorCurrencyUnits: state.status === 'Cancelled' ? 0 : plan.amount.minorCurrencyUnits - paid, currency: c },
    paymentTokenId: plan.paymentTokenId,
    orderId: state.orderId,
    transactionId: state.transactionId,
    createdAt: plan.createdAt,
  }
}

function visiblePayPlan(ctx: HandlerContext, id: string): PayPlanRecord {
  const plan = lookup(ctx.store.payPlans, id)
  const visible =
    plan !== undefined &&
    mayActForMerchant(ctx.store, ctx.scope, plan.merchantId) &&
    (ctx.principal.kind !== 'customer' || plan.customerId === ctx.principal.customerId)
  if (!visible || !plan) throw notFound('Pay plan', id)
  return plan
}

// Handlers ------------------------------------------------------------------------------------

function createOffer(ctx: HandlerContext, body: PayPlanOfferRequest) {
  const customer = payPlanCustomer(ctx, body.customerId)
  if (body.amount.currency !== PAYPLAN_CURRENCY)
    throw unprocessable('unsupported_currency', `Pay plans are in ${PAYPLAN_CURRENCY}; got ${body.amount.currency}`)
  if (body.amount.minorCurrencyUnits <= 0) throw unprocessable('invalid_amount', 'The amount must be greater than zero')
  const now = ctx.clock.now()
  const instalments = schedule(body.payPlanVariant, body.amount, body.initialPayment, now)
  checkFinanced(ctx.store, customer, body.amount.minorCurrencyUnits - body.initialPayment, now)
  const offer: PayPlanOfferRecord = {
    offerId: ctx.ids.next('offer'),
    merchantId: customer.merchantId,
    customerId: customer.customerId,
    amount: { ...body.amount },
    initialPayment: body.initialPayment,
    payPlanVariant: body.payPlanVariant,
    instalments,
    createdAt: timestamp(now),
    expiresAt: timestamp(addSeconds(now, OFFER_TTL_SECONDS)),
    payPlanId: null,
  }
  ctx.store.payPlanOffers.set(offer.offerId, offer)
  return offerView(offer, now)
}

const CreatePayPlanBody = z.strictObject({ offerId: z.string().min(1) })

function createPayPlan(ctx: HandlerContext, body: z.output<typeof CreatePayPlanBody>) {
  const customer = payPlanCustomer(ctx, undefined)
  const offer = visibleOr404(ctx, ctx.store.payPlanOffers, body.offerId, 'Pay plan offer')
  if (offer.customerId !== customer.customerId) {
    throw forbidden('offer_customer_mismatch', `The offer was made for another customer than ${customer.customerId}`)
  }
  const now = ctx.clock.now()
  if (offer.payPlanId !== null) throw conflict('offer_already_used', `A pay plan (${offer.payPlanId}) was already made from this offer`)
  if (offer.expiresAt <= timestamp(now)) {
    throw conflict('offer_expired', `The offer expired at ${offer.expiresAt} (offers are valid for 10 minutes); request a new offer`)
  }
  checkFinanced(ctx.store, customer, offer.amount.minorCurrencyUnits - offer.initialPayment, now)
  const payPlanId = ctx.ids.next('pp')
  const token: TokenRecord = {
    paymentTokenId: ctx.ids.next('ptkn'),
    kind: 'PayPlanToken',
    merchantId: offer.merchantId,
    customerId: offer.customerId,
    paymentSourceId: null,
    method: 'PayPlan',
    amount: { ...offer.amount },
    surchargeAmount: 0,
    payType: 'payplan',
    payPlanVariant: offer.payPlanVariant,
    agreementToken: null,
    agreementUid: null,
    accountIdentifierHint: `Pay plan ${payPlanId}`,
    createdAt: timestamp(now),
    expiresAt: tokenExpiry(ctx, now),
    usedAt: null,
    usedByOrderId: null,
  }
  ctx.store.tokens.set(token.paymentTokenId, token)
  const plan: PayPlanRecord = {
    payPlanId,
    offerId: offer.offerId,
    merchantId: offer.merchantId,
    customerId: offer.customerId,
    amount: { ...offer.amount },
    initialPayment: offer.initialPayment,
    payPlanVariant: offer.payPlanVariant,
    instalments: offer.instalments.map((i) => ({ ...i, amount: { ...i.amount } })),
    paymentTokenId: token.paymentTokenId,
    createdAt: timestamp(now),
  }
  ctx.store.payPlans.set(payPlanId, plan)
  offer.payPlanId = payPlanId
  const view = payPlanView(ctx.store, plan, now)
  emitEvent(ctx, 'PayPlanCreated', plan.merchantId, { payPlan: view })
  return {
    ...view,
    paymentToken: {
      paymentTokenId: token.paymentTokenId,
      amount: token.amount,
      surchargeAmount: token.surchargeAmount,
      payType: token.payType,
      payPlanVariant: token.payPlanVariant,
      expiresAt: token.expiresAt,
    },
  }
}

const PayPlanMaxBody = z.strictObject({ customerId: z.string().min(1).optional() })

const PayPlanParametersBody = z.strictObject({
  amount: MoneyInput,
  initialPayment: z.number().int().nonnegative().optional(),
  /** Default: every variant. */
  payPlanVariants: z.array(z.string().min(1)).min(1).optional(),
})

function parameters(ctx: HandlerContext, body: z.output<typeof PayPlanParametersBody>) {
  if (body.amount.currency !== PAYPLAN_CURRENCY)
    throw unprocessable('unsupported_currency', `Pay plans are in ${PAYPLAN_CURRENCY}; got ${body.amount.currency}`)
  if (body.amount.minorCurrencyUnits <= 0) throw unprocessable('invalid_amount', 'The amount must be greater than zero')
  const now = ctx.clock.now()
  const initialPayment = body.initialPayment ?? 0
  return {
    amount: body.amount,
    initialPayment,
    parameters: (body.payPlanVariants ?? PAYPLAN_VARIANTS).map((variant) => {
      const instalments = schedule(variant, body.amount, initialPayment, now)
      const spec = variantSpec(variant) as VariantSpec
      const regular = instalments.filter((i) => i.kind === 'Instalment')
      return {
        payPlanVariant: variant,
        description: spec.description,
        frequency: spec.frequency,
        instalmentCount: regular.length,
        firstDueOn: regular[0]?.dueOn ?? null,
        lastDueOn: regular[regular.length - 1]?.dueOn ?? null,
        instalments,
        feeAmount: { minorCurrencyUnits: 0, currency: body.amount.currency },
        totalAmount: body.amount,
      }
    }),
  }
}

export const routes = [
  route<PayPlanOfferRequest>({ method: 'POST', path: '/payplans/offer', allow: PRIVATE_OR_CUSTOMER, handle: (ctx, req) => createOffer(ctx, req.body) }),
  route({
    method: 'GET',
    path: '/payplans',
    allow: PRIVATE_OR_CUSTOMER,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const customerIds = f.list('customerId')
      const merchantIds = f.list('merchantId')
      const statuses = f.list('status')
      const variants = f.list('payPlanVariant')
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const now = ctx.clock.now()
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.payPlans.select({
        where: {
          merchantId: merchantsWithin(visible, merchantIds),
          // A signed-in customer sees their own plans only; Customer-Id narrows to that customer's.
          customerId: customersWithin(ctx.scope, customerIds),
        },
        after,
        before,
        filter:
          variants === undefined && statuses === undefined
            ? undefined
            : (p) => oneOf(variants, p.payPlanVariant) && (statuses === undefined || statuses.includes(payPlanState(ctx.store, p, now).status)),
        // A plan's status depends on the time: no key, so never cached.
        filterKey: statuses === undefined ? JSON.stringify(variants) : undefined,
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (p) => p.createdAt, amount: (p) => p.amount.minorCurrencyUnits },
        view: (p) => payPlanView(ctx.store, p, now),
      })
    },
  }),
  route({ method: 'POST', path: '/payplans', allow: PRIVATE_OR_CUSTOMER, body: CreatePayPlanBody, handle: (ctx, req) => createPayPlan(ctx, req.body) }),
  route({
    method: 'GET',
    path: '/payplans/{payPlanId}',
    allow: PRIVATE_OR_CUSTOMER,
    handle: (ctx, req) => payPlanView(ctx.store, visiblePayPlan(ctx, req.params.payPlanId as string), ctx.clock.now()),
  }),
  route({
    method: 'POST',
    path: '/payplans/max',
    allow: PRIVATE_OR_CUSTOMER,
    body: PayPlanMaxBody,
    bodyRequired: false,
    handle: (ctx, req) => eligibility(ctx.store, payPlanCustomer(ctx, req.body?.customerId), ctx.clock.now()),
  }),
  route({ method: 'POST', path: '/payplans/parameters', allow: ANY_CREDENTIAL, body: PayPlanParametersBody, handle: (ctx, req) => parameters(ctx, req.body) }),
]
