// Records of customers, their delegates and checkout sessions (customers.ts, auth.ts), and their
// collections with the indexes the lists and upserts use.
import { Collection, byMerchantId, lowercase } from '../collection.js'

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

export function customerCollections() {
  return {
    /** Keyed by the customer token. */
    customerSessions: new Collection<CustomerSession>(),
    customers: new Collection<CustomerRecord>({
      indexes: { ...byMerchantId, emailAddress: (c) => lowercase(c.emailAddress), referenceCustomerId: (c) => c.referenceCustomerId },
    }),
    delegates: new Collection<DelegateRecord>({
      indexes: { ...byMerchantId, customerId: (d) => d.customerId, emailAddress: (d) => lowercase(d.emailAddress) },
    }),
  }
}
