// Customers, customer delegates and the KYC check.
import { z } from 'zod'
import type { Page } from '../pagination.js'
import { Customer, CustomerDelegate, CustomerUpserted, KycRequest, KycResult, UpsertCustomerDelegate } from '../schemas/customers.js'
import { type CallOptions, type Core, type EnvelopeInput, type IterateCallOptions, type ListQuery, checkBody, checkEnvelope, path } from '../core.js'

/** Customer list filters seen in real integrations. */
export type CustomerQuery = ListQuery & {
  emailAddress?: string | string[] | undefined
  customerId?: string | string[] | undefined
  merchantId?: string | string[] | undefined
  name?: string | undefined
  createdAfter?: string | undefined
  createdBefore?: string | undefined
}

export type UpsertCustomerEnvelope = EnvelopeInput<'POST /customers'>
export type DelegateActionEnvelope = EnvelopeInput<'PATCH /customers/delegates/{customerDelegateId}'>

export interface CustomersResource {
  list(query?: CustomerQuery, call?: CallOptions): Promise<Page<Customer>>
  iterate(query?: CustomerQuery, options?: IterateCallOptions): AsyncIterable<Customer>
  /** `POST /customers` with `UpsertConsumerCustomer` or `UpsertOrganisationCustomer`. */
  upsert(envelope: UpsertCustomerEnvelope, call?: CallOptions): Promise<CustomerUpserted>
  get(customerId: string, call?: CallOptions): Promise<Customer>
  /** `POST /customers/kyc` (experimental); body and answer not shown. */
  kyc(body: Record<string, unknown>, call?: CallOptions): Promise<KycResult>
  delegates: {
    list(query?: ListQuery, call?: CallOptions): Promise<Page<CustomerDelegate>>
    iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<CustomerDelegate>
    get(customerDelegateId: string, call?: CallOptions): Promise<CustomerDelegate>
    update(customerDelegateId: string, envelope: DelegateActionEnvelope, call?: CallOptions): Promise<CustomerDelegate>
    upsert(body: Record<string, unknown>, call?: CallOptions): Promise<CustomerDelegate>
    /** Answer not shown: the parsed JSON, or undefined when empty. */
    delete(customerDelegateId: string, call?: CallOptions): Promise<unknown>
  }
}

export function customersResource(core: Core): CustomersResource {
  return {
    list: async (query = {}, call) => core.list('/customers', Customer, query, call),
    iterate: (query = {}, options = {}) => core.iterate('/customers', Customer, query, options),
    upsert: async (envelope, call) => core.json('POST', '/customers', CustomerUpserted, { body: checkEnvelope('POST /customers', envelope), call }),
    get: async (customerId, call) => core.json('GET', path`/customers/${customerId}`, Customer, { call }),
    kyc: async (body, call) => core.json('POST', '/customers/kyc', KycResult, { body: checkBody(KycRequest, body, 'KYC request'), call }),
    delegates: {
      list: async (query = {}, call) => core.list('/customers/delegates', CustomerDelegate, query, call),
      iterate: (query = {}, options = {}) => core.iterate('/customers/delegates', CustomerDelegate, query, options),
      get: async (id, call) => core.json('GET', path`/customers/delegates/${id}`, CustomerDelegate, { call }),
      update: async (id, envelope, call) =>
        core.json('PATCH', path`/customers/delegates/${id}`, CustomerDelegate, {
          body: checkEnvelope('PATCH /customers/delegates/{customerDelegateId}', envelope),
          call,
        }),
      upsert: async (body, call) =>
        core.json('POST', '/customers/delegates', CustomerDelegate, {
          body: checkBody(UpsertCustomerDelegate, body, 'customer delegate'),
          call,
        }),
      delete: async (id, call) => core.json('DELETE', path`/customers/delegates/${id}`, z.unknown(), { call }),
    },
  }
}
