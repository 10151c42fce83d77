// Marketplaces: read one, and upsert a marketplace customer.
import { AnyObject } from '../schemas/common.js'
import { Marketplace, MarketplaceCustomerUpsert } from '../schemas/marketplaces.js'
import { type CallOptions, type Core, checkBody, path } from '../core.js'

export interface MarketplacesResource {
  get(marketplaceId: string, call?: CallOptions): Promise<Marketplace>
  /** `POST /marketplaces/customer`; body and answer not shown. */
  upsertCustomer(body: Record<string, unknown>, call?: CallOptions): Promise<AnyObject>
}

export function marketplacesResource(core: Core): MarketplacesResource {
  return {
    get: async (id, call) => core.json('GET', path`/marketplaces/${id}`, Marketplace, { call }),
    upsertCustomer: async (body, call) =>
      core.json('POST', '/marketplaces/customer', AnyObject, {
        body: checkBody(MarketplaceCustomerUpsert, body, 'marketplace customer'),
        call,
      }),
  }
}
