// 3-D Secure challenges after they are asked for (orders-pay.ts asks): what the customer did on
// the challenge page (pages/three-ds.ts), or what a headless test says they did with the
// `SetThreeDSOutcome` simulation. Confirm3DSComplete follows the outcome recorded here.
import { z } from 'zod'
import { conflict, notFound } from '../api-error.js'
import { mayActForMerchant } from '../auth.js'
import { action, type ActionSpec, type HandlerContext } from '../route.js'
import { lookup, type ThreeDSOutcome, type ThreeDSRecord } from '../store.js'

export const THREE_DS_OUTCOMES: readonly ThreeDSOutcome[] = ['passed', 'failed', 'abandoned']

/** The challenge as the emulator shows it (the simulation's answer). */
export function challengeView(challenge: ThreeDSRecord) {
  return {
    threeDSAuthorisationId: challenge.threeDSAuthorisationId,
    orderId: challenge.orderId,
    paymentTokenId: challenge.paymentTokenId,
    status: challenge.status,
    outcome: challenge.outcome ?? null,
    createdAt: challenge.createdAt,
  }
}

/** Records the customer's answer to a challenge still waiting for Confirm3DSComplete (409 otherwise). */
export function recordOutcome(challenge: ThreeDSRecord, outcome: ThreeDSOutcome): void {
  if (challenge.status !== 'Pending') {
    throw conflict('three_ds_not_pending', `The 3DS challenge ${challenge.threeDSAuthorisationId} is ${challenge.status}; it can no longer be answered`)
  }
  challenge.outcome = outcome
}

function visibleChallenge(ctx: HandlerContext, id: string): ThreeDSRecord {
  const challenge = lookup(ctx.store.threeDS, id)
  const order = challenge === undefined ? undefined : lookup(ctx.store.orders, challenge.orderId)
  if (!challenge || !order || !mayActForMerchant(ctx.store, ctx.scope, order.merchantId)) throw notFound('3DS challenge', id)
  return challenge
}

export const threeDSActions: Record<string, ActionSpec> = {
  /** What the customer did on the challenge page, for tests without a browser. */
  SetThreeDSOutcome: action(
    z.strictObject({ threeDSAuthorisationId: z.string().min(1), outcome: z.enum(THREE_DS_OUTCOMES as [ThreeDSOutcome, ...ThreeDSOutcome[]]) }),
    (ctx, body) => {
      const challenge = visibleChallenge(ctx, body.threeDSAuthorisationId)
      recordOutcome(challenge, body.outcome)
      return challengeView(challenge)
    },
  ),
}
