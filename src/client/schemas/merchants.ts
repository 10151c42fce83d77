// Merchants: the record, onboarding bodies, balances, files, owners, industries and wallet-pay
// domains. The contract does not show their shapes, so everything here is a loose object.
import { z } from 'zod'
import { AnyObject } from './common.js'

export const Merchant = z.looseObject({ merchantId: z.string().nullish() })
export type Merchant = z.infer<typeof Merchant>

export const CreateMerchant = AnyObject
export const AddMerchantBankAccount = AnyObject
export const SetMerchantPrimaryBankAccount = AnyObject
export const UpdateMerchantBusinessProfile = AnyObject

export const MerchantBalances = AnyObject
export type MerchantBalances = z.infer<typeof MerchantBalances>
export const MerchantFile = AnyObject
export type MerchantFile = z.infer<typeof MerchantFile>
export const BeneficialOwner = AnyObject
export type BeneficialOwner = z.infer<typeof BeneficialOwner>
/** Industries: the answer's shape is not shown (an array or an object). */
export const Industries = z.unknown()
export type Industries = z.infer<typeof Industries>
export const WalletPayDomains = z.unknown()
export type WalletPayDomains = z.infer<typeof WalletPayDomains>
