// Records of the ways to pay: PayTo agreements (payto.ts), payment sources and blocked cards
// (sources.ts), payment tokens (tokens.ts), 3-D Secure challenges (orders-pay.ts); and their
// collections with the indexes the lists and lookups use.
import type { Money } from '../../client/money.js'
import { Collection, byMerchantId } from '../collection.js'

export type AgreementStatus = 'Pending' | 'Active' | 'Declined' | 'Suspended' | 'Cancelled' | 'Expired'

export interface AgreementRecord {
  token: string
  agreementUid: string
  merchantId: string
  customerName: string
  identifierType: 'Bban' | 'Alias'
  aliasType: string | null
  /** The identifier as normalised by the emulator (internal). */
  identifierValue: string
  accountIdentifierHint: string
  agreementType: 'OneOff' | 'Open'
  /** Fixed amount of a one-off agreement; null for an open one. */
  amount: Money | null
  purpose: string
  /**
   * Status over time (internal): the status at time t is that of the last entry with `at <= t`.
   * Future entries encode the scripted behaviour of test values; simulation overrides cut them.
   */
  schedule: Array<{ status: AgreementStatus; at: string }>
  /** What a payment with this agreement does (internal; set by test values). */
  paymentOutcome: 'approve' | 'insufficient_funds'
  /** When a one-off agreement's single payment was made. */
  usedAt: string | null
  createdAt: string
  /**
   * The customer it was sent for (`Customer-Id`, a delegate or a customer token), or made for it
   * when it was saved as a source without one; null or absent otherwise.
   */
  customerId?: string | null
  /** Internal: the pay-by-link order whose checkout sent it (that order is paid when the customer approves). */
  checkoutOrderId?: string | null
}

export interface CardDetails {
  brand: string
  last4: string
  expiryMonth: number
  expiryYear: number
  /** What paying with this card does (internal; from the test card number). */
  behaviour: 'approve' | 'challenge' | string
}

export interface SourceRecord {
  paymentSourceId: string
  customerId: string
  merchantId: string
  customerDelegateId: string | null
  sourceMethod: Record<string, unknown>
  usageScope: string | null
  createdAt: string
  updatedAt: string
  legacyResp: Record<string, unknown> | null
  /** Internal: the agreement behind a PayTo source, or the card behind a card source. */
  agreementToken: string | null
  card: CardDetails | null
}

export type TokenMethod = 'PayTo' | 'Card' | 'PayPlan'

export interface TokenRecord {
  paymentTokenId: string
  /** Envelope key of the answer that created it. */
  kind: 'PayToToken' | 'SavedPaymentSourceToken' | 'PayPlanToken' | 'CheckoutCardToken'
  merchantId: string
  customerId: string | null
  paymentSourceId: string | null
  method: TokenMethod
  amount: Money
  surchargeAmount: number
  payType: 'payinfull' | 'payplan'
  payPlanVariant: string | null
  agreementToken: string | null
  agreementUid: string | null
  accountIdentifierHint: string
  createdAt: string
  /** Null: it does not expire (the default; see `paymentTokenLifetimeSeconds`). */
  expiresAt: string | null
  usedAt: string | null
  usedByOrderId: string | null
  /** Internal: the card typed into a checkout page (not saved as a source), for a CheckoutCardToken. */
  card?: CardDetails | null
}

/** What the customer did on the challenge page (or a `SetThreeDSOutcome` simulation said). */
export type ThreeDSOutcome = 'passed' | 'failed' | 'abandoned'

export interface ThreeDSRecord {
  threeDSAuthorisationId: string
  paymentTokenId: string
  orderId: string
  status: 'Pending' | 'Completed' | 'Failed' | 'Abandoned'
  createdAt: string
  /** Null (or absent, in records made before it existed) until the customer answers the challenge. */
  outcome?: ThreeDSOutcome | null
  /** Started by the emulator's checkout page, which then finishes the payment itself. */
  checkout?: boolean
}

export interface BlockedCardRecord {
  cardBlockId: string
  merchantId: string
  customerId: string | null
  paymentSourceId: string | null
  cardHint: string
  reason: string
  status: 'Blocked' | 'Unblocked'
  createdAt: string
  updatedAt: string
}

export function paymentCollections() {
  return {
    /** Keyed by the agreement token. */
    agreements: new Collection<AgreementRecord>({ indexes: byMerchantId }),
    sources: new Collection<SourceRecord>({ indexes: { ...byMerchantId, customerId: (s) => s.customerId, agreementToken: (s) => s.agreementToken } }),
    tokens: new Collection<TokenRecord>({ indexes: byMerchantId }),
    threeDS: new Collection<ThreeDSRecord>({ indexes: { orderId: (c) => c.orderId } }),
    blockedCards: new Collection<BlockedCardRecord>({
      indexes: { ...byMerchantId, customerId: (b) => b.customerId, paymentSourceId: (b) => b.paymentSourceId },
    }),
  }
}
