// Orders: list, create (online or pay-by-link), pay, get, cancel, update.
import { ResponseFormatError } from '../errors.js'
import type { Page } from '../pagination.js'
import { Order, ThreeDSAuthorisationRequired } from '../schemas/orders.js'
import { PayOrderComplete } from '../schemas/transactions.js'
import {
  type CallOptions,
  type Core,
  type EnvelopeInput,
  type IterateCallOptions,
  type ListQuery,
  answerError,
  checkEnvelope,
  isObject,
  openAnswer,
  parseAnswer,
  path,
} from '../core.js'

/** Filters of `GET /orders` (beyond paging the contract shows none; these are passed as given). */
export type OrderQuery = ListQuery & {
  orderId?: string | string[] | undefined
  referenceOrderId?: string | undefined
  customerEmailAddress?: string | undefined
  status?: string | undefined
  createdAfter?: string | undefined
  createdBefore?: string | undefined
}

export type CreateOrderEnvelope = EnvelopeInput<'POST /orders'>
export type PayOrderEnvelope = EnvelopeInput<'POST /orders/{orderId}/pay'>
export type UpdateOrderEnvelope = EnvelopeInput<'PATCH /orders/{orderId}'>

/** The outcome of pay: a transaction, or a 3DS challenge to run in the browser (not an error). */
export type PayResult =
  | { kind: 'PayOrderComplete'; transaction: PayOrderComplete }
  | { kind: 'ThreeDSAuthorisationRequired'; challenge: ThreeDSAuthorisationRequired }

export interface OrdersResource {
  list(query?: OrderQuery, call?: CallOptions): Promise<Page<Order>>
  iterate(query?: OrderQuery, options?: IterateCallOptions): AsyncIterable<Order>
  /**
   * `POST /orders` with `CreateOnlineOrder` or `CreatePayByLinkOrder`; returns the bare order
   * (fields the answer puts beside the order, such as `payByLinkUrl`, are copied onto it).
   */
  create(envelope: CreateOrderEnvelope, call?: CallOptions): Promise<Order>
  /** `POST /orders/{id}/pay`. Never retried once sent. */
  pay(orderId: string, envelope: PayOrderEnvelope, call?: CallOptions): Promise<PayResult>
  get(orderId: string, call?: CallOptions): Promise<Order>
  /** `DELETE /orders/{id}`: the order can no longer be paid. Returns the order. */
  cancel(orderId: string, call?: CallOptions): Promise<Order>
  /** `PATCH /orders/{id}` with an action envelope (`UpdateReferenceOrderId`). */
  update(orderId: string, envelope: UpdateOrderEnvelope, call?: CallOptions): Promise<Order>
  /** Shorthand for update with `UpdateReferenceOrderId`. */
  setReference(orderId: string, referenceOrderId: string, call?: CallOptions): Promise<Order>
}

export function ordersResource(core: Core): OrdersResource {
  const get = async (orderId: string, call?: CallOptions) => core.json('GET', path`/orders/${orderId}`, Order, { call })

  /**
   * An order answer: bare, `{Kind: {order, ...}}` or `{Kind: order}`. Fields beside `order`
   * (such as a pay-by-link URL) are kept on the returned order unless the order has its own.
   */
  const readOrder = (body: unknown, at: { method: string; path: string; status: number }): Order => {
    const withSiblings = (holder: Record<string, unknown>, label: string): Order => {
      const { order, ...siblings } = holder
      const parsed = parseAnswer(Order, order, at, label)
      return { ...siblings, ...parsed }
    }
    if (isObject(body) && Object.keys(body).length === 1 && !('orderId' in body)) {
      const { kind, value } = openAnswer(body, at)
      if (isObject(value) && isObject(value.order)) return withSiblings(value, `${kind}.order`)
      return parseAnswer(Order, value, at, kind)
    }
    if (isObject(body) && isObject(body.order) && !('orderId' in body)) return withSiblings(body, 'order')
    return parseAnswer(Order, body, at)
  }

  const update = async (orderId: string, envelope: UpdateOrderEnvelope, call?: CallOptions): Promise<Order> => {
    const body = checkEnvelope('PATCH /orders/{orderId}', envelope)
    const p = path`/orders/${orderId}`
    const response = await core.send('PATCH', p, { body, call })
    return readOrder(response.body, { method: 'PATCH', path: p, status: response.status })
  }

  return {
    list: async (query = {}, call) => core.list('/orders', Order, query, call),
    iterate: (query = {}, options = {}) => core.iterate('/orders', Order, query, options),

    async create(envelope, call) {
      const body = checkEnvelope('POST /orders', envelope)
      const response = await core.send('POST', '/orders', { body, call })
      return readOrder(response.body, { method: 'POST', path: '/orders', status: response.status })
    },

    async pay(orderId, envelope, call) {
      const body = checkEnvelope('POST /orders/{orderId}/pay', envelope)
      const p = path`/orders/${orderId}/pay`
      const response = await core.send('POST', p, { body, call })
      const at = { method: 'POST', path: p, status: response.status }
      const { kind, value } = openAnswer(response.body, at)
      if (kind === 'PayOrderComplete') {
        return { kind, transaction: parseAnswer(PayOrderComplete, value, at, kind) }
      }
      if (kind === 'ThreeDSAuthorisationRequired') {
        return { kind, challenge: parseAnswer(ThreeDSAuthorisationRequired, value, at, kind) }
      }
      throw answerError(new ResponseFormatError({ ...at, body: response.body, reason: `unknown pay answer "${kind}"` }))
    },

    get,

    async cancel(orderId, call) {
      const p = path`/orders/${orderId}`
      const response = await core.send('DELETE', p, { call })
      // Real services answer with the order; an empty answer is followed by a read.
      if (response.body === undefined) return get(orderId, call)
      return readOrder(response.body, { method: 'DELETE', path: p, status: response.status })
    },

    update,
    setReference: async (orderId, referenceOrderId, call) => update(orderId, { UpdateReferenceOrderId: { referenceOrderId } }, call),
  }
}
