// Orders: what a customer buys from a merchant. An order is `pending` (payable) until it is paid
// or cancelled; paying (POST /orders/{orderId}/pay) is in orders-pay.ts. Order `status` values are the emulator's own:
// pending, paid, cancelled.
import { CreateOnlineOrder, type UpdateReferenceOrderId } from '../../client/schemas/orders.js'
import { isKnownCurrency } from '../../client/money.js'
import { conflict, unprocessable } from '../api-error.js'
import { PRIVATE, requireMerchant, visibleMerchantIds, visibleOr404 } from '../auth.js'
import { timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { extraFields } from '../lenient.js'
import { customersWithin, filters, merchantsWithin, paginate } from '../lists.js'
import { PAY_BY_LINK_PATH, pageLink } from '../pages/links.js'
import { action, route, type HandlerContext, type HandlerRequest } from '../route.js'
import { lookup, type OrderRecord } from '../store.js'

/** The order as emitted: the contract's fields, the fields real integrations show, and the emulator's status fields. */
export function orderView(order: OrderRecord) {
  const { payByLinkToken: _secret, ...view } = order
  return view
}

/** An order the request may see (404 otherwise). */
export function visibleOrder(ctx: HandlerContext, id: string): OrderRecord {
  return visibleOr404(ctx, ctx.store.orders, id, 'Order')
}

function createOrder(ctx: HandlerContext, req: HandlerRequest, body: CreateOnlineOrder, orderType: OrderRecord['orderType']): OrderRecord {
  const merchant = requireMerchant(ctx.store, ctx.scope)
  const currency = body.amount.currency
  if (!isKnownCurrency(currency)) throw unprocessable('unsupported_currency', `Unknown currency ${currency}`)
  if (body.amount.minorCurrencyUnits <= 0) throw unprocessable('invalid_amount', 'The order amount must be greater than zero')
  for (const [i, item] of (body.items ?? []).entries()) {
    if (item.amount.currency !== currency) {
      throw unprocessable('currency_mismatch', `items[${i}] is in ${item.amount.currency}; the order is in ${currency}`)
    }
  }
  const customer = ctx.scope.customerId === null ? undefined : lookup(ctx.store.customers, ctx.scope.customerId)
  const now = timestamp(ctx.clock.now())
  const orderId = ctx.ids.next('ordr')
  const order: OrderRecord = {
    // Fields the emulator does not know (lenient mode) are kept; its own fields always win.
    ...extraFields(body, CreateOnlineOrder),
    orderId,
    merchantId: merchant.merchantId,
    customerId: customer?.customerId ?? null,
    referenceOrderId: body.referenceOrderId ?? null,
    orderType,
    status: 'pending',
    amount: { ...body.amount },
    description: body.description ?? null,
    customerName: customer
      ? [customer.givenName, customer.familyName].filter(Boolean).join(' ') || customer.organisationName
      : body.billing?.name?.trim() || null,
    customerEmailAddress: body.customerEmailAddress ?? customer?.emailAddress ?? null,
    customerPhoneNumber: body.customerPhoneNumber ?? customer?.phoneNumber ?? null,
    items: (body.items ?? []).map((item) => ({ ...item })),
    billing: body.billing ? { ...body.billing } : null,
    metadata: body.metadata ?? null,
    discountAmount: body.discountAmount ?? null,
    shipping: body.shipping ? { ...body.shipping, ...(body.shipping.address ? { address: { ...body.shipping.address } } : {}) } : null,
    transactionId: null,
    // The emulator's own checkout page (pages/checkout.ts), at the origin the caller reached.
    payByLinkUrl: orderType === 'paybylink' ? pageLink(ctx.baseUrl, req.headers['emulator-namespace'], `${PAY_BY_LINK_PATH}/${orderId}`) : null,
    ...(orderType === 'paybylink' ? { payByLinkToken: `sandbox_pbl_${ctx.ids.secret(32)}` } : {}),
    cancelledAt: null,
    createdAt: now,
    updatedAt: now,
  }
  ctx.store.orders.set(orderId, order)
  emitEvent(ctx, 'OrderCreated', order.merchantId, { orderId, orderType, order: orderView(order) })
  return order
}

export const routes = [
  route({
    method: 'GET',
    path: '/orders',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const orderIds = f.list('orderId')
      const merchantIds = f.list('merchantId')
      const customerIds = f.list('customerId')
      const references = f.list('referenceOrderId')
      const statuses = f.list('status')
      const types = f.list('orderType')
      const emails = f.list('customerEmailAddress')?.map((e) => e.toLowerCase())
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.orders.select({
        ids: orderIds,
        where: {
          merchantId: merchantsWithin(visible, merchantIds),
          customerId: customersWithin(ctx.scope, customerIds),
          referenceOrderId: references,
          status: statuses,
          orderType: types,
          customerEmailAddress: emails,
        },
        after,
        before,
      })
      return paginate(records, req.query, {
        sortable: {
          createdAt: (o) => o.createdAt,
          updatedAt: (o) => o.updatedAt,
          amount: (o) => o.amount.minorCurrencyUnits,
          referenceOrderId: (o) => o.referenceOrderId,
          status: (o) => o.status,
        },
        view: orderView,
      })
    },
  }),
  route({
    method: 'POST',
    path: '/orders',
    allow: PRIVATE,
    actions: {
      CreateOnlineOrder: action<CreateOnlineOrder>((ctx, body, req) => ({ OnlineOrder: { order: orderView(createOrder(ctx, req, body, 'online')) } })),
      CreatePayByLinkOrder: action<CreateOnlineOrder>((ctx, body, req) => payByLink(createOrder(ctx, req, body, 'paybylink'))),
      CreatePayByLink: action<CreateOnlineOrder>((ctx, body, req) => payByLink(createOrder(ctx, req, body, 'paybylink'))),
    },
  }),
  route({
    method: 'GET',
    path: '/orders/{orderId}',
    allow: PRIVATE,
    handle: (ctx, req) => orderView(visibleOrder(ctx, req.params.orderId as string)),
  }),
  route({
    method: 'DELETE',
    path: '/orders/{orderId}',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const order = visibleOrder(ctx, req.params.orderId as string)
      if (order.status === 'paid') throw conflict('order_already_paid', 'A paid order cannot be cancelled; refund its transaction instead')
      if (order.status === 'pending') {
        const now = timestamp(ctx.clock.now())
        order.status = 'cancelled'
        order.cancelledAt = now
        order.updatedAt = now
        ctx.store.orders.reindex(order.orderId)
        for (const challenge of ctx.store.threeDS.byIndex('orderId', order.orderId)) {
          if (challenge.orderId === order.orderId && challenge.status === 'Pending') challenge.status = 'Failed'
        }
        emitEvent(ctx, 'OrderCancelled', order.merchantId, { orderId: order.orderId, order: orderView(order) })
      }
      return orderView(order)
    },
  }),
  route({
    method: 'PATCH',
    path: '/orders/{orderId}',
    allow: PRIVATE,
    actions: {
      UpdateReferenceOrderId: action<UpdateReferenceOrderId>((ctx, body, req) => {
        const order = visibleOrder(ctx, req.params.orderId as string)
        order.referenceOrderId = body.referenceOrderId
        order.updatedAt = timestamp(ctx.clock.now())
        ctx.store.orders.reindex(order.orderId)
        const txn = order.transactionId === null ? undefined : lookup(ctx.store.transactions, order.transactionId)
        if (txn) txn.details.purchaseDetails.referenceOrderId = body.referenceOrderId
        return orderView(order)
      }),
    },
  }),
]

/** The create answer of a pay-by-link order: the only answer that carries its Pay By Link token. */
function payByLink(order: OrderRecord) {
  return { PayByLinkOrder: { order: orderView(order), payByLinkUrl: order.payByLinkUrl, payByLinkToken: order.payByLinkToken ?? null } }
}
