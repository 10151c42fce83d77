// The emulator's state: plain data only (strings, numbers, booleans, null, arrays, objects), so
// that `JSON.stringify(store)` is the whole state and `--state FILE` can save and restore it.
// Collections of entities are objects keyed by id (insertion order is creation order, because
// ids are never integer-like); the ledger and the event log are arrays.
//
// Records keep the shape the emulator emits where the contract shows one; internal fields that
// are never emitted are named in the record's comment. Resource groups add their own collections
// here (and to `emptyStore()`); a state file saved before a collection existed loads with the
// collection empty.
import type { Money } from '../client/money.js'
import { notFound } from './api-error.js'
import type { SettlementEntry } from './ledger.js'
import type * as accounts from './account-records.js'

export interface Address {
  line1: string
  city: string
  state?: string
  postalCode: string
  country: string
}

export interface MarketplaceRecord {
  marketplaceId: string
  name: string
  createdAt: string
  updatedAt: string
}

export interface BankAccountRecord {
  bankAccountId: string
  accountName: string
  bsb: string
  accountNumber: string
  isPrimary: boolean
  createdAt: string
}

export interface MerchantRecord {
  merchantId: string
  /** null for a merchant outside any marketplace. */
  marketplaceId: string | null
  name: string
  industry: string
  status: string
  bankAccounts: BankAccountRecord[]
  publicKey: string
  manualPayoutsEnabled: boolean
  supportsB2B: boolean
  currency: string
  createdAt: string
  updatedAt: string
}

/** A fixed key (seeded, or made with a merchant or marketplace): key text → owner. */
export interface ApiKeyRecord {
  kind: 'marketplaceApiKey' | 'merchantSecretKey' | 'merchantPublicKey'
  ownerId: string
}

export type ServiceTokenStatus = 'Active' | 'Revoked'

export interface ServiceTokenRecord {
  serviceTokenId: string
  /** The credential itself; emitted only in the answer that creates the token. */
  token: string
  tokenHint: string
  ownerType: 'Merchant' | 'Marketplace'
  merchantId: string | null
  marketplaceId: string | null
  description: string | null
  status: ServiceTokenStatus
  createdAt: string
  updatedAt: string
  expiresAt: string | null
  revokedAt: string | null
}

/** A checkout session made by `POST /auth/signin`; its `customToken` is a customer credential. */
export interface CustomerSession {
  customToken: string
  merchantId: string
  customerId: string
  customerDelegateId: string | null
  createdAt: string
  expiresAt: string
}

export type KycStatus = 'NotStarted' | 'MoreDetailsRequired' | 'Verified'

export interface CustomerRecord {
  customerId: string
  merchantId: string
  customerType: 'Consumer' | 'Organisation'
  emailAddress: string | null
  phoneNumber: string | null
  referenceCustomerId: string | null
  givenName: string | null
  middleName: string | null
  familyName: string | null
  organisationName: string | null
  businessNumber: string | null
  isVerified: boolean
  metadata: Record<string, unknown> | null
  kycStatus: KycStatus
  /** KYC details supplied so far (internal; the KYC answer lists what is still missing). */
  kycDetails: Record<string, unknown>
  createdAt: string
  updatedAt: string
}

export interface DelegateRecord {
  customerDelegateId: string
  customerId: string
  merchantId: string
  emailAddress: string
  givenName: string | null
  familyName: string | null
  phoneNumber: string | null
  createdAt: string
  updatedAt: string
}

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
  kind: 'PayToToken' | 'SavedPaymentSourceToken' | 'PayPlanToken'
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
  expiresAt: string
  usedAt: string | null
  usedByOrderId: string | null
}

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

export interface ThreeDSRecord {
  threeDSAuthorisationId: string
  paymentTokenId: string
  orderId: string
  status: 'Pending' | 'Completed' | 'Failed'
  createdAt: string
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

/** Something that happened, kept for webhook delivery (the delivery side reads this log). */
export interface EventRecord {
  eventId: string
  webhookEventType: string
  merchantId: string | null
  marketplaceId: string | null
  requestId: string
  event: Record<string, unknown>
  timestamp: string
}

export interface Store {
  marketplaces: Record<string, MarketplaceRecord>
  merchants: Record<string, MerchantRecord>
  apiKeys: Record<string, ApiKeyRecord>
  serviceTokens: Record<string, ServiceTokenRecord>
  customerSessions: Record<string, CustomerSession>
  customers: Record<string, CustomerRecord>
  delegates: Record<string, DelegateRecord>
  agreements: Record<string, AgreementRecord>
  sources: Record<string, SourceRecord>
  tokens: Record<string, TokenRecord>
  orders: Record<string, OrderRecord>
  transactions: Record<string, TransactionRecord>
  refunds: Record<string, RefundRecord>
  threeDS: Record<string, ThreeDSRecord>
  blockedCards: Record<string, BlockedCardRecord>
  settlementEntries: SettlementEntry[]
  events: EventRecord[]
  // Merchants, money, pay plans, webhooks, loans and cards (records in account-records.ts).
  merchantProfiles: Record<string, accounts.MerchantProfileRecord>
  merchantFiles: Record<string, accounts.MerchantFileRecord>
  owners: Record<string, accounts.OwnerRecord>
  payouts: Record<string, accounts.PayoutRecord>
  disputes: Record<string, accounts.DisputeRecord>
  payPlanOffers: Record<string, accounts.PayPlanOfferRecord>
  payPlans: Record<string, accounts.PayPlanRecord>
  webhookSubscriptions: Record<string, accounts.WebhookSubscriptionRecord>
  marketplaceCustomers: Record<string, accounts.MarketplaceCustomerRecord>
  loans: Record<string, accounts.LoanRecord>
  loanStatements: Record<string, accounts.LoanStatementRecord>
  loanEntries: Record<string, accounts.LoanEntryRecord>
  digitalCards: Record<string, accounts.DigitalCardRecord>
}

export function emptyStore(): Store {
  return {
    marketplaces: {},
    merchants: {},
    apiKeys: {},
    serviceTokens: {},
    customerSessions: {},
    customers: {},
    delegates: {},
    agreements: {},
    sources: {},
    tokens: {},
    orders: {},
    transactions: {},
    refunds: {},
    threeDS: {},
    blockedCards: {},
    settlementEntries: [],
    events: [],
    merchantProfiles: {},
    merchantFiles: {},
    owners: {},
    payouts: {},
    disputes: {},
    payPlanOffers: {},
    payPlans: {},
    webhookSubscriptions: {},
    marketplaceCustomers: {},
    loans: {},
    loanStatements: {},
    loanEntries: {},
    digitalCards: {},
  }
}

/** A record by id, or a 404 naming what was looked for. */
export function getOr404<T>(collection: Record<string, T>, id: string, what: string): T {
  const record = Object.prototype.hasOwnProperty.call(collection, id) ? collection[id] : undefined
  if (record === undefined) throw notFound(what, id)
  return record
}

/** A record by id, or undefined (safe against `__proto__` and other inherited names). */
export function lookup<T>(collection: Record<string, T>, id: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(collection, id) ? collection[id] : undefined
}
