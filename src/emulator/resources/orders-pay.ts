// Paying an order: POST /orders/{orderId}/pay with one of
//   PayByPayTo {paymentTokenId}                       a PayTo token (from an agreement or a saved PayTo source)
//   PayByCard {paymentTokenId, request3DS?}           a card token (from a saved card)
//   PayByPaymentToken {paymentTokenId}                any token
//   Confirm3DSComplete {paymentTokenId, threeDSResponse, authoriseOnly?}
//                                                     finishes a card payment after its 3DS challenge
// A card payment that needs a challenge (request3DS: true, or a test card that demands one)
// answers 200 `ThreeDSAuthorisationRequired` with the emulator's `challengeUrl` (the challenge
// page, pages/three-ds.ts) and does not use the token. Confirm3DSComplete then follows what the
// customer did there, as recorded (three-ds.ts), never the `threeDSResponse` it carries (field
// notes: the service judges from its own records): passed pays, failed or abandoned refuses,
// no answer yet is "not completed".
//
// The token is claimed (marked used) synchronously, after every check and before anything else
// happens, so of many concurrent pays with one token exactly one succeeds.
import type { Confirm3DSComplete, PayByCard, PayByPaymentToken, PayByPayTo } from '../../client/schemas/orders.js'
import { EmulatorError, conflict, forbidden, notFound, unprocessable } from '../api-error.js'
import { ANY_CREDENTIAL, mayActForMerchant, visibleOr404 } from '../auth.js'
import { DECLINE_MESSAGES } from '../cards.js'
import { timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { THREE_DS_PATH, pageLink } from '../pages/links.js'
import { action, route, type HandlerContext, type HandlerRequest } from '../route.js'
import { getOr404, lookup, type OrderRecord, type ThreeDSRecord, type TokenRecord } from '../store.js'
import { agreementStatus } from './payto.js'
import { tokenStatus } from './tokens.js'
import { createTransaction } from './transaction-captures.js'
import { transactionDetails } from './transaction-details.js'

export type PayVariant = 'PayByPayTo' | 'PayByCard' | 'PayByPaymentToken' | 'Confirm3DSComplete'
type Variant = PayVariant

export interface PayOptions {
  request3DS?: boolean
  confirm?: { authoriseOnly: boolean }
  /** Marks a challenge as started by the checkout page (which finishes the payment itself). */
  checkout?: boolean
}

/** The order to pay, and the namespace its pages are in (for the challenge page's link). */
export interface PayTarget {
  orderId: string
  namespace?: string | undefined
}

function targetOf(req: HandlerRequest): PayTarget {
  return { orderId: req.params.orderId as string, namespace: req.headers['emulator-namespace'] }
}

function payableOrder(ctx: HandlerContext, target: PayTarget): OrderRecord {
  const id = target.orderId
  const order = lookup(ctx.store.orders, id)
  const visible =
    order !== undefined &&
    mayActForMerchant(ctx.store, ctx.scope, order.merchantId) &&
    (ctx.principal.kind !== 'customer' || order.customerId === null || order.customerId === ctx.principal.customerId)
  if (!visible || !order) throw notFound('Order', id)
  if (order.status === 'paid') throw conflict('order_already_paid', 'The order has already been paid')
  if (order.status === 'cancelled') {
    throw conflict(
      'order_cancelled',
      'The order was cancelled and can no longer be paid',
      `Order ${order.orderId} was cancelled at ${order.cancelledAt ?? 'an unknown time'}; create a new order for the customer to pay.`,
    )
  }
  return order
}

function usableToken(ctx: HandlerContext, order: OrderRecord, id: string, variant: Variant): TokenRecord {
  const token = visibleOr404(ctx, ctx.store.tokens, id, 'Payment token')
  const status = tokenStatus(token, ctx.clock.now())
  if (status === 'Used') throw conflict('payment_token_used', 'The payment token has already been used; a token pays once')
  if (status === 'Expired') throw conflict('payment_token_expired', 'The payment token has expired; create a new one')
  if (token.merchantId !== order.merchantId) throw unprocessable('merchant_mismatch', 'The payment token was made for another merchant')
  if (token.amount.minorCurrencyUnits !== order.amount.minorCurrencyUnits || token.amount.currency !== order.amount.currency) {
    throw unprocessable(
      'amount_mismatch',
      `The payment token is for ${token.amount.minorCurrencyUnits} ${token.amount.currency}; the order is for ${order.amount.minorCurrencyUnits} ${order.amount.currency}`,
    )
  }
  if (token.customerId !== null && order.customerId !== null && token.customerId !== order.customerId) {
    throw unprocessable('customer_mismatch', 'The payment token belongs to another customer than the order')
  }
  if (ctx.principal.kind === 'public' && token.paymentSourceId !== null) {
    throw forbidden('customer_source_forbidden', 'A merchant public key cannot use a customer-specific payment source')
  }
  if (ctx.principal.kind === 'customer' && token.customerId !== null && token.customerId !== ctx.principal.customerId) {
    throw forbidden('customer_source_forbidden', 'The payment token belongs to another customer')
  }
  if (variant === 'PayByPayTo' && token.method !== 'PayTo') {
    throw unprocessable('payment_method_mismatch', `PayByPayTo needs a PayTo token; this one is a ${token.method} token`)
  }
  if ((variant === 'PayByCard' || variant === 'Confirm3DSComplete') && token.method !== 'Card') {
    throw unprocessable('payment_method_mismatch', `${variant} needs a card token; this one is a ${token.method} token`)
  }
  return token
}

/** One pay operation, as `POST /orders/{orderId}/pay` runs it (the checkout pages run it too). */
export function payOrder(ctx: HandlerContext, target: PayTarget, variant: Variant, tokenId: string, options: PayOptions = {}) {
  const order = payableOrder(ctx, target)
  const token = usableToken(ctx, order, tokenId, variant)
  const now = ctx.clock.now()
  let decline: string | null = null
  let status: 'paid' | 'accepted' | 'not_captured'

  if (token.method === 'PayTo') {
    const agreement = getOr404(ctx.store.agreements, token.agreementToken as string, 'PayTo agreement')
    const agreementNow = agreementStatus(agreement, now)
    if (agreementNow !== 'Active') throw conflict('agreement_not_active', `The PayTo agreement is ${agreementNow}; the payment cannot be made`)
    if (agreement.agreementType === 'OneOff' && agreement.usedAt !== null) {
      throw conflict('agreement_used', 'This one-off PayTo agreement has already made its payment')
    }
    if (agreement.paymentOutcome !== 'approve') decline = agreement.paymentOutcome
    status = 'paid'
    if (decline === null && agreement.agreementType === 'OneOff') agreement.usedAt = timestamp(now)
  } else if (token.method === 'PayPlan') {
    // A pay plan token (payplans.ts): the loan pays the merchant in full at once.
    status = 'paid'
  } else {
    const source = token.paymentSourceId === null ? undefined : lookup(ctx.store.sources, token.paymentSourceId)
    const behaviour = source?.card?.behaviour ?? token.card?.behaviour ?? 'approve'
    const pending = ctx.store.threeDS
      .byIndex('orderId', order.orderId)
      .filter((c) => c.paymentTokenId === token.paymentTokenId && c.orderId === order.orderId && c.status === 'Pending')
      .at(-1)
    if (options.confirm === undefined) {
      if (options.request3DS === true || behaviour === 'challenge') {
        // A challenge the customer has not answered yet is asked again; an answered one is not.
        const reuse = pending !== undefined && (pending.outcome ?? null) === null ? pending : undefined
        const challenge: ThreeDSRecord = reuse ?? {
          threeDSAuthorisationId: ctx.ids.next('threeds'),
          paymentTokenId: token.paymentTokenId,
          orderId: order.orderId,
          status: 'Pending',
          createdAt: timestamp(now),
          outcome: null,
          checkout: options.checkout === true,
        }
        ctx.store.threeDS.set(challenge.threeDSAuthorisationId, challenge)
        return {
          ThreeDSAuthorisationRequired: {
            threeDSAuthorisationId: challenge.threeDSAuthorisationId,
            paymentTokenId: token.paymentTokenId,
            orderId: order.orderId,
            challengeUrl: pageLink(ctx.baseUrl, target.namespace, `${THREE_DS_PATH}/${challenge.threeDSAuthorisationId}`),
          },
        }
      }
    } else {
      if (!pending) throw conflict('three_ds_not_pending', 'There is no 3DS challenge waiting for this order and payment token; pay with PayByCard first')
      judgeChallenge(pending)
    }
    if (behaviour !== 'approve' && behaviour !== 'challenge') decline = behaviour
    status = options.confirm?.authoriseOnly === true ? 'not_captured' : 'accepted'
  }

  // Claim the token: every check has passed, nothing can fail between here and the answer.
  token.usedAt = timestamp(now)
  token.usedByOrderId = order.orderId

  if (decline !== null) {
    const message = DECLINE_MESSAGES[decline] ?? 'The payment was declined'
    const txn = createTransaction(ctx, { order, token, status: 'failed', paymentFailure: { errorCode: decline, message } })
    emitEvent(ctx, 'TransactionFailed', order.merchantId, { transactionId: txn.transactionId, orderId: order.orderId, errorCode: decline })
    throw new EmulatorError(400, decline, message, {
      detail: `Transaction ${txn.transactionId} failed; the order can be paid again with a new payment token`,
      metadata: { transactionId: txn.transactionId },
    })
  }

  const txn = createTransaction(ctx, { order, token, status })
  order.status = 'paid'
  order.transactionId = txn.transactionId
  order.updatedAt = timestamp(now)
  ctx.store.orders.reindex(order.orderId)
  return {
    PayOrderComplete: {
      transactionId: txn.transactionId,
      transactionStatus: status,
      transactionDetails: transactionDetails(txn),
      amount: order.amount.minorCurrencyUnits,
      currency: order.amount.currency,
      surchargeAmount: token.surchargeAmount,
      payType: token.payType,
    },
  }
}

/** Confirm3DSComplete by the challenge's recorded outcome: passes, or throws (the challenge then ends, unless unanswered). */
function judgeChallenge(challenge: ThreeDSRecord): void {
  const outcome = challenge.outcome ?? null
  if (outcome === null) {
    throw conflict(
      'three_ds_not_completed',
      'The customer has not completed the 3DS challenge yet; the payment was not made',
      `Open the challengeUrl of ThreeDSAuthorisationRequired in a browser, or record the outcome with the SetThreeDSOutcome simulation (challenge ${challenge.threeDSAuthorisationId})`,
    )
  }
  if (outcome === 'failed') {
    challenge.status = 'Failed'
    throw new EmulatorError(400, 'three_ds_failed', 'The 3DS challenge was not passed; the payment was not made')
  }
  if (outcome === 'abandoned') {
    challenge.status = 'Abandoned'
    throw new EmulatorError(400, 'three_ds_abandoned', 'The customer abandoned the 3DS challenge; the payment was not made')
  }
  challenge.status = 'Completed'
}

export const routes = [
  route({
    method: 'POST',
    path: '/orders/{orderId}/pay',
    allow: ANY_CREDENTIAL,
    actions: {
      PayByPayTo: action<PayByPayTo>((ctx, body, req) => payOrder(ctx, targetOf(req), 'PayByPayTo', body.paymentTokenId)),
      PayByCard: action<PayByCard>((ctx, body, req) =>
        payOrder(ctx, targetOf(req), 'PayByCard', body.paymentTokenId, { request3DS: body.request3DS ?? false }),
      ),
      PayByPaymentToken: action<PayByPaymentToken>((ctx, body, req) => payOrder(ctx, targetOf(req), 'PayByPaymentToken', body.paymentTokenId)),
      // `threeDSResponse` is checked (shared schema) but not read: the recorded outcome decides.
      Confirm3DSComplete: action<Confirm3DSComplete>((ctx, body, req) =>
        payOrder(ctx, targetOf(req), 'Confirm3DSComplete', body.paymentTokenId, { confirm: { authoriseOnly: body.authoriseOnly ?? false } }),
      ),
    },
  }),
]
