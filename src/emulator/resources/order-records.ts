// Records of orders (orders.ts, orders-pay.ts), transactions and refunds (transactions.ts and the
// transaction-*.ts files beside it), and their collections with the indexes the lists use.
// Indexed fields that change in place (`status`, `referenceOrderId` of an order) are followed by
// `orders.reindex(orderId)`.
import type { Money } from '../../client/money.js'
import { Collection, byMerchantId, lowercase } from '../collection.js'
import type { Address } from './merchant-records.js'

export interface OrderItem {
  amount: Money
  description: string
  quantity: number
  [extra: string]: unknown
}

export type OrderStatus = 'pending' | 'paid' | 'cancelled'

export interface OrderRecord {
  orderId: string
  merchantId: string
  customerId: string | null
  referenceOrderId: string | null
  orderType: 'online' | 'paybylink'
  status: OrderStatus
  amount: Money
  description: string | null
  customerName: string | null
  customerEmailAddress: string | null
  customerPhoneNumber: string | null
  items: OrderItem[]
  billing: { address?: Address; name?: string; phoneNumber?: string } | null
  metadata: Record<string, unknown> | null
  /** Integer minor units, as real clients send it (field notes); null when not given (optional: records made before it existed). */
  discountAmount?: number | null
  /** As sent (field notes): `amount` in minor units; empty strings for an order with nothing to ship. */
  shipping?: { amount?: number; address?: Partial<Address> & { line2?: string }; name?: string } | null
  transactionId: string | null
  payByLinkUrl: string | null
  /**
   * The Pay By Link token of a pay-by-link order (a credential for sign-in; handed out once, in the
   * create answer, never in the order's view). Absent on other orders and on older records.
   */
  payByLinkToken?: string | null
  cancelledAt: string | null
  createdAt: string
  updatedAt: string
}

export interface TimelineEntry {
  eventType: string
  eventTime: string
  amount: number
  identifier: string | null
}

export interface TransactionDetails {
  purchaseDetails: {
    orderId: string
    merchantId: string
    referenceOrderId: string | null
    amount: Money
    surchargeAmount: number
    refundedAmount: number
    merchantName: string
    transactionId: string
    orderType: string
    payType: string
    description: string | null
    orderMetadata: Record<string, unknown> | null
    status: string
    refundIds: string[]
    disputeId: string | null
    disputeIds: string[]
    paidOn: string | null
    createdAt: string
    updatedAt: string
  }
  paymentMethod: {
    paymentMethodType: string
    accountHint: string
    paymentStatus: string
    paymentFailure: { errorCode: string; message: string } | null
  }
  serviceFees: { variableAmount: number; fixedAmount: number; taxAmount: number; totalAmount: number }
  customerDetails: { customerId: string; emailAddress: string | null; name: string | null } | null
  timelines: TimelineEntry[]
}

export interface TransferRecord {
  transferId: string
  transactionId: string
  sourceMerchantId: string
  destinationMerchantId: string
  amount: Money
  reversedAmount: number
  description: string | null
  status: 'Transferred' | 'PartiallyReversed' | 'Reversed'
  createdAt: string
  updatedAt: string
}

export interface TransactionRecord {
  transactionId: string
  merchantId: string
  customerId: string | null
  orderId: string
  paymentTokenId: string
  /** Emitted as the answer of GET and PATCH /transactions/{id}. */
  details: TransactionDetails
  transfers: TransferRecord[]
}

export interface RefundRecord {
  refundId: string
  transactionId: string
  orderId: string
  referenceOrderId: string | null
  merchantId: string
  customerId: string | null
  description: string
  refundAmount: Money
  transactionAmount: Money
  status: 'Succeeded'
  createdAt: string
}

export function orderCollections() {
  return {
    orders: new Collection<OrderRecord>({
      indexes: {
        ...byMerchantId,
        customerId: (o) => o.customerId,
        referenceOrderId: (o) => o.referenceOrderId,
        status: (o) => o.status,
        orderType: (o) => o.orderType,
        customerEmailAddress: (o) => lowercase(o.customerEmailAddress),
        payByLinkToken: (o) => o.payByLinkToken ?? null,
      },
    }),
    transactions: new Collection<TransactionRecord>({
      time: (t) => t.details.purchaseDetails.createdAt,
      indexes: { ...byMerchantId, customerId: (t) => t.customerId, orderId: (t) => t.orderId },
    }),
    refunds: new Collection<RefundRecord>({
      indexes: { ...byMerchantId, customerId: (r) => r.customerId, orderId: (r) => r.orderId, transactionId: (r) => r.transactionId },
    }),
  }
}
