// Merchants, marketplaces, loans, digital cards and simulation: records and bodies the contract
// does not show, so everything here is a loose object.
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

export const Marketplace = z.looseObject({ marketplaceId: z.string().nullish() })
export type Marketplace = z.infer<typeof Marketplace>
export const MarketplaceCustomerUpsert = AnyObject

export const Loan = AnyObject
export type Loan = z.infer<typeof Loan>
export const LoanStatement = AnyObject
export type LoanStatement = z.infer<typeof LoanStatement>
export const LoanStatementEntry = AnyObject
export type LoanStatementEntry = z.infer<typeof LoanStatementEntry>

export const DigitalCardRequest = AnyObject
export const DigitalCard = AnyObject
export type DigitalCard = z.infer<typeof DigitalCard>

export const SimulationRequest = AnyObject
