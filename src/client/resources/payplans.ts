// Pay plans: offers, plans, eligibility and parameters.
import type { Page } from '../pagination.js'
import { CreatePayPlan, PayPlan, PayPlanMaxRequest, PayPlanOffer, PayPlanOfferRequest, PayPlanParametersRequest } from '../schemas/payplans.js'
import { AnyObject } from '../schemas/common.js'
import { type CallOptions, type Core, type IterateCallOptions, type ListQuery, checkBody, path } from '../core.js'

export interface PayPlansResource {
  /** `POST /payplans/offer`; valid for 10 minutes. The customer comes from the JWT, `customerId` or `Customer-Id`. */
  offer(body: PayPlanOfferRequest, call?: CallOptions): Promise<PayPlanOffer>
  list(query?: ListQuery, call?: CallOptions): Promise<Page<PayPlan>>
  iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<PayPlan>
  /** `POST /payplans`: a pay plan and a payment token from a successful offer; body not shown. */
  create(body: Record<string, unknown>, call?: CallOptions): Promise<PayPlan>
  get(payPlanId: string, call?: CallOptions): Promise<PayPlan>
  max(body: Record<string, unknown>, call?: CallOptions): Promise<AnyObject>
  /** Beta. */
  parameters(body: Record<string, unknown>, call?: CallOptions): Promise<AnyObject>
}

export function payPlansResource(core: Core): PayPlansResource {
  return {
    offer: async (body, call) => core.json('POST', '/payplans/offer', PayPlanOffer, { body: checkBody(PayPlanOfferRequest, body, 'pay plan offer'), call }),
    list: async (query = {}, call) => core.list('/payplans', PayPlan, query, call),
    iterate: (query = {}, options = {}) => core.iterate('/payplans', PayPlan, query, options),
    create: async (body, call) => core.json('POST', '/payplans', PayPlan, { body: checkBody(CreatePayPlan, body, 'pay plan'), call }),
    get: async (id, call) => core.json('GET', path`/payplans/${id}`, PayPlan, { call }),
    max: async (body, call) => core.json('POST', '/payplans/max', AnyObject, { body: checkBody(PayPlanMaxRequest, body, 'pay plan maximum request'), call }),
    parameters: async (body, call) =>
      core.json('POST', '/payplans/parameters', AnyObject, {
        body: checkBody(PayPlanParametersRequest, body, 'pay plan parameters request'),
        call,
      }),
  }
}
