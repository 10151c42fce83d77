// Digital card issuing.
import type { Page } from '../pagination.js'
import { AnyObject } from '../schemas/common.js'
import { DigitalCard, DigitalCardRequest } from '../schemas/cards.js'
import { type CallOptions, type Core, type IterateCallOptions, type ListQuery, checkBody } from '../core.js'

export interface CardsResource {
  /** `POST /issuer/card`: administer digital card(s); body and answer not shown. */
  create(body: Record<string, unknown>, call?: CallOptions): Promise<AnyObject>
  list(query?: ListQuery, call?: CallOptions): Promise<Page<DigitalCard>>
  iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<DigitalCard>
}

export function cardsResource(core: Core): CardsResource {
  return {
    create: async (body, call) => core.json('POST', '/issuer/card', AnyObject, { body: checkBody(DigitalCardRequest, body, 'card request'), call }),
    list: async (query = {}, call) => core.list('/issuer/card', DigitalCard, query, call),
    iterate: (query = {}, options = {}) => core.iterate('/issuer/card', DigitalCard, query, options),
  }
}
