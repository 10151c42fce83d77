// Payment sources: a customer's saved, reusable sources of funds (an open PayTo agreement, or a
// card), and blocked-card events. A source belongs to a customer: the signed-in customer, or the
// `Customer-Id` header (`Customer-Delegate-User-Id` may name the delegate who saved it); without
// one, a saved PayTo agreement's customer is derived from the agreement (customerForAgreement).
import { z } from 'zod'
import type { CreateSavedPaymentSource } from '../../client/schemas/sources.js'
import { badRequest, conflict, notFound, unprocessable } from '../api-error.js'
import { PRIVATE, PRIVATE_OR_CUSTOMER, mayActForMerchant, visibleMerchantIds, visibleOr404 } from '../auth.js'
import { readCard } from '../cards.js'
import { timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { action, route, type HandlerContext } from '../route.js'
import { getOr404, lookup, type BlockedCardRecord, type CustomerRecord, type SourceRecord } from '../store.js'
import { customerForAgreement } from './customers.js'
import { agreementStatus, visibleAgreement } from './payto.js'

/** The saved source as emitted: exactly the contract's fields. */
export function sourceView(source: SourceRecord) {
  return {
    paymentSourceId: source.paymentSourceId,
    customerId: source.customerId,
    merchantId: source.merchantId,
    sourceMethod: source.sourceMethod,
    usageScope: source.usageScope,
    createdAt: source.createdAt,
    updatedAt: source.updatedAt,
    legacyResp: source.legacyResp,
  }
}

function sourceCustomer(ctx: HandlerContext): CustomerRecord {
  if (ctx.scope.customerId === null) {
    throw badRequest('customer_required', 'A payment source belongs to a customer: send the Customer-Id header (or use a customer token)')
  }
  return getOr404(ctx.store.customers, ctx.scope.customerId, 'Customer')
}

function visibleSource(ctx: HandlerContext, id: string): SourceRecord {
  const source = lookup(ctx.store.sources, id)
  const visible =
    source !== undefined &&
    mayActForMerchant(ctx.store, ctx.scope, source.merchantId) &&
    (ctx.scope.customerId === null || source.customerId === ctx.scope.customerId)
  if (!visible || !source) throw notFound('Payment source', id)
  return source
}

function saveSource(
  ctx: HandlerContext,
  customer: CustomerRecord,
  fields: Pick<SourceRecord, 'sourceMethod' | 'usageScope' | 'agreementToken' | 'card'>,
): SourceRecord {
  const now = timestamp(ctx.clock.now())
  const source: SourceRecord = {
    paymentSourceId: ctx.ids.next('psrc'),
    customerId: customer.customerId,
    merchantId: customer.merchantId,
    customerDelegateId: ctx.scope.customerDelegateId,
    createdAt: now,
    updatedAt: now,
    legacyResp: null,
    ...fields,
  }
  ctx.store.sources.set(source.paymentSourceId, source)
  emitEvent(ctx, 'PaymentSourceCreated', source.merchantId, { paymentSourceId: source.paymentSourceId, source: sourceView(source) })
  return source
}

function createPayToSource(ctx: HandlerContext, body: CreateSavedPaymentSource) {
  const agreement = visibleAgreement(ctx, body.sourceMethod.PayToMethod.agreementToken)
  const given = ctx.scope.customerId === null ? undefined : sourceCustomer(ctx)
  if (given && agreement.merchantId !== given.merchantId) throw notFound('PayTo agreement', agreement.token)
  if (agreement.agreementType !== 'Open') {
    throw unprocessable(
      'agreement_not_open',
      'Only an open PayTo agreement can be saved as a payment source; a one-off agreement pays once with CreatePayToToken',
    )
  }
  const status = agreementStatus(agreement, ctx.clock.now())
  if (status !== 'Active') throw conflict('agreement_not_active', `The PayTo agreement is ${status}; only an Active agreement can be saved`)
  if (ctx.store.sources.byIndex('agreementToken', agreement.token).length > 0) {
    throw conflict('agreement_already_saved', 'This PayTo agreement is already saved as a payment source')
  }
  const customer = given ?? customerForAgreement(ctx, agreement)
  const source = saveSource(ctx, customer, {
    sourceMethod: { PayToMethodResp: { agreementUid: agreement.agreementUid, accountIdentifierHint: agreement.accountIdentifierHint } },
    // The contract: a created PayTo source answered `usageScope: null` even when ScopeOrganisation was sent.
    usageScope: null,
    agreementToken: agreement.token,
    card: null,
  })
  return sourceView(source)
}

/** The emulator's fields for saving a card (`CreateCardPaymentSource`; PCI-certified integrators only). */
const CreateCardPaymentSourceBody = z.strictObject({
  cardNumber: z.string().regex(/^[\d ]{12,23}$/, { error: 'expected the card number as digits' }),
  expiryMonth: z.number().int().min(1).max(12),
  expiryYear: z.number().int().min(2000).max(2100),
  cvc: z.string().regex(/^\d{3,4}$/, { error: 'expected 3 or 4 digits' }),
  cardholderName: z.string().min(1).optional(),
  usageScope: z.literal('ScopeOrganisation').optional(),
})

function createCardSource(ctx: HandlerContext, body: z.output<typeof CreateCardPaymentSourceBody>) {
  const customer = sourceCustomer(ctx)
  const card = readCard(body.cardNumber, body.expiryMonth, body.expiryYear, ctx.clock.now())
  const source = saveSource(ctx, customer, {
    sourceMethod: {
      CardMethodResp: {
        brand: card.brand,
        last4: card.last4,
        expiryMonth: card.expiryMonth,
        expiryYear: card.expiryYear,
        cardholderName: body.cardholderName ?? null,
      },
    },
    usageScope: body.usageScope ?? null,
    agreementToken: null,
    card,
  })
  return sourceView(source)
}

// Blocked cards -------------------------------------------------------------------------------

export function blockedCardView(record: BlockedCardRecord) {
  return { ...record }
}

const UnblockCardBody = z.strictObject({ reason: z.string().min(1).optional() })

export const routes = [
  route({
    method: 'POST',
    path: '/sources',
    allow: PRIVATE_OR_CUSTOMER,
    actions: {
      CreateSavedPaymentSource: action<CreateSavedPaymentSource>((ctx, body) => createPayToSource(ctx, body)),
      CreateCardPaymentSource: action(CreateCardPaymentSourceBody, (ctx, body) => createCardSource(ctx, body)),
    },
  }),
  route({
    method: 'GET',
    path: '/sources',
    allow: PRIVATE_OR_CUSTOMER,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const customerIds = f.list('customerId')
      const merchantIds = f.list('merchantId')
      const ids = f.list('paymentSourceId')
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const scoped = ctx.scope.customerId
      const records = ctx.store.sources.select({
        ids,
        where: {
          merchantId: merchantsWithin(visible, merchantIds),
          // A request acting for a customer sees that customer's sources only.
          customerId: scoped === null ? customerIds : (customerIds ?? [scoped]).filter((id) => id === scoped),
        },
        after,
        before,
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (s) => s.createdAt, updatedAt: (s) => s.updatedAt, customerId: (s) => s.customerId },
        view: sourceView,
      })
    },
  }),
  route({
    method: 'GET',
    path: '/sources/{sourceId}',
    allow: PRIVATE_OR_CUSTOMER,
    handle: (ctx, req) => sourceView(visibleSource(ctx, req.params.sourceId as string)),
  }),
  route({
    method: 'DELETE',
    path: '/sources/{sourceId}',
    allow: PRIVATE_OR_CUSTOMER,
    handle: (ctx, req) => {
      const source = visibleSource(ctx, req.params.sourceId as string)
      ctx.store.sources.delete(source.paymentSourceId)
      return sourceView(source)
    },
  }),
  route({
    method: 'GET',
    path: '/sources/blockedcards',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const merchantIds = f.list('merchantId')
      const customerIds = f.list('customerId')
      const statuses = f.list('status')
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.blockedCards.select({
        where: { merchantId: merchantsWithin(visible, merchantIds), customerId: customerIds },
        after,
        before,
        filter: statuses === undefined ? undefined : (b) => oneOf(statuses, b.status),
        filterKey: JSON.stringify(statuses),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (b) => b.createdAt, updatedAt: (b) => b.updatedAt, status: (b) => b.status },
        view: blockedCardView,
      })
    },
  }),
  route({
    method: 'PATCH',
    path: '/sources/blockedcards/{cardBlockId}',
    allow: PRIVATE,
    actions: {
      UnblockCard: action(UnblockCardBody, (ctx, body, req) => {
        const id = req.params.cardBlockId as string
        const record = visibleOr404(ctx, ctx.store.blockedCards, id, 'Blocked-card event')
        if (record.status === 'Unblocked') throw conflict('card_not_blocked', 'The card is already unblocked')
        record.status = 'Unblocked'
        if (body.reason !== undefined) record.reason = body.reason
        record.updatedAt = timestamp(ctx.clock.now())
        return blockedCardView(record)
      }),
    },
  }),
]
