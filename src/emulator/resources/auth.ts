// Sign-in for the checkout, and service tokens.
//
// Sign-in makes a checkout session: its `customToken` is then a customer credential (Bearer),
// valid for SESSION_TTL_SECONDS of emulator time. Service tokens are extra credentials for a
// merchant (they work like its secret key) or a marketplace (like its API key); they can be
// revoked and they expire.
import { z } from 'zod'
import type { SignInConsumer } from '../../client/schemas/auth.js'
import { Timestamp } from '../../client/schemas/common.js'
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../api-error.js'
import { PRIVATE, mayActForMerchant, requireMerchant } from '../auth.js'
import { addSeconds, timestamp } from '../clock.js'
import { filters, inRange, oneOf, paginate } from '../lists.js'
import { action, route, type HandlerContext } from '../route.js'
import { lookup, type CustomerRecord, type DelegateRecord, type ServiceTokenRecord } from '../store.js'
import { visibleCustomer } from './customers.js'

export const SESSION_TTL_SECONDS = 60 * 60
export const SERVICE_TOKEN_DEFAULT_TTL_SECONDS = 365 * 86_400

// Sign-in ---------------------------------------------------------------------------------------

/**
 * A Pay By Link token travels with a link towards whoever pays it: it signs in only the customer
 * its order was made for (or a delegate of that customer), never any other customer of the
 * merchant (whose saved cards a session unlocks). An order made without a customer signs in no one.
 */
function checkPayByLinkCustomer(ctx: HandlerContext, customerId: string | undefined): void {
  if (ctx.principal.kind !== 'payByLink') return
  const order = lookup(ctx.store.orders, ctx.principal.orderId)
  // Checked before the customer is looked up: the token's holder learns nothing of other customers.
  if (!order || order.customerId === null || order.customerId !== customerId) {
    throw forbidden(
      'context_forbidden',
      order?.customerId
        ? `A Pay By Link token signs in only the customer of its order (${order.orderId})`
        : `The order of this Pay By Link token was made without a customer, so the token signs in no one: create the order with Customer-Id`,
    )
  }
}

function startSession(ctx: HandlerContext, customer: CustomerRecord, delegate: DelegateRecord | null) {
  const now = ctx.clock.now()
  const customToken = `sandbox_ct_${ctx.ids.secret(32)}`
  ctx.store.customerSessions.set(customToken, {
    customToken,
    merchantId: customer.merchantId,
    customerId: customer.customerId,
    customerDelegateId: delegate?.customerDelegateId ?? null,
    createdAt: timestamp(now),
    expiresAt: timestamp(addSeconds(now, SESSION_TTL_SECONDS)),
  })
  return delegate === null
    ? { customerId: customer.customerId, customToken }
    : { customerId: customer.customerId, customerDelegateId: delegate.customerDelegateId, customToken }
}

function signInDelegate(ctx: HandlerContext, delegate: DelegateRecord | undefined, what: string) {
  checkPayByLinkCustomer(ctx, delegate?.customerId)
  if (!delegate || !mayActForMerchant(ctx.store, ctx.scope, delegate.merchantId)) throw notFound('Customer delegate', what)
  const customer = visibleCustomer(ctx, delegate.customerId)
  return startSession(ctx, customer, delegate)
}

const SignInDelegateBody = z.strictObject({ customerDelegateId: z.string().min(1) })
/** The organisation's `referenceCustomerId` and the delegate's e-mail address (the emulator's own fields). */
const SignInDelegateByReferenceIdBody = z.strictObject({ referenceCustomerId: z.string().min(1), emailAddress: z.string().min(1) })

// Service tokens --------------------------------------------------------------------------------

export function serviceTokenView(t: ServiceTokenRecord, now: Date, withSecret = false) {
  const { token, ...rest } = t
  return { ...rest, expired: t.expiresAt !== null && t.expiresAt <= timestamp(now), ...(withSecret ? { token } : {}) }
}

const CreateServiceTokenBody = z
  .strictObject({
    merchantId: z.string().min(1).optional(),
    marketplaceId: z.string().min(1).optional(),
    description: z.string().max(200).optional(),
    expiresAt: Timestamp.optional(),
    expiresInSeconds: z.number().int().positive().optional(),
  })
  .refine((b) => !(b.merchantId && b.marketplaceId), { error: 'give merchantId or marketplaceId, not both' })
  .refine((b) => !(b.expiresAt && b.expiresInSeconds), { error: 'give expiresAt or expiresInSeconds, not both' })

const UpdateServiceTokenBody = z
  .strictObject({
    description: z.string().max(200).optional(),
    status: z.enum(['Active', 'Revoked']).optional(),
    expiresAt: Timestamp.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { error: 'give at least one of description, status, expiresAt' })

function checkOwner(ctx: HandlerContext, owner: { merchantId: string | null; marketplaceId: string | null }): void {
  if (owner.merchantId !== null) {
    if (!lookup(ctx.store.merchants, owner.merchantId) || !mayActForMerchant(ctx.store, ctx.scope, owner.merchantId)) {
      throw forbidden('context_forbidden', `This credential may not manage service tokens of merchant ${owner.merchantId}`)
    }
  } else if (ctx.principal.kind !== 'marketplace' || ctx.principal.marketplaceId !== owner.marketplaceId) {
    throw forbidden('context_forbidden', `This credential may not manage service tokens of marketplace ${String(owner.marketplaceId)}`)
  }
}

function visibleServiceToken(ctx: HandlerContext, id: string): ServiceTokenRecord {
  const t = lookup(ctx.store.serviceTokens, id)
  const visible =
    t !== undefined &&
    (t.merchantId !== null
      ? mayActForMerchant(ctx.store, ctx.scope, t.merchantId)
      : ctx.principal.kind === 'marketplace' && ctx.principal.marketplaceId === t.marketplaceId)
  if (!visible || !t) throw notFound('Service token', id)
  return t
}

function parseTime(text: string): string {
  const time = Date.parse(text)
  if (Number.isNaN(time)) throw badRequest('invalid_request', `"${text}" is not a date-time`)
  return new Date(time).toISOString()
}

function createServiceToken(ctx: HandlerContext, body: z.output<typeof CreateServiceTokenBody>) {
  let merchantId = body.merchantId ?? null
  const marketplaceId = body.marketplaceId ?? null
  if (merchantId === null && marketplaceId === null) {
    if (ctx.principal.kind === 'marketplace' && ctx.scope.merchantId === null) {
      return createFor(ctx, null, ctx.principal.marketplaceId, body)
    }
    merchantId = requireMerchant(ctx.store, ctx.scope).merchantId
  }
  return createFor(ctx, merchantId, merchantId === null ? marketplaceId : null, body)
}

function createFor(ctx: HandlerContext, merchantId: string | null, marketplaceId: string | null, body: z.output<typeof CreateServiceTokenBody>) {
  checkOwner(ctx, { merchantId, marketplaceId })
  const now = ctx.clock.now()
  const expiresAt = body.expiresAt ? parseTime(body.expiresAt) : timestamp(addSeconds(now, body.expiresInSeconds ?? SERVICE_TOKEN_DEFAULT_TTL_SECONDS))
  if (expiresAt <= timestamp(now)) throw unprocessable('invalid_expiry', 'expiresAt must be in the future')
  const secret = `${merchantId !== null ? 'sandbox_sk_' : 'sandbox_api_'}${ctx.ids.secret(32)}`
  const record: ServiceTokenRecord = {
    serviceTokenId: ctx.ids.next('stkn'),
    token: secret,
    tokenHint: `…${secret.slice(-4)}`,
    ownerType: merchantId !== null ? 'Merchant' : 'Marketplace',
    merchantId,
    marketplaceId: merchantId !== null ? (lookup(ctx.store.merchants, merchantId)?.marketplaceId ?? null) : marketplaceId,
    description: body.description ?? null,
    status: 'Active',
    createdAt: timestamp(now),
    updatedAt: timestamp(now),
    expiresAt,
    revokedAt: null,
  }
  ctx.store.serviceTokens.set(record.serviceTokenId, record)
  return serviceTokenView(record, now, true)
}

export const routes = [
  route({
    method: 'POST',
    path: '/auth/signin',
    // The contract's declared set: Marketplace API Key, Merchant Secret Token, Pay By Link Token.
    allow: [...PRIVATE, 'payByLink'],
    actions: {
      SignInConsumer: action<SignInConsumer>((ctx, body) => {
        checkPayByLinkCustomer(ctx, body.customerId)
        const customer = visibleCustomer(ctx, body.customerId)
        if (customer.customerType !== 'Consumer') {
          throw unprocessable('delegate_sign_in_required', 'An organisation customer signs in through a delegate: use SignInDelegate')
        }
        return startSession(ctx, customer, null)
      }),
      SignInDelegate: action(SignInDelegateBody, (ctx, body) =>
        signInDelegate(ctx, lookup(ctx.store.delegates, body.customerDelegateId), body.customerDelegateId),
      ),
      SignInDelegateByReferenceId: action(SignInDelegateByReferenceIdBody, (ctx, body) => {
        const merchant = requireMerchant(ctx.store, ctx.scope)
        const organisation = ctx.store.customers
          .all()
          .find((c) => c.merchantId === merchant.merchantId && c.customerType === 'Organisation' && c.referenceCustomerId === body.referenceCustomerId)
        // Before saying whether the organisation exists: a Pay By Link token names its order's customer only.
        checkPayByLinkCustomer(ctx, organisation?.customerId)
        if (!organisation) throw notFound('Organisation customer with referenceCustomerId', body.referenceCustomerId)
        const email = body.emailAddress.toLowerCase()
        const delegate = ctx.store.delegates.all().find((d) => d.customerId === organisation.customerId && d.emailAddress.toLowerCase() === email)
        return signInDelegate(ctx, delegate, `${body.emailAddress} of ${body.referenceCustomerId}`)
      }),
    },
  }),
  route({
    method: 'GET',
    path: '/auth/servicetokens',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const merchantIds = f.list('merchantId')
      const marketplaceIds = f.list('marketplaceId')
      if (merchantIds === undefined && marketplaceIds === undefined) {
        throw badRequest('missing_filter', 'Give at least one of the merchantId or marketplaceId query parameters')
      }
      for (const id of merchantIds ?? []) checkOwner(ctx, { merchantId: id, marketplaceId: null })
      for (const id of marketplaceIds ?? []) checkOwner(ctx, { merchantId: null, marketplaceId: id })
      const statuses = f.list('status')
      const expired = f.boolean('expired')
      const createdFrom = f.dateTime('createdFromInclusive')
      const createdTo = f.dateTime('createdToExclusive')
      const expiresFrom = f.dateTime('expiresAtFromInclusive')
      const expiresTo = f.dateTime('expiresAtToExclusive')
      const now = timestamp(ctx.clock.now())
      // Candidates from the owner indexes (the tokens of the owners named), then the other conditions.
      const tokens = ctx.store.serviceTokens
      const ids = [...tokens.idsByIndex('merchantId', merchantIds ?? []), ...tokens.idsByIndex('marketplaceId', marketplaceIds ?? [])]
      const records = tokens.select({
        ids,
        filter: (t) => {
          const owned = t.merchantId !== null ? (merchantIds ?? []).includes(t.merchantId) : (marketplaceIds ?? []).includes(t.marketplaceId as string)
          const isExpired = t.expiresAt !== null && t.expiresAt <= now
          return (
            owned &&
            oneOf(statuses, t.status) &&
            (expired === undefined || expired === isExpired) &&
            inRange(t.createdAt, createdFrom, createdTo) &&
            (expiresFrom === undefined && expiresTo === undefined ? true : t.expiresAt !== null && inRange(t.expiresAt, expiresFrom, expiresTo))
          )
        },
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (t) => t.createdAt, expiresAt: (t) => t.expiresAt, status: (t) => t.status, updatedAt: (t) => t.updatedAt },
        view: (t) => serviceTokenView(t, ctx.clock.now()),
      })
    },
  }),
  route({
    method: 'GET',
    path: '/auth/servicetokens/{serviceTokenId}',
    allow: PRIVATE,
    handle: (ctx, req) => serviceTokenView(visibleServiceToken(ctx, req.params.serviceTokenId as string), ctx.clock.now()),
  }),
  route({
    method: 'POST',
    path: '/auth/servicetokens',
    allow: PRIVATE,
    actions: { CreateServiceToken: action(CreateServiceTokenBody, (ctx, body) => createServiceToken(ctx, body)) },
  }),
  route({
    method: 'PATCH',
    path: '/auth/servicetokens/{serviceTokenId}',
    allow: PRIVATE,
    actions: {
      UpdateServiceToken: action(UpdateServiceTokenBody, (ctx, body, req) => {
        const t = visibleServiceToken(ctx, req.params.serviceTokenId as string)
        const now = timestamp(ctx.clock.now())
        if (t.status === 'Revoked' && body.status !== 'Revoked') {
          throw conflict('service_token_revoked', 'A revoked service token cannot be changed or reactivated; create a new one')
        }
        if (body.expiresAt !== undefined) {
          const at = parseTime(body.expiresAt)
          if (at <= now) throw unprocessable('invalid_expiry', 'expiresAt must be in the future')
          t.expiresAt = at
        }
        if (body.description !== undefined) t.description = body.description
        if (body.status === 'Revoked' && t.status !== 'Revoked') {
          t.status = 'Revoked'
          t.revokedAt = now
        }
        t.updatedAt = now
        return serviceTokenView(t, ctx.clock.now())
      }),
    },
  }),
]
