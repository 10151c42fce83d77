// createClient(): one Transport, one Core, and a namespace per resource group.
import { z } from 'zod'
import { type CallOptions, Core, type IterateCallOptions, type QueryInput } from './core.js'
import type { Page } from './pagination.js'
import { applyTransportRules } from './local-transport.js'
import { type AuthResource, authResource } from './resources/auth.js'
import { type CardsResource, cardsResource } from './resources/cards.js'
import { type CustomersResource, customersResource } from './resources/customers.js'
import { type LoansResource, loansResource } from './resources/loans.js'
import { type MarketplacesResource, marketplacesResource } from './resources/marketplaces.js'
import { type MerchantsResource, merchantsResource } from './resources/merchants.js'
import { type OrdersResource, ordersResource } from './resources/orders.js'
import { type PayPlansResource, payPlansResource } from './resources/payplans.js'
import { type PayToResource, payToResource } from './resources/payto.js'
import { type SimulationResource, simulationResource } from './resources/simulation.js'
import { type SourcesResource, sourcesResource } from './resources/sources.js'
import { type TokensResource, tokensResource } from './resources/tokens.js'
import { type TransactionsResource, transactionsResource } from './resources/transactions.js'
import { type WebhooksResource, webhooksResource } from './resources/webhooks.js'
import { type ClientOptions, type Query, type RawRequest, type RawResponse, Transport } from './transport.js'

export type { ClientOptions } from './transport.js'

export interface PayfacClient {
  /** Any operation, as given: no body validation, JSON answer by default. */
  request<B = unknown>(raw: RawRequest): Promise<RawResponse<B>>
  /** One page of any paginated list. */
  list<T = unknown>(path: string, query?: Query | QueryInput, call?: CallOptions): Promise<Page<T>>
  /** Every record of any paginated list, lazily. */
  iterate<T = unknown>(path: string, query?: Query | QueryInput, options?: IterateCallOptions): AsyncIterable<T>

  auth: AuthResource
  customers: CustomersResource
  merchants: MerchantsResource
  sources: SourcesResource
  tokens: TokensResource
  payplans: PayPlansResource
  orders: OrdersResource
  transactions: TransactionsResource
  marketplaces: MarketplacesResource
  webhooks: WebhooksResource
  loans: LoansResource
  cards: CardsResource
  payto: PayToResource
  simulation: SimulationResource
}

/** The schema of the generic list and iterate: records of any shape. */
const Anything = z.unknown()

/**
 * A client for one base URL and credential. Refuses a live key over plain http to anything but
 * this machine, and resolves `localhost` names itself (local-transport.ts, README "Transport rules").
 */
export function createClient(options: ClientOptions): PayfacClient {
  const transport = new Transport(applyTransportRules(options))
  const core = new Core(transport)
  return {
    request: (raw) => core.request(raw),
    list: (path, query = {}, call) => core.list(path, Anything, query, call) as Promise<Page<never>>,
    iterate: (path, query = {}, iterateOptions = {}) => core.iterate(path, Anything, query, iterateOptions) as AsyncIterable<never>,
    auth: authResource(core),
    customers: customersResource(core),
    merchants: merchantsResource(core),
    sources: sourcesResource(core),
    tokens: tokensResource(core),
    payplans: payPlansResource(core),
    orders: ordersResource(core),
    transactions: transactionsResource(core),
    marketplaces: marketplacesResource(core),
    webhooks: webhooksResource(core),
    loans: loansResource(core),
    cards: cardsResource(core),
    payto: payToResource(core),
    simulation: simulationResource(core),
  }
}
