// The default state: the same ids and keys on every machine and every start (src/well-known.ts),
// so that the built-in `local` profile works against a fresh emulator without any setup.
//   marketplace   WELL_KNOWN.marketplaceId
//   merchant      WELL_KNOWN.merchantId: in the marketplace, a primary bank account, manual
//                 payouts enabled, public key WELL_KNOWN.credentials.merchantPublicKey
//   sub-merchant  WELL_KNOWN.subMerchantId: in the marketplace, a bank account, manual payouts
//                 disabled; reached with the marketplace API key and `Merchant-Id`
//   keys          the marketplace API key, the merchant secret key and the merchant public key
//   loan          SEEDED_LOAN_ID for the merchant, with three monthly statements (resources/loans.ts)
import { WELL_KNOWN } from '../well-known.js'
import type { MerchantRecord, Store } from './store.js'
import { seedLoans } from './resources/loans.js'

/** Creation time of every seeded record (fixed, so that the seed is identical every time). */
export const SEED_TIME = '2025-01-01T00:00:00.000Z'

/** Public key of the seeded sub-merchant (not one of the three well-known credentials, but fixed too). */
export const SUB_MERCHANT_PUBLIC_KEY = 'sandbox_pk_emulatorSubMerchPublic0001'

export function seedStore(store: Store): void {
  const { marketplaceId, merchantId, subMerchantId, credentials } = WELL_KNOWN
  store.marketplaces.set(marketplaceId, {
    marketplaceId,
    name: 'Local Marketplace',
    createdAt: SEED_TIME,
    updatedAt: SEED_TIME,
  })
  const merchant = (
    id: string,
    name: string,
    publicKey: string,
    bank: { id: string; bsb: string; account: string },
    manualPayouts: boolean,
  ): MerchantRecord => ({
    merchantId: id,
    marketplaceId,
    name,
    industry: 'Retail',
    status: 'Active',
    bankAccounts: [{ bankAccountId: bank.id, accountName: name, bsb: bank.bsb, accountNumber: bank.account, isPrimary: true, createdAt: SEED_TIME }],
    publicKey,
    manualPayoutsEnabled: manualPayouts,
    supportsB2B: true,
    currency: 'AUD',
    createdAt: SEED_TIME,
    updatedAt: SEED_TIME,
  })
  store.merchants.set(
    merchantId,
    merchant(merchantId, 'Local Merchant Pty Ltd', credentials.merchantPublicKey, { id: 'bank_LocalMerchBank01', bsb: '062-000', account: '12345678' }, true),
  )
  store.merchants.set(
    subMerchantId,
    merchant(subMerchantId, 'Local Sub-Merchant Pty Ltd', SUB_MERCHANT_PUBLIC_KEY, { id: 'bank_LocalSubMerBank1', bsb: '083-004', account: '87654321' }, false),
  )
  store.apiKeys.set(credentials.marketplaceApiKey, { kind: 'marketplaceApiKey', ownerId: marketplaceId })
  store.apiKeys.set(credentials.merchantSecretKey, { kind: 'merchantSecretKey', ownerId: merchantId })
  store.apiKeys.set(credentials.merchantPublicKey, { kind: 'merchantPublicKey', ownerId: merchantId })
  store.apiKeys.set(SUB_MERCHANT_PUBLIC_KEY, { kind: 'merchantPublicKey', ownerId: subMerchantId })
  seedLoans(store, merchantId)
}
