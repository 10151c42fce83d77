// The emulator's state: collections of plain records (strings, numbers, booleans, null, arrays,
// objects), each a Map by id with its indexes (collection.ts), and the event log, an array.
// `JSON.stringify(store)` is the whole state (a collection writes itself as an object keyed by
// id, the ledger as an array), so `--state FILE` can save and restore it.
//
// Records keep the shape the emulator emits where the contract shows one; internal fields that
// are never emitted are named in the record's comment. Resource groups add their own collections
// here (and to `emptyStore()`); a state file saved before a collection existed loads with the
// collection empty.
import type { Money } from '../client/money.js'
import { notFound } from './api-error.js'
import { Collection } from './collection.js'
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
  discountAmount?: Money
  shipping?: { amount?: Money; address?: Address; name?: string }
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
  marketplaces: Collection<MarketplaceRecord>
  merchants: Collection<MerchantRecord>
  /** Keyed by the key text. */
  apiKeys: Collection<ApiKeyRecord>
  serviceTokens: Collection<ServiceTokenRecord>
  /** Keyed by the customer token. */
  customerSessions: Collection<CustomerSession>
  customers: Collection<CustomerRecord>
  delegates: Collection<DelegateRecord>
  /** Keyed by the agreement token. */
  agreements: Collection<AgreementRecord>
  sources: Collection<SourceRecord>
  tokens: Collection<TokenRecord>
  orders: Collection<OrderRecord>
  transactions: Collection<TransactionRecord>
  refunds: Collection<RefundRecord>
  threeDS: Collection<ThreeDSRecord>
  blockedCards: Collection<BlockedCardRecord>
  /** The ledger (ledger.ts); saved as an array in creation order. */
  settlementEntries: Collection<SettlementEntry>
  events: EventRecord[]
  // Merchants, money, pay plans, webhooks, loans and cards (records in account-records.ts).
  merchantProfiles: Collection<accounts.MerchantProfileRecord>
  merchantFiles: Collection<accounts.MerchantFileRecord>
  owners: Collection<accounts.OwnerRecord>
  payouts: Collection<accounts.PayoutRecord>
  disputes: Collection<accounts.DisputeRecord>
  payPlanOffers: Collection<accounts.PayPlanOfferRecord>
  payPlans: Collection<accounts.PayPlanRecord>
  webhookSubscriptions: Collection<accounts.WebhookSubscriptionRecord>
  marketplaceCustomers: Collection<accounts.MarketplaceCustomerRecord>
  loans: Collection<accounts.LoanRecord>
  loanStatements: Collection<accounts.LoanStatementRecord>
  loanEntries: Collection<accounts.LoanEntryRecord>
  digitalCards: Collection<accounts.DigitalCardRecord>
}

const lower = (text: string | null | undefined) => text?.toLowerCase()
const byMerchant = { merchantId: (r: { merchantId: string }) => r.merchantId }

/**
 * A store with every collection empty. Indexes serve the list filters (identifiers, references,
 * customers, merchants, statuses); a field that changes in place after creation and is indexed
 * (`orders.status`, `orders.referenceOrderId`, `settlementEntries.payoutId`) is followed by
 * `reindex(id)` where it changes.
 */
export function emptyStore(): Store {
  return {
    marketplaces: new Collection<MarketplaceRecord>(),
    merchants: new Collection<MerchantRecord>({ indexes: { marketplaceId: (m) => m.marketplaceId } }),
    apiKeys: new Collection<ApiKeyRecord>(),
    serviceTokens: new Collection<ServiceTokenRecord>({ indexes: { token: (t) => t.token, merchantId: (t) => t.merchantId, marketplaceId: (t) => t.marketplaceId } }),
    customerSessions: new Collection<CustomerSession>(),
    customers: new Collection<CustomerRecord>({
      indexes: { ...byMerchant, emailAddress: (c) => lower(c.emailAddress), referenceCustomerId: (c) => c.referenceCustomerId },
    }),
    delegates: new Collection<DelegateRecord>({ indexes: { ...byMerchant, customerId: (d) => d.customerId, emailAddress: (d) => lower(d.emailAddress) } }),
    agreements: new Collection<AgreementRecord>({ indexes: byMerchant }),
    sources: new Collection<SourceRecord>({ indexes: { ...byMerchant, customerId: (s) => s.customerId, agreementToken: (s) => s.agreementToken } }),
    tokens: new Collection<TokenRecord>({ indexes: byMerchant }),
    orders: new Collection<OrderRecord>({
      indexes: {
        ...byMerchant,
        customerId: (o) => o.customerId,
        referenceOrderId: (o) => o.referenceOrderId,
        status: (o) => o.status,
        orderType: (o) => o.orderType,
        customerEmailAddress: (o) => lower(o.customerEmailAddress),
      },
    }),
    transactions: new Collection<TransactionRecord>({
      time: (t) => t.details.purchaseDetails.createdAt,
      indexes: { ...byMerchant, customerId: (t) => t.customerId, orderId: (t) => t.orderId } }),
    refunds: new Collection<RefundRecord>({ indexes: { ...byMerchant, customerId: (r) => r.customerId, orderId: (r) => r.orderId, transactionId: (r) => r.transactionId } }),
    threeDS: new Collection<ThreeDSRecord>({ indexes: { orderId: (c) => c.orderId } }),
    blockedCards: new Collection<BlockedCardRecord>({ indexes: { ...byMerchant, customerId: (b) => b.customerId, paymentSourceId: (b) => b.paymentSourceId } }),
    settlementEntries: new Collection<SettlementEntry>({
      json: 'array',
      id: (e) => e.settlementEntryId,
      indexes: {
        ...byMerchant,
        payoutId: (e) => e.payoutId,
        transactionId: (e) => e.transactionId,
        type: (e) => e.type,
        currency: (e) => e.amount.currency,
      },
    }),
    events: [],
    merchantProfiles: new Collection<accounts.MerchantProfileRecord>(),
    merchantFiles: new Collection<accounts.MerchantFileRecord>({ indexes: byMerchant }),
    owners: new Collection<accounts.OwnerRecord>({ indexes: byMerchant }),
    payouts: new Collection<accounts.PayoutRecord>({ indexes: byMerchant }),
    disputes: new Collection<accounts.DisputeRecord>({ indexes: { ...byMerchant, transactionId: (d) => d.transactionId, orderId: (d) => d.orderId } }),
    payPlanOffers: new Collection<accounts.PayPlanOfferRecord>({ indexes: byMerchant }),
    payPlans: new Collection<accounts.PayPlanRecord>({ indexes: { ...byMerchant, customerId: (p) => p.customerId } }),
    webhookSubscriptions: new Collection<accounts.WebhookSubscriptionRecord>({ indexes: { merchantId: (s) => s.merchantId, marketplaceId: (s) => s.marketplaceId } }),
    marketplaceCustomers: new Collection<accounts.MarketplaceCustomerRecord>({ indexes: { marketplaceId: (c) => c.marketplaceId } }),
    loans: new Collection<accounts.LoanRecord>({ indexes: byMerchant }),
    loanStatements: new Collection<accounts.LoanStatementRecord>({ indexes: { ...byMerchant, loanId: (s) => s.loanId } }),
    loanEntries: new Collection<accounts.LoanEntryRecord>({ indexes: { ...byMerchant, loanId: (e) => e.loanId, loanStatementId: (e) => e.loanStatementId } }),
    digitalCards: new Collection<accounts.DigitalCardRecord>({ indexes: { ...byMerchant, loanId: (c) => c.loanId } }),
  }
}

/** The collections of a store by name (every field but the event log). */
export function collectionsOf(store: Store): Array<[string, Collection<unknown>]> {
  return Object.entries(store).filter((e): e is [string, Collection<unknown>] => e[1] instanceof Collection)
}

/** After a request that may have changed records in place: forget every cached list result. */
export function markChanged(store: Store): void {
  for (const [, collection] of collectionsOf(store)) collection.touch()
}

/** A record by id, or a 404 naming what was looked for. */
export function getOr404<T>(collection: Collection<T>, id: string, what: string): T {
  const record = collection.get(id)
  if (record === undefined) throw notFound(what, id)
  return record
}

/** A record by id, or undefined. */
export function lookup<T>(collection: Collection<T>, id: string): T | undefined {
  return collection.get(id)
}
