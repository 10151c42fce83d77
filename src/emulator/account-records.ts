// Records of the merchant, money, pay plan, webhook, loan and card groups (resources/merchants.ts,
// payouts.ts, disputes.ts, payplans.ts, webhooks.ts, marketplaces.ts, loans.ts, issuer.ts). They live in
// `Store` (store.ts) like every other collection: plain JSON data, keyed by id, saved with
// `--state`. Fields marked internal are never emitted as such.
import type { Money } from '../client/money.js'
import type { Address } from '../client/schemas/common.js'
import { Collection, byMerchantId } from './collection.js'

/** What a merchant has beyond `MerchantRecord` (the emulator's own fields), keyed by merchant id. */
export interface MerchantProfileRecord {
  merchantId: string
  emailAddress: string | null
  phoneNumber: string | null
  /** ABN (11 digits) or ACN (9 digits). */
  businessNumber: string | null
  address: Address | null
  websiteUrl: string | null
  /** Free fields set by `UpdateMerchantBusinessProfile`, merged key by key. */
  businessProfile: Record<string, unknown>
  walletPayDomains: Array<{ domain: string; status: 'Verified'; registeredAt: string }>
  metadata: Record<string, unknown> | null
}

/** An onboarding document. The bytes are not kept: only their size and SHA-256. */
export interface MerchantFileRecord {
  fileId: string
  merchantId: string
  fileName: string
  /** The type found from the file's first bytes. */
  contentType: 'image/jpeg' | 'image/png' | 'application/pdf'
  /** The type the form part declared (may be absent or differ). */
  declaredContentType: string | null
  size: number
  sha256: string
  /** The `purpose` form field, when sent. */
  purpose: string | null
  /** Other text fields of the form. */
  fields: Record<string, string>
  createdAt: string
}

export interface OwnerRecord {
  ownerId: string
  merchantId: string
  givenName: string
  middleName: string | null
  familyName: string
  dateOfBirth: string | null
  emailAddress: string | null
  phoneNumber: string | null
  role: string | null
  ownershipPercentage: number | null
  address: Address | null
  createdAt: string
  updatedAt: string
}

export type PayoutStatus = 'Pending' | 'Paid'

export interface PayoutRecord {
  payoutId: string
  merchantId: string
  /** Manual (POST /transactions/payouts) or Scheduled (the RunScheduledPayouts simulation). */
  payoutType: 'Manual' | 'Scheduled'
  status: PayoutStatus
  amount: Money
  description: string
  bankAccountId: string
  /** Internal: the previous payout's carried-forward amount counted in this payout (minor units). */
  broughtForward: number
  /** Internal: what the swept entries and the brought-forward amount exceed the payout by. */
  carriedForward: number
  createdAt: string
  updatedAt: string
  expectedArrivalOn: string
  paidAt: string | null
}

export type DisputeStatus = 'Open' | 'Won' | 'Lost'

export interface DisputeRecord {
  disputeId: string
  transactionId: string
  orderId: string
  merchantId: string
  customerId: string | null
  amount: Money
  reason: string
  status: DisputeStatus
  /** Internal: the transaction status before the dispute, restored when it is won. */
  previousTransactionStatus: string
  evidenceDueOn: string
  createdAt: string
  updatedAt: string
  resolvedAt: string | null
}

export interface Instalment {
  /** 0 for an initial payment, then 1, 2, … */
  number: number
  kind: 'InitialPayment' | 'Instalment'
  /** Days after the start of the plan. */
  dayOffset: number
  dueOn: string
  amount: Money
}

export interface PayPlanOfferRecord {
  offerId: string
  merchantId: string
  customerId: string
  amount: Money
  initialPayment: number
  payPlanVariant: string
  instalments: Instalment[]
  createdAt: string
  expiresAt: string
  /** Set when a pay plan is made from the offer. */
  payPlanId: string | null
}

export interface PayPlanRecord {
  payPlanId: string
  offerId: string
  merchantId: string
  customerId: string
  amount: Money
  initialPayment: number
  payPlanVariant: string
  instalments: Instalment[]
  paymentTokenId: string
  createdAt: string
}

export type WebhookSubscriptionStatus = 'Active' | 'Suspended'

export interface WebhookSubscriptionRecord {
  id: string
  level: 'Marketplace' | 'Merchant'
  /** Set on marketplace-level subscriptions. */
  marketplaceId: string | null
  /** Set on merchant-level subscriptions. */
  merchantId: string | null
  url: string
  events: string[]
  description: string | null
  metadata: Record<string, unknown> | null
  status: WebhookSubscriptionStatus
  secret: string
  createdAt: string
  updatedAt: string
}

/** A customer onboarded once by a marketplace, available to all its sub-merchants. */
export interface MarketplaceCustomerRecord {
  marketplaceCustomerId: string
  marketplaceId: string
  emailAddress: string
  phoneNumber: string | null
  givenName: string | null
  middleName: string | null
  familyName: string | null
  referenceCustomerId: string | null
  metadata: Record<string, unknown> | null
  createdAt: string
  updatedAt: string
}

/** A trade-account loan to a merchant: money it owes, drawn on by digital cards. */
export interface LoanRecord {
  loanId: string
  merchantId: string
  loanType: 'TradeAccount'
  status: 'Active' | 'Closed'
  creditLimit: Money
  /** Yearly interest in basis points (the emulator charges it on statements it seeds, not over time). */
  interestRateBasisPoints: number
  openedOn: string
  createdAt: string
  updatedAt: string
}

export interface LoanStatementRecord {
  loanStatementId: string
  loanId: string
  merchantId: string
  periodStart: string
  periodEnd: string
  issuedOn: string
  dueOn: string
  currency: string
  /** The settlement that cleared the statement's amount due; null while unpaid. */
  loanSettlementId: string | null
  createdAt: string
}

export type LoanEntryType = 'Drawdown' | 'Interest' | 'Fee' | 'Repayment'

export interface LoanEntryRecord {
  loanEntryId: string
  loanId: string
  loanStatementId: string
  merchantId: string
  type: LoanEntryType
  /** Signed: positive adds to what the merchant owes, negative (repayments) reduces it. */
  amount: Money
  description: string
  reference: string | null
  createdAt: string
  dueOn: string
}

export type DigitalCardStatus = 'Active' | 'Suspended' | 'Cancelled'

export interface DigitalCardRecord {
  cardId: string
  merchantId: string
  loanId: string | null
  cardholderName: string
  brand: 'Visa'
  last4: string
  expiryMonth: number
  expiryYear: number
  limit: Money
  status: DigitalCardStatus
  createdAt: string
  updatedAt: string
}

/** The collections of these records, with the indexes their lists and lookups use. */
export function accountCollections() {
  return {
    merchantProfiles: new Collection<MerchantProfileRecord>(),
    merchantFiles: new Collection<MerchantFileRecord>({ indexes: byMerchantId }),
    owners: new Collection<OwnerRecord>({ indexes: byMerchantId }),
    payouts: new Collection<PayoutRecord>({ indexes: byMerchantId }),
    disputes: new Collection<DisputeRecord>({ indexes: { ...byMerchantId, transactionId: (d) => d.transactionId, orderId: (d) => d.orderId } }),
    payPlanOffers: new Collection<PayPlanOfferRecord>({ indexes: byMerchantId }),
    payPlans: new Collection<PayPlanRecord>({ indexes: { ...byMerchantId, customerId: (p) => p.customerId } }),
    webhookSubscriptions: new Collection<WebhookSubscriptionRecord>({ indexes: { merchantId: (s) => s.merchantId, marketplaceId: (s) => s.marketplaceId } }),
    marketplaceCustomers: new Collection<MarketplaceCustomerRecord>({ indexes: { marketplaceId: (c) => c.marketplaceId } }),
    loans: new Collection<LoanRecord>({ indexes: byMerchantId }),
    loanStatements: new Collection<LoanStatementRecord>({ indexes: { ...byMerchantId, loanId: (s) => s.loanId } }),
    loanEntries: new Collection<LoanEntryRecord>({ indexes: { ...byMerchantId, loanId: (e) => e.loanId, loanStatementId: (e) => e.loanStatementId } }),
    digitalCards: new Collection<DigitalCardRecord>({ indexes: { ...byMerchantId, loanId: (c) => c.loanId } }),
  }
}
