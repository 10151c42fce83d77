// Marketplaces and the customers they onboard once: shapes the contract does not show (loose).
import { z } from 'zod'
import { AnyObject } from './common.js'

export const Marketplace = z.looseObject({ marketplaceId: z.string().nullish() })
export type Marketplace = z.infer<typeof Marketplace>
export const MarketplaceCustomerUpsert = AnyObject
