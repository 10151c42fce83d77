// Credentials → principals, and what a principal may act for.
//
// Every credential arrives as `Authorization: Bearer <credential>`. The emulator knows four kinds
// of principal:
//   marketplace  the marketplace API key, or a service token issued to a marketplace
//   merchant     the merchant secret key, or a service token issued to a merchant
//   public       the merchant public key (a browser checkout; no customer-specific sources)
//   customer     the `customToken` of a sign-in (a customer, or a delegate acting for one)
//   payByLink    the Pay By Link token of a pay-by-link order (sign-in only, for its merchant)
// Routes list the kinds that may call them (route.ts); the context headers then narrow what the
// request acts for (resolveScope), and handlers check the entities they touch with the
// `assert…` helpers below.
import { badRequest, forbidden, notFound, unauthorised } from './api-error.js'
import type { Clock } from './clock.js'
import type { Collection } from './collection.js'
import type { Principal, PrincipalKind, Scope } from './principal.js'
import { lookup, type DelegateRecord, type MerchantRecord, type Store } from './store.js'

export type { Principal, PrincipalKind } from './principal.js'

/** Route permission sets. */
export const PRIVATE: readonly PrincipalKind[] = ['marketplace', 'merchant']
export const PRIVATE_OR_CUSTOMER: readonly PrincipalKind[] = ['marketplace', 'merchant', 'customer']
export const ANY_CREDENTIAL: readonly PrincipalKind[] = ['marketplace', 'merchant', 'public', 'customer']

/** The principal of an `Authorization` header; 401 when missing, malformed, unknown, revoked or expired. */
export function authenticate(store: Store, clock: Clock, authorization: string | undefined): Principal {
  if (!authorization) {
    throw unauthorised('missing_credential', 'No credential: send "Authorization: Bearer <credential>"')
  }
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization)
  if (!match) throw unauthorised('invalid_authorization_header', 'The Authorization header must be "Bearer <credential>"')
  const credential = match[1] as string
  if (/^live_/.test(credential)) {
    throw unauthorised('wrong_environment', 'A production (live_) key was sent to the sandbox emulator')
  }

  const key = lookup(store.apiKeys, credential)
  if (key) {
    if (key.kind === 'marketplaceApiKey') return { kind: 'marketplace', marketplaceId: key.ownerId, via: 'apiKey' }
    if (key.kind === 'merchantSecretKey') return { kind: 'merchant', merchantId: key.ownerId, via: 'secretKey' }
    return { kind: 'public', merchantId: key.ownerId }
  }

  const now = clock.now().toISOString()
  const session = lookup(store.customerSessions, credential)
  if (session) {
    if (session.expiresAt <= now) throw unauthorised('credential_expired', 'The customer token has expired; sign in again')
    return { kind: 'customer', merchantId: session.merchantId, customerId: session.customerId, customerDelegateId: session.customerDelegateId }
  }

  const payByLinkOrder = store.orders.byIndex('payByLinkToken', credential)[0]
  if (payByLinkOrder) return { kind: 'payByLink', merchantId: payByLinkOrder.merchantId, orderId: payByLinkOrder.orderId }

  const token = store.serviceTokens.byIndex('token', credential)[0]
  if (token) {
    if (token.status !== 'Active') throw unauthorised('credential_revoked', 'The service token has been revoked')
    if (token.expiresAt !== null && token.expiresAt <= now) throw unauthorised('credential_expired', 'The service token has expired')
    if (token.ownerType === 'Marketplace') return { kind: 'marketplace', marketplaceId: token.marketplaceId as string, via: 'serviceToken' }
    return { kind: 'merchant', merchantId: token.merchantId as string, via: 'serviceToken' }
  }

  throw unauthorised('unknown_credential', 'The credential is not known to this emulator')
}

export interface ContextHeaders {
  marketplaceId: string | undefined
  merchantId: string | undefined
  customerId: string | undefined
  customerDelegateId: string | undefined
}

/** The context headers of a request (empty values count as absent). */
export function contextHeaders(headers: Record<string, string | undefined>): ContextHeaders {
  const get = (name: string) => {
    const value = headers[name]?.trim()
    return value ? value : undefined
  }
  return {
    marketplaceId: get('marketplace-id'),
    merchantId: get('merchant-id'),
    customerId: get('customer-id'),
    customerDelegateId: get('customer-delegate-user-id'),
  }
}

/**
 * What the request acts for: the principal's own context, narrowed or overridden by the context
 * headers. 403 when a header names an entity the caller may not act for (unknown entities
 * included: the emulator does not say whether another caller's entity exists).
 */
export function resolveScope(store: Store, principal: Principal, headers: ContextHeaders): Scope {
  const scope: Scope = { marketplaceId: null, merchantId: null, customerId: null, customerDelegateId: null }
  if (principal.kind === 'marketplace') {
    scope.marketplaceId = principal.marketplaceId
  } else {
    scope.merchantId = principal.merchantId
    scope.marketplaceId = lookup(store.merchants, principal.merchantId)?.marketplaceId ?? null
    if (principal.kind === 'customer') {
      scope.customerId = principal.customerId
      scope.customerDelegateId = principal.customerDelegateId
    }
  }

  if (headers.marketplaceId !== undefined) {
    if (headers.marketplaceId !== scope.marketplaceId) {
      throw forbidden('context_forbidden', `This credential may not act for marketplace ${headers.marketplaceId}`)
    }
    // Alone, the header asks to act for the marketplace itself (all its merchants), which only a
    // marketplace credential may; with Merchant-Id it only says which marketplace that merchant is in.
    if (principal.kind !== 'marketplace' && headers.merchantId === undefined) {
      throw forbidden(
        'marketplace_context_forbidden',
        `A ${principal.kind === 'customer' ? 'customer token' : 'merchant credential'} acts for its merchant, not for marketplace ${headers.marketplaceId}: use the marketplace API key, or send Merchant-Id too`,
      )
    }
  }

  if (headers.merchantId !== undefined) {
    if (principal.kind === 'marketplace') {
      const merchant = lookup(store.merchants, headers.merchantId)
      if (!merchant || merchant.marketplaceId !== principal.marketplaceId) {
        throw forbidden('context_forbidden', `This credential may not act for merchant ${headers.merchantId}`)
      }
      scope.merchantId = merchant.merchantId
    } else if (headers.merchantId !== scope.merchantId) {
      throw forbidden('context_forbidden', `This credential may not act for merchant ${headers.merchantId}`)
    }
  }

  if (headers.customerId !== undefined) {
    if (principal.kind === 'public') {
      throw forbidden('context_forbidden', 'A merchant public key cannot act for a customer; use the customer token of a sign-in')
    }
    if (principal.kind === 'customer') {
      if (headers.customerId !== principal.customerId) {
        throw forbidden('context_forbidden', `A signed-in customer may act only for themselves, not for ${headers.customerId}`)
      }
    } else {
      const customer = lookup(store.customers, headers.customerId)
      if (!customer || !mayActForMerchant(store, scope, customer.merchantId)) {
        throw forbidden('context_forbidden', `This credential may not act for customer ${headers.customerId}`)
      }
      scope.customerId = customer.customerId
    }
  }

  if (headers.customerDelegateId !== undefined) {
    if (principal.kind === 'public') {
      throw forbidden('context_forbidden', 'A merchant public key cannot act for a customer delegate')
    }
    const delegate = lookup(store.delegates, headers.customerDelegateId)
    if (!delegate || !mayActForDelegate(store, principal, scope, delegate)) {
      throw forbidden('context_forbidden', `This credential may not act for customer delegate ${headers.customerDelegateId}`)
    }
    scope.customerDelegateId = delegate.customerDelegateId
    scope.customerId = delegate.customerId
  }
  return scope
}

/** A signed-in delegate may name only themselves; a signed-in customer, their own delegates; others, delegates of their merchants (and of the customer in scope). */
function mayActForDelegate(store: Store, principal: Principal, scope: Scope, delegate: DelegateRecord): boolean {
  if (scope.customerId !== null && delegate.customerId !== scope.customerId) return false
  if (principal.kind === 'customer') {
    return principal.customerDelegateId === null ? delegate.customerId === principal.customerId : delegate.customerDelegateId === principal.customerDelegateId
  }
  return mayActForMerchant(store, scope, delegate.merchantId)
}

/** Whether the scope may act for a merchant: it is the scope's merchant, or (no merchant chosen) one of its marketplace's. */
export function mayActForMerchant(store: Store, scope: Scope, merchantId: string): boolean {
  if (scope.merchantId !== null) return scope.merchantId === merchantId
  if (scope.marketplaceId === null) return false
  return lookup(store.merchants, merchantId)?.marketplaceId === scope.marketplaceId
}

/**
 * A merchant's record by id when the scope may act for that merchant, or a 404 naming what was
 * looked for: another merchant's record is not told apart from a missing one.
 */
export function visibleOr404<T extends { merchantId: string }>(ctx: { store: Store; scope: Scope }, collection: Collection<T>, id: string, what: string): T {
  const record = lookup(collection, id)
  if (!record || !mayActForMerchant(ctx.store, ctx.scope, record.merchantId)) throw notFound(what, id)
  return record
}

/**
 * The merchant the request acts for. A marketplace credential must name it with `Merchant-Id`
 * (400 otherwise): a marketplace has no payments of its own.
 */
export function requireMerchant(store: Store, scope: Scope): MerchantRecord {
  if (scope.merchantId === null) {
    throw badRequest('merchant_context_required', 'This operation acts for one merchant: send the Merchant-Id header')
  }
  const merchant = lookup(store.merchants, scope.merchantId)
  if (!merchant) throw forbidden('context_forbidden', `Merchant ${scope.merchantId} is not known`)
  return merchant
}

/** The merchants a list may show: the scope's merchant, or all of its marketplace's. */
export function visibleMerchantIds(store: Store, scope: Scope): Set<string> {
  if (scope.merchantId !== null) return new Set([scope.merchantId])
  // The marketplace's merchants from the marketplaceId index: not a pass over every merchant.
  return new Set(scope.marketplaceId === null ? [] : store.merchants.idsByIndex('marketplaceId', [scope.marketplaceId]))
}
