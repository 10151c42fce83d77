// Marketplaces: read one (store.marketplaces, seeded), and upsert a marketplace customer
// (store.marketplaceCustomers): a customer onboarded once by the marketplace, found again by
// `emailAddress` (without case) within the marketplace, and available to all its sub-merchants.
// Payments still need a merchant customer (POST /customers); the answer lists the merchant
// customers that already exist for the same e-mail address in the marketplace's merchants.
import { z } from 'zod'
import { EmailAddress, Metadata, PhoneNumberE164 } from '../../client/schemas/common.js'
import type { MarketplaceCustomerRecord } from '../account-records.js'
import { forbidden, notFound } from '../api-error.js'
import { PRIVATE } from '../auth.js'
import { timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { route, type HandlerContext } from '../route.js'
import { lookup, type Store } from '../store.js'

export function marketplaceView(store: Store, marketplaceId: string) {
  const marketplace = lookup(store.marketplaces, marketplaceId)
  if (!marketplace) return undefined
  const merchants = store.merchants.byIndex('marketplaceId', marketplaceId, 'creation')
  return {
    marketplaceId: marketplace.marketplaceId,
    name: marketplace.name,
    merchantCount: merchants.length,
    merchantIds: merchants.map((m) => m.merchantId),
    createdAt: marketplace.createdAt,
    updatedAt: marketplace.updatedAt,
  }
}

/** `POST /marketplaces/customer` (the emulator's fields; the contract does not show them). */
const UpsertMarketplaceCustomerBody = z.strictObject({
  emailAddress: EmailAddress,
  phoneNumber: PhoneNumberE164.optional(),
  givenName: z.string().min(1).optional(),
  middleName: z.string().min(1).optional(),
  familyName: z.string().min(1).optional(),
  referenceCustomerId: z.string().min(1).optional(),
  metadata: Metadata.optional(),
})

function customerView(store: Store, c: MarketplaceCustomerRecord, created: boolean) {
  const email = c.emailAddress.toLowerCase()
  const merchantCustomers = store.customers
    .byIndex('emailAddress', email, 'creation')
    .filter((mc) => lookup(store.merchants, mc.merchantId)?.marketplaceId === c.marketplaceId)
    .map((mc) => ({ merchantId: mc.merchantId, customerId: mc.customerId }))
  return { ...c, created, merchantCustomers }
}

function upsertCustomer(ctx: HandlerContext, body: z.output<typeof UpsertMarketplaceCustomerBody>) {
  if (ctx.principal.kind !== 'marketplace') {
    throw forbidden('marketplace_only', 'Marketplace customers are upserted by the marketplace: use the marketplace API key')
  }
  const marketplaceId = ctx.principal.marketplaceId
  const email = body.emailAddress.toLowerCase()
  const now = timestamp(ctx.clock.now())
  const existing = ctx.store.marketplaceCustomers.byIndex('marketplaceId', marketplaceId, 'creation').find((c) => c.emailAddress.toLowerCase() === email)
  const record: MarketplaceCustomerRecord = existing ?? {
    marketplaceCustomerId: ctx.ids.next('mcust'),
    marketplaceId,
    emailAddress: body.emailAddress,
    phoneNumber: null,
    givenName: null,
    middleName: null,
    familyName: null,
    referenceCustomerId: null,
    metadata: null,
    createdAt: now,
    updatedAt: now,
  }
  // Fields sent overwrite; fields not sent are kept.
  if (body.phoneNumber !== undefined) record.phoneNumber = body.phoneNumber
  if (body.givenName !== undefined) record.givenName = body.givenName
  if (body.middleName !== undefined) record.middleName = body.middleName
  if (body.familyName !== undefined) record.familyName = body.familyName
  if (body.referenceCustomerId !== undefined) record.referenceCustomerId = body.referenceCustomerId
  if (body.metadata !== undefined) record.metadata = body.metadata
  record.updatedAt = now
  if (!existing) {
    ctx.store.marketplaceCustomers.set(record.marketplaceCustomerId, record)
    // A marketplace event: emitEvent finds the marketplace from a merchant, and there is none here.
    emitEvent(ctx, 'MarketplaceCustomerCreated', null, { marketplaceId, marketplaceCustomerId: record.marketplaceCustomerId }).marketplaceId = marketplaceId
  }
  return customerView(ctx.store, record, !existing)
}

export const routes = [
  route({
    method: 'GET',
    path: '/marketplaces/{marketplaceId}',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const id = req.params.marketplaceId as string
      const view = ctx.scope.marketplaceId === id ? marketplaceView(ctx.store, id) : undefined
      if (!view) throw notFound('Marketplace', id)
      // A merchant sees its marketplace, but not the other merchants in it.
      if (ctx.principal.kind === 'marketplace') return view
      const { merchantCount: _count, merchantIds: _ids, ...own } = view
      return own
    },
  }),
  route({
    method: 'POST',
    path: '/marketplaces/customer',
    allow: PRIVATE,
    body: UpsertMarketplaceCustomerBody,
    handle: (ctx, req) => upsertCustomer(ctx, req.body),
  }),
]
