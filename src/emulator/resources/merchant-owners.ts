// Beneficial owners of a merchant (/merchants/{merchantId}/owners): created, read, overwritten
// (PUT takes every field) and deleted; together they hold at most 100 % of the merchant.
import { z } from 'zod'
import { Address, DateOnly, EmailAddress, PhoneNumberE164 } from '../../client/schemas/common.js'
import type { OwnerRecord } from '../account-records.js'
import { notFound, unprocessable } from '../api-error.js'
import { PRIVATE } from '../auth.js'
import { timestamp } from '../clock.js'
import { Reply, route, type HandlerContext } from '../route.js'
import { lookup, type MerchantRecord, type Store } from '../store.js'
import { visibleMerchant } from './merchants.js'

/** A beneficial owner (the emulator's fields). PUT takes the same body and overwrites every field. */
const OwnerBody = z.strictObject({
  givenName: z.string().trim().min(1),
  middleName: z.string().trim().min(1).optional(),
  familyName: z.string().trim().min(1),
  dateOfBirth: DateOnly.optional(),
  emailAddress: EmailAddress.optional(),
  phoneNumber: PhoneNumberE164.optional(),
  role: z.enum(['Director', 'Shareholder', 'Beneficiary', 'Trustee', 'Partner', 'Other']).optional(),
  ownershipPercentage: z.number().min(0).max(100).optional(),
  address: Address.optional(),
})
type OwnerBody = z.output<typeof OwnerBody>

function ownerView(owner: OwnerRecord) {
  return { ...owner }
}

function ownerOf(ctx: HandlerContext, merchant: MerchantRecord, ownerId: string): OwnerRecord {
  const owner = lookup(ctx.store.owners, ownerId)
  if (!owner || owner.merchantId !== merchant.merchantId) throw notFound(`Beneficial owner of merchant ${merchant.merchantId}`, ownerId)
  return owner
}

function ownersOf(store: Store, merchantId: string): OwnerRecord[] {
  return store.owners.byIndex('merchantId', merchantId)
}

function writeOwner(ctx: HandlerContext, merchant: MerchantRecord, body: OwnerBody, existing?: OwnerRecord): OwnerRecord {
  const others = ownersOf(ctx.store, merchant.merchantId).filter((o) => o !== existing)
  const total = others.reduce((sum, o) => sum + (o.ownershipPercentage ?? 0), 0) + (body.ownershipPercentage ?? 0)
  if (total > 100) {
    throw unprocessable('ownership_exceeds_100', `The owners of a merchant hold at most 100 % together; this would make ${total} %`)
  }
  const now = timestamp(ctx.clock.now())
  const owner: OwnerRecord = {
    ownerId: existing?.ownerId ?? ctx.ids.next('owner'),
    merchantId: merchant.merchantId,
    givenName: body.givenName,
    middleName: body.middleName ?? null,
    familyName: body.familyName,
    dateOfBirth: body.dateOfBirth ?? null,
    emailAddress: body.emailAddress ?? null,
    phoneNumber: body.phoneNumber ?? null,
    role: body.role ?? null,
    ownershipPercentage: body.ownershipPercentage ?? null,
    address: body.address ?? null,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  }
  ctx.store.owners.set(owner.ownerId, owner)
  return owner
}

const merchantIdOf = (req: { params: Record<string, string> }) => req.params.merchantId as string

export const routes = [
  route({
    method: 'GET',
    path: '/merchants/{merchantId}/owners',
    allow: PRIVATE,
    handle: (ctx, req) => ownersOf(ctx.store, visibleMerchant(ctx, merchantIdOf(req)).merchantId).map(ownerView),
  }),
  route({
    method: 'POST',
    path: '/merchants/{merchantId}/owners',
    allow: PRIVATE,
    body: OwnerBody,
    handle: (ctx, req) => ownerView(writeOwner(ctx, visibleMerchant(ctx, merchantIdOf(req)), req.body)),
  }),
  route({
    method: 'GET',
    path: '/merchants/{merchantId}/owners/{ownerId}',
    allow: PRIVATE,
    handle: (ctx, req) => ownerView(ownerOf(ctx, visibleMerchant(ctx, merchantIdOf(req)), req.params.ownerId as string)),
  }),
  route({
    method: 'PUT',
    path: '/merchants/{merchantId}/owners/{ownerId}',
    allow: PRIVATE,
    body: OwnerBody,
    handle: (ctx, req) => {
      const merchant = visibleMerchant(ctx, merchantIdOf(req))
      return ownerView(writeOwner(ctx, merchant, req.body, ownerOf(ctx, merchant, req.params.ownerId as string)))
    },
  }),
  route({
    method: 'DELETE',
    path: '/merchants/{merchantId}/owners/{ownerId}',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const merchant = visibleMerchant(ctx, merchantIdOf(req))
      const owner = ownerOf(ctx, merchant, req.params.ownerId as string)
      ctx.store.owners.delete(owner.ownerId)
      return new Reply(200, { ownerId: owner.ownerId, merchantId: merchant.merchantId, deleted: true })
    },
  }),
]
