// The refund list (/transactions/refunds): refunds across transactions, made by CreateRefund
// (transaction-refunds.ts).
import { PRIVATE, visibleMerchantIds } from '../auth.js'
import { addDays, timestamp } from '../clock.js'
import { customersWithin, filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { route } from '../route.js'
import { lookup } from '../store.js'

/** Default look-back of the refund list without `createdAfter` (real integrations: 30 days). */
export const REFUND_LIST_DEFAULT_DAYS = 30

export const routes = [
  route({
    method: 'GET',
    path: '/transactions/refunds',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const now = ctx.clock.now()
      const after = f.dateTime('createdAfter') ?? timestamp(addDays(now, -REFUND_LIST_DEFAULT_DAYS))
      const before = f.dateTime('createdBefore')
      const nowText = timestamp(now)
      const amount = f.integer('amount')
      const references = f.list('referenceOrderId')
      const orderIds = f.list('orderId')
      const customerIds = f.list('customerId')
      const merchantIds = f.list('merchantId')
      const transactionIds = f.list('transactionId')
      const refundIds = f.list('refundId')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const referenceOf = (transactionId: string, stored: string | null) =>
        lookup(ctx.store.transactions, transactionId)?.details.purchaseDetails.referenceOrderId ?? stored
      const records = ctx.store.refunds.select({
        ids: refundIds,
        where: {
          merchantId: merchantsWithin(visible, merchantIds),
          orderId: orderIds,
          customerId: customersWithin(ctx.scope, customerIds),
          transactionId: transactionIds,
        },
        after,
        // Without createdBefore, up to and including now: the first text after `nowText`.
        before: before ?? `${nowText}\u0000`,
        filter:
          amount === undefined && references === undefined
            ? undefined
            : (r) =>
                (amount === undefined || r.refundAmount.minorCurrencyUnits === amount) && oneOf(references, referenceOf(r.transactionId, r.referenceOrderId)),
        filterKey: JSON.stringify([amount, references]),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (r) => r.createdAt, amount: (r) => r.refundAmount.minorCurrencyUnits },
        view: (r) => ({
          refundId: r.refundId,
          transactionId: r.transactionId,
          transactionAmount: r.transactionAmount,
          orderId: r.orderId,
          referenceOrderId: referenceOf(r.transactionId, r.referenceOrderId),
          merchantId: r.merchantId,
          customerId: r.customerId,
          description: r.description,
          amount: r.refundAmount,
          status: r.status,
          createdAt: r.createdAt,
        }),
      })
    },
  }),
]
