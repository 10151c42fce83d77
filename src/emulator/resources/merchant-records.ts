// Records of merchants and their credentials (merchants.ts, marketplaces.ts, auth.ts), and their
// collections with the indexes the lists and lookups use.
import { Collection } from '../collection.js'

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

export function merchantCollections() {
  return {
    marketplaces: new Collection<MarketplaceRecord>(),
    merchants: new Collection<MerchantRecord>({ indexes: { marketplaceId: (m) => m.marketplaceId } }),
    /** Keyed by the key text. */
    apiKeys: new Collection<ApiKeyRecord>(),
    serviceTokens: new Collection<ServiceTokenRecord>({
      indexes: { token: (t) => t.token, merchantId: (t) => t.merchantId, marketplaceId: (t) => t.marketplaceId },
    }),
  }
}
