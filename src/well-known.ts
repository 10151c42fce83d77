// The emulator's default seed: the same ids and keys on every machine, documented in
// docs/emulator.md. The built-in `local` profile (config) and the emulator's seed both read
// them from here, so the two can never drift apart. Nothing here is a secret: these keys only
// open a local emulator.

export const LOCAL_BASE_URL = 'http://127.0.0.1:4010'
export const LOCAL_PORT = 4010

export const WELL_KNOWN = {
  marketplaceId: 'mktp_LocalMarket00001',
  merchantId: 'mcht_LocalMerchant001',
  subMerchantId: 'mcht_LocalSubMerch001',
  credentials: {
    marketplaceApiKey: 'sandbox_api_emulatorMarketplaceKey0001',
    merchantSecretKey: 'sandbox_sk_emulatorMerchantSecret0001',
    merchantPublicKey: 'sandbox_pk_emulatorMerchantPublic0001',
  },
} as const
