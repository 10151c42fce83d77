// The single-key envelopes of the contract, per operation: which discriminator keys an operation
// accepts and the body schema of each. The client validates what it sends with this table and
// the emulator validates what it receives with the same table.
import type { z } from 'zod'
import { AnyObject, describeIssues } from './common.js'
import * as auth from './auth.js'
import * as customers from './customers.js'
import * as merchants from './merchants.js'
import * as orders from './orders.js'
import * as payplans from './payplans.js'
import * as payto from './payto.js'
import * as sources from './sources.js'
import * as tokens from './tokens.js'
import * as transactions from './transactions.js'
import * as webhooks from './webhooks.js'

/**
 * Per `METHOD /path/{template}`: the accepted discriminator keys and the schema of each value.
 * Kinds whose fields the contract does not show accept any object.
 */
export const ACTIONS = {
  'POST /auth/signin': {
    SignInConsumer: auth.SignInConsumer,
    SignInDelegate: auth.SignInDelegate,
    SignInDelegateByReferenceId: auth.SignInDelegateByReferenceId,
  },
  'POST /auth/servicetokens': { CreateServiceToken: auth.CreateServiceToken },
  'PATCH /auth/servicetokens/{serviceTokenId}': { UpdateServiceToken: auth.UpdateServiceToken },
  'POST /customers': {
    UpsertConsumerCustomer: customers.UpsertConsumerCustomer,
    UpsertOrganisationCustomer: customers.UpsertOrganisationCustomer,
    /** What the service's shop plug-in sends to register a shopper (field notes). */
    RegisterPluginConsumerCustomer: customers.RegisterPluginConsumerCustomer,
  },
  'PATCH /customers/delegates/{customerDelegateId}': { LinkDelegateToCustomer: customers.LinkDelegateToCustomer },
  'PATCH /merchants/{merchantId}': {
    AddMerchantBankAccount: merchants.AddMerchantBankAccount,
    SetMerchantPrimaryBankAccount: merchants.SetMerchantPrimaryBankAccount,
    UpdateMerchantBusinessProfile: merchants.UpdateMerchantBusinessProfile,
  },
  'POST /sources': {
    CreateSavedPaymentSource: sources.CreateSavedPaymentSource,
    CreateCardPaymentSource: sources.CreateCardPaymentSource,
  },
  /** Blocked-card actions are not named by the contract: any single key passes. */
  'PATCH /sources/blockedcards/{cardBlockId}': '*',
  'POST /tokens': {
    CreatePayToToken: tokens.CreatePayToToken,
    CreateSavedPaymentSourceToken: tokens.CreateSavedPaymentSourceToken,
    CardPaymentSourceId: tokens.CardPaymentSourceId,
    CreateApplePayToken: tokens.CreateApplePayToken,
  },
  'POST /orders': {
    CreateOnlineOrder: orders.CreateOnlineOrder,
    CreatePayByLinkOrder: orders.CreatePayByLinkOrder,
    /** The name real integrations use for the same variant. */
    CreatePayByLink: orders.CreatePayByLinkOrder,
  },
  'POST /orders/{orderId}/pay': {
    PayByPayTo: orders.PayByPayTo,
    PayByCard: orders.PayByCard,
    PayByPaymentToken: orders.PayByPaymentToken,
    Confirm3DSComplete: orders.Confirm3DSComplete,
  },
  'PATCH /orders/{orderId}': { UpdateReferenceOrderId: orders.UpdateReferenceOrderId },
  'PATCH /transactions/{transactionId}': {
    CreateRefund: transactions.CreateRefund,
    ReverseFundsTransfer: transactions.ReverseFundsTransfer,
    TransferFunds: transactions.TransferFunds,
    CaptureFunds: transactions.CaptureFunds,
    CancelAuthorisation: transactions.CancelAuthorisation,
  },
  'POST /webhooks': {
    CreateWebhookMarketplaceSubscription: webhooks.CreateWebhookMarketplaceSubscription,
    CreateWebhookMerchantSubscription: webhooks.CreateWebhookMerchantSubscription,
  },
  'PATCH /webhooks/{id}': { UpdateWebhookSubscriptionStatus: webhooks.UpdateWebhookSubscriptionStatus },
} as const satisfies Record<string, Record<string, z.ZodType> | '*'>

export type ActionRoute = keyof typeof ACTIONS

/** Request bodies with a shape but no envelope. */
export const BODIES = {
  'POST /payplans/offer': payplans.PayPlanOfferRequest,
  'POST /payto/agreement': payto.SendAgreement,
} as const satisfies Record<string, z.ZodType>

export type BodyRoute = keyof typeof BODIES

/** The discriminator keys an action route accepts, or undefined when any key is accepted. */
export function actionKinds(route: ActionRoute): string[] | undefined {
  const spec = ACTIONS[route]
  return spec === '*' ? undefined : Object.keys(spec)
}

/**
 * Finds the template that matches a concrete request (`PATCH`, `/orders/ordr_x`) among `routes`
 * (by default the action routes). Literal segments win over `{placeholders}`.
 */
export function matchRoute<R extends string>(method: string, path: string, routes: readonly R[] = Object.keys(ACTIONS) as unknown as R[]): R | undefined {
  const wanted = method.toUpperCase()
  const segments = splitPath(path)
  let best: R | undefined
  let bestScore = -1
  for (const route of routes) {
    const space = route.indexOf(' ')
    if (route.slice(0, space) !== wanted) continue
    const template = splitPath(route.slice(space + 1))
    if (template.length !== segments.length) continue
    let score = 0
    let ok = true
    for (let i = 0; i < template.length; i++) {
      const part = template[i] as string
      if (part.startsWith('{') && part.endsWith('}')) {
        if (!segments[i]) ok = false
      } else if (part === segments[i]) {
        score++
      } else {
        ok = false
      }
      if (!ok) break
    }
    if (ok && score > bestScore) {
      best = route
      bestScore = score
    }
  }
  return best
}

function splitPath(path: string): string[] {
  const bare = path.split('?')[0] ?? ''
  return bare.split('/').filter((s) => s.length > 0)
}

export type ActionResult = { ok: true; kind: string; value: Record<string, unknown> } | { ok: false; message: string }

/**
 * Checks a request body against an action route: exactly one key, a key the route accepts, and
 * a value that passes that kind's schema. The message is one readable line.
 */
export function parseAction(route: ActionRoute, body: unknown): ActionResult {
  const spec = ACTIONS[route] as Record<string, z.ZodType> | '*'
  const allowed = spec === '*' ? undefined : Object.keys(spec)
  const expected = allowed ? `one of ${allowed.join(', ')}` : 'an action name'
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, message: `the body must be an object with exactly one key (${expected})` }
  }
  const keys = Object.keys(body)
  if (keys.length !== 1) {
    const found = keys.length === 0 ? 'none' : keys.join(', ')
    return { ok: false, message: `the body must have exactly one key (${expected}); found ${found}` }
  }
  const kind = keys[0] as string
  const schema = spec === '*' ? AnyObject : spec[kind]
  if (!schema) {
    return { ok: false, message: `"${kind}" is not an action of ${route}; expected ${expected}` }
  }
  const parsed = schema.safeParse((body as Record<string, unknown>)[kind])
  if (!parsed.success) return { ok: false, message: describeIssues(parsed.error, kind) }
  return { ok: true, kind, value: parsed.data as Record<string, unknown> }
}

/** Checks a plain (non-envelope) body against its route's schema. */
export function parseBody(route: BodyRoute, body: unknown): ActionResult {
  const parsed = BODIES[route].safeParse(body)
  if (!parsed.success) return { ok: false, message: describeIssues(parsed.error) }
  return { ok: true, kind: route, value: parsed.data as Record<string, unknown> }
}
