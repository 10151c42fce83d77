// Transactions: a payment seen from the merchant's side. This file holds the routes: the list and
// its filters, one transaction, and the table of actions on it. The actions live beside it:
// captures and cancelled authorisations in transaction-captures.ts (which also records a payment
// as a transaction), refunds in transaction-refunds.ts, transfers between merchants and their
// reversal in transaction-transfers.ts; what they share (the answer, the timeline, the statuses
// money leaves from) in transaction-details.ts. Every movement of money writes to the ledger
// (ledger.ts).
//
// States (transactionStatus / purchaseDetails.status):
//   PayTo payment            → paid (paymentStatus Settled)
//   card payment             → accepted (Captured), or not_captured (Authorised) when authoriseOnly
//   declined payment         → failed (Failed, paymentFailure set)
//   CaptureFunds             not_captured → accepted
//   CancelAuthorisation      not_captured | accepted (card, nothing refunded) → cancelled; the
//                            order becomes payable again
//   CreateRefund             paid | accepted | partially_refunded → partially_refunded, or
//                            refunded once everything is refunded
import type { CreateRefund } from '../../client/schemas/transactions.js'
import { PRIVATE, visibleMerchantIds } from '../auth.js'
import { customersWithin, filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { action, route, type HandlerContext } from '../route.js'
import type { TransactionRecord } from '../store.js'
import { NoFields, cancelAuthorisation, captureFunds } from './transaction-captures.js'
import { transactionView, visibleTransaction } from './transaction-details.js'
import { refund } from './transaction-refunds.js'
import { ReverseFundsTransferBody, TransferFundsBody, reverseTransfer, transferFunds } from './transaction-transfers.js'

function onTransaction<B>(handle: (ctx: HandlerContext, txn: TransactionRecord, body: B) => unknown) {
  return (ctx: HandlerContext, body: B, req: { params: Record<string, string> }) =>
    handle(ctx, visibleTransaction(ctx, req.params.transactionId as string), body)
}

export const routes = [
  route({
    method: 'GET',
    path: '/transactions',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const orderIds = f.list('orderId')
      const statuses = f.list('status')
      const customerIds = f.list('customerId')
      const merchantIds = f.list('merchantId')
      const ids = f.list('transactionId')
      const references = f.list('referenceOrderId')
      const amount = f.integer('amount')
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.transactions.select({
        ids,
        where: { merchantId: merchantsWithin(visible, merchantIds), orderId: orderIds, customerId: customersWithin(ctx.scope, customerIds) },
        after,
        before,
        filter:
          statuses === undefined && references === undefined && amount === undefined
            ? undefined
            : (t) => {
                const p = t.details.purchaseDetails
                return oneOf(statuses, p.status) && oneOf(references, p.referenceOrderId) && (amount === undefined || p.amount.minorCurrencyUnits === amount)
              },
        filterKey: JSON.stringify([statuses, references, amount]),
      })
      return paginate(records, req.query, {
        sortable: {
          createdAt: (t) => t.details.purchaseDetails.createdAt,
          updatedAt: (t) => t.details.purchaseDetails.updatedAt,
          amount: (t) => t.details.purchaseDetails.amount.minorCurrencyUnits,
          status: (t) => t.details.purchaseDetails.status,
          paidOn: (t) => t.details.purchaseDetails.paidOn,
        },
        view: transactionView,
      })
    },
  }),
  route({
    method: 'GET',
    path: '/transactions/{transactionId}',
    allow: PRIVATE,
    handle: (ctx, req) => transactionView(visibleTransaction(ctx, req.params.transactionId as string)),
  }),
  route({
    method: 'PATCH',
    path: '/transactions/{transactionId}',
    allow: PRIVATE,
    actions: {
      CreateRefund: action<CreateRefund>(onTransaction(refund)),
      CaptureFunds: action(
        NoFields,
        onTransaction((ctx, txn) => captureFunds(ctx, txn)),
      ),
      CancelAuthorisation: action(
        NoFields,
        onTransaction((ctx, txn) => cancelAuthorisation(ctx, txn)),
      ),
      TransferFunds: action(TransferFundsBody, onTransaction(transferFunds)),
      ReverseFundsTransfer: action(ReverseFundsTransferBody, onTransaction(reverseTransfer)),
    },
  }),
]
