// Payment sources and blocked-card events.
import { z } from 'zod'
import type { Page } from '../pagination.js'
import { AnyObject } from '../schemas/common.js'
import { BlockedCardEvent, PaymentSource } from '../schemas/sources.js'
import { type CallOptions, type Core, type EnvelopeInput, type IterateCallOptions, type ListQuery, checkEnvelope, path } from '../core.js'

export type CreateSourceEnvelope = EnvelopeInput<'POST /sources'>
export type BlockedCardEnvelope = EnvelopeInput<'PATCH /sources/blockedcards/{cardBlockId}'>

export interface SourcesResource {
  get(sourceId: string, call?: CallOptions): Promise<PaymentSource>
  /** Answer not shown: the parsed JSON, or undefined when empty. */
  delete(sourceId: string, call?: CallOptions): Promise<unknown>
  /** `POST /sources` with `CreateSavedPaymentSource` (PayTo agreement) or `CreateCardPaymentSource`. */
  create(envelope: CreateSourceEnvelope, call?: CallOptions): Promise<PaymentSource>
  list(query?: ListQuery, call?: CallOptions): Promise<Page<PaymentSource>>
  iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<PaymentSource>
  blockedCards: {
    list(query?: ListQuery, call?: CallOptions): Promise<Page<BlockedCardEvent>>
    iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<BlockedCardEvent>
    update(cardBlockId: string, envelope: BlockedCardEnvelope, call?: CallOptions): Promise<BlockedCardEvent>
  }
}

export function sourcesResource(core: Core): SourcesResource {
  return {
    get: async (id, call) => core.json('GET', path`/sources/${id}`, PaymentSource, { call }),
    delete: async (id, call) => core.json('DELETE', path`/sources/${id}`, z.unknown(), { call }),
    create: async (envelope, call) => core.json('POST', '/sources', PaymentSource, { body: checkEnvelope('POST /sources', envelope), call }),
    list: async (query = {}, call) => core.list('/sources', PaymentSource, query, call),
    iterate: (query = {}, options = {}) => core.iterate('/sources', PaymentSource, query, options),
    blockedCards: {
      list: async (query = {}, call) => core.list('/sources/blockedcards', BlockedCardEvent, query, call),
      iterate: (query = {}, options = {}) => core.iterate('/sources/blockedcards', BlockedCardEvent, query, options),
      update: async (id, envelope, call) =>
        core.json('PATCH', path`/sources/blockedcards/${id}`, AnyObject, {
          body: checkEnvelope('PATCH /sources/blockedcards/{cardBlockId}', envelope),
          call,
        }),
    },
  }
}
