// Merchants: onboarding (a marketplace creates sub-merchants), the merchant record with its bank
// accounts and public key, wallet-pay domains and the industry list. Balances are read from the
// ledger in merchant-balances.ts, onboarding files are in merchant-files.ts, beneficial owners in
// merchant-owners.ts.
//
// Records: store.merchants (MerchantRecord, seeded), store.merchantProfiles (the emulator's
// extra merchant fields); keys in store.apiKeys.
// Merchant `status` is `Active` from creation (the emulator onboards at once).
import { z } from 'zod'
import { isKnownCurrency } from '../../client/money.js'
import { Address, CurrencyCode, EmailAddress, Metadata, PhoneNumberE164 } from '../../client/schemas/common.js'
import type { MerchantProfileRecord } from '../account-records.js'
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../api-error.js'
import { PRIVATE, visibleMerchantIds, visibleOr404 } from '../auth.js'
import { timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { action, route, type HandlerContext } from '../route.js'
import { lookup, type BankAccountRecord, type MerchantRecord, type Store } from '../store.js'
import { merchantBalances } from './merchant-balances.js'
import { isValidAbn, isValidAcn } from './payto.js'

// Industries ----------------------------------------------------------------------------------

/** The industries a merchant can be onboarded with (the emulator's own list; codes are card-scheme MCCs). */
export const INDUSTRIES: ReadonlyArray<{ industryCode: string; name: string; b2bCommon: boolean }> = [
  { industryCode: '5399', name: 'Retail', b2bCommon: false },
  { industryCode: '5411', name: 'Grocery and supermarkets', b2bCommon: false },
  { industryCode: '5651', name: 'Clothing and apparel', b2bCommon: false },
  { industryCode: '5732', name: 'Electronics', b2bCommon: false },
  { industryCode: '5712', name: 'Furniture and homewares', b2bCommon: false },
  { industryCode: '5211', name: 'Building materials and hardware', b2bCommon: true },
  { industryCode: '5085', name: 'Industrial supplies', b2bCommon: true },
  { industryCode: '5047', name: 'Medical and dental supplies', b2bCommon: true },
  { industryCode: '5812', name: 'Restaurants and cafes', b2bCommon: false },
  { industryCode: '7011', name: 'Accommodation', b2bCommon: false },
  { industryCode: '4722', name: 'Travel agencies', b2bCommon: false },
  { industryCode: '7230', name: 'Hair and beauty', b2bCommon: false },
  { industryCode: '7997', name: 'Sport and fitness clubs', b2bCommon: false },
  { industryCode: '8220', name: 'Education', b2bCommon: false },
  { industryCode: '8011', name: 'Medical practitioners', b2bCommon: false },
  { industryCode: '7392', name: 'Professional services', b2bCommon: true },
  { industryCode: '1520', name: 'Construction and trades', b2bCommon: true },
  { industryCode: '4214', name: 'Freight and logistics', b2bCommon: true },
  { industryCode: '5734', name: 'Software', b2bCommon: true },
  { industryCode: '8398', name: 'Charities and non-profits', b2bCommon: false },
]

/** The industry named by code or by name (without case); undefined when unknown. */
export function findIndustry(codeOrName: string) {
  const wanted = codeOrName.trim().toLowerCase()
  return INDUSTRIES.find((i) => i.industryCode === wanted || i.name.toLowerCase() === wanted)
}

// Views ---------------------------------------------------------------------------------------

/** The merchant's extra fields: the stored profile, or the defaults of a merchant that has none. */
export function profileOf(store: Store, merchantId: string): MerchantProfileRecord {
  return (
    lookup(store.merchantProfiles, merchantId) ?? {
      merchantId,
      emailAddress: null,
      phoneNumber: null,
      businessNumber: null,
      address: null,
      websiteUrl: null,
      businessProfile: {},
      walletPayDomains: [],
      metadata: null,
    }
  )
}

function ensureProfile(store: Store, merchantId: string): MerchantProfileRecord {
  const existing = lookup(store.merchantProfiles, merchantId)
  if (existing) return existing
  const created = profileOf(store, merchantId)
  store.merchantProfiles.set(merchantId, created)
  return created
}

/** The merchant as emitted: the record (bank accounts, public key included) and its profile fields. */
export function merchantView(store: Store, merchant: MerchantRecord) {
  const profile = profileOf(store, merchant.merchantId)
  return {
    merchantId: merchant.merchantId,
    marketplaceId: merchant.marketplaceId,
    name: merchant.name,
    industry: merchant.industry,
    industryCode: findIndustry(merchant.industry)?.industryCode ?? null,
    status: merchant.status,
    emailAddress: profile.emailAddress,
    phoneNumber: profile.phoneNumber,
    businessNumber: profile.businessNumber,
    address: profile.address,
    websiteUrl: profile.websiteUrl,
    currency: merchant.currency,
    supportsB2B: merchant.supportsB2B,
    manualPayoutsEnabled: merchant.manualPayoutsEnabled,
    bankAccounts: merchant.bankAccounts.map((b) => ({ ...b })),
    publicKey: merchant.publicKey,
    businessProfile: profile.businessProfile,
    metadata: profile.metadata,
    createdAt: merchant.createdAt,
    updatedAt: merchant.updatedAt,
  }
}

/** A merchant the request may act for (404 otherwise: another caller's merchant is not revealed). */
export function visibleMerchant(ctx: HandlerContext, id: string): MerchantRecord {
  return visibleOr404(ctx, ctx.store.merchants, id, 'Merchant')
}

/** `bsb` as `062-000`, accepting `062000` too. */
export function formatBsb(bsb: string): string {
  const digits = bsb.replace(/\D/g, '')
  return `${digits.slice(0, 3)}-${digits.slice(3)}`
}

/** A masked account number: `****5678`. */
export function accountNumberHint(accountNumber: string): string {
  return `****${accountNumber.slice(-4)}`
}

export function primaryBankAccount(merchant: MerchantRecord): BankAccountRecord | undefined {
  return merchant.bankAccounts.find((b) => b.isPrimary) ?? merchant.bankAccounts[0]
}

// Requests ------------------------------------------------------------------------------------

const DOMAIN = z
  .string()
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, { error: 'expected a domain name such as shop.example.com' })

const BusinessNumber = z.string().regex(/^\d{9}$|^\d{11}$/, { error: 'expected an ABN (11 digits) or ACN (9 digits)' })

const WebsiteUrl = z.string().regex(/^https?:\/\/\S+$/i, { error: 'expected an http(s) URL' })

/** `AddMerchantBankAccount` (the emulator's fields): an Australian account. */
export const AddMerchantBankAccountBody = z.strictObject({
  bsb: z.string().regex(/^\d{3}-?\d{3}$/, { error: 'expected a BSB of 6 digits, such as 062-000' }),
  accountNumber: z.string().regex(/^\d{5,9}$/, { error: 'expected an account number of 5 to 9 digits' }),
  accountName: z.string().trim().min(1).max(140),
  /** Make it the primary account at once (the first account is always primary). */
  isPrimary: z.boolean().optional(),
})

const SetMerchantPrimaryBankAccountBody = z.strictObject({ bankAccountId: z.string().min(1) })

/** `UpdateMerchantBusinessProfile`: known fields are checked; any other field is kept in `businessProfile`. */
const UpdateMerchantBusinessProfileBody = z.looseObject({
  name: z.string().trim().min(1).max(200).optional(),
  industry: z.string().min(1).optional(),
  emailAddress: EmailAddress.optional(),
  phoneNumber: PhoneNumberE164.optional(),
  businessNumber: BusinessNumber.optional(),
  address: Address.optional(),
  websiteUrl: WebsiteUrl.optional(),
  supportsB2B: z.boolean().optional(),
  walletPayDomains: z.array(DOMAIN).optional(),
  metadata: Metadata.optional(),
})

/** `POST /merchants` (the emulator's fields; the contract does not show them). */
const CreateMerchantBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  /** An industry code or name from GET /merchants/industries. */
  industry: z.string().min(1),
  emailAddress: EmailAddress.optional(),
  phoneNumber: PhoneNumberE164.optional(),
  businessNumber: BusinessNumber.optional(),
  address: Address.optional(),
  websiteUrl: WebsiteUrl.optional(),
  currency: CurrencyCode.optional(),
  supportsB2B: z.boolean().optional(),
  manualPayoutsEnabled: z.boolean().optional(),
  bankAccount: AddMerchantBankAccountBody.omit({ isPrimary: true }).optional(),
  walletPayDomains: z.array(DOMAIN).optional(),
  metadata: Metadata.optional(),
})

function checkBusinessNumber(value: string | undefined): void {
  if (value === undefined) return
  const valid = value.length === 11 ? isValidAbn(value) : isValidAcn(value)
  if (!valid) throw unprocessable('invalid_business_number', `${value} is not a valid ${value.length === 11 ? 'ABN' : 'ACN'} (check digits)`)
}

function industryName(codeOrName: string): string {
  const industry = findIndustry(codeOrName)
  if (!industry) throw unprocessable('unknown_industry', `Unknown industry "${codeOrName}"; see GET /merchants/industries`)
  return industry.name
}

function walletDomains(now: string, domains: readonly string[]): MerchantProfileRecord['walletPayDomains'] {
  return [...new Set(domains.map((d) => d.toLowerCase()))].map((domain) => ({ domain, status: 'Verified' as const, registeredAt: now }))
}

// Handlers ------------------------------------------------------------------------------------

function createMerchant(ctx: HandlerContext, body: z.output<typeof CreateMerchantBody>) {
  if (ctx.principal.kind !== 'marketplace') {
    throw forbidden('marketplace_only', 'Sub-merchants are created by their marketplace: use the marketplace API key')
  }
  if (ctx.scope.merchantId !== null) {
    throw badRequest('unexpected_merchant_context', 'Creating a merchant acts for the marketplace: do not send Merchant-Id')
  }
  const currency = body.currency ?? 'AUD'
  if (!isKnownCurrency(currency)) throw unprocessable('unsupported_currency', `Unknown currency ${currency}`)
  checkBusinessNumber(body.businessNumber)
  const industry = industryName(body.industry)
  const now = timestamp(ctx.clock.now())
  const merchantId = ctx.ids.next('mcht')
  const publicKey = `sandbox_pk_${ctx.ids.secret(32)}`
  const secretKey = `sandbox_sk_${ctx.ids.secret(32)}`
  const merchant: MerchantRecord = {
    merchantId,
    marketplaceId: ctx.principal.marketplaceId,
    name: body.name,
    industry,
    status: 'Active',
    bankAccounts: body.bankAccount
      ? [
          {
            bankAccountId: ctx.ids.next('bank'),
            accountName: body.bankAccount.accountName,
            bsb: formatBsb(body.bankAccount.bsb),
            accountNumber: body.bankAccount.accountNumber,
            isPrimary: true,
            createdAt: now,
          },
        ]
      : [],
    publicKey,
    manualPayoutsEnabled: body.manualPayoutsEnabled ?? false,
    supportsB2B: body.supportsB2B ?? false,
    currency,
    createdAt: now,
    updatedAt: now,
  }
  ctx.store.merchants.set(merchantId, merchant)
  ctx.store.merchantProfiles.set(merchantId, {
    merchantId,
    emailAddress: body.emailAddress ?? null,
    phoneNumber: body.phoneNumber ?? null,
    businessNumber: body.businessNumber ?? null,
    address: body.address ?? null,
    websiteUrl: body.websiteUrl ?? null,
    businessProfile: {},
    walletPayDomains: walletDomains(now, body.walletPayDomains ?? []),
    metadata: body.metadata ?? null,
  })
  ctx.store.apiKeys.set(secretKey, { kind: 'merchantSecretKey', ownerId: merchantId })
  ctx.store.apiKeys.set(publicKey, { kind: 'merchantPublicKey', ownerId: merchantId })
  const view = merchantView(ctx.store, merchant)
  emitEvent(ctx, 'MerchantCreated', merchantId, { merchant: view })
  // The secret key is shown once, in this answer.
  return { ...view, secretKey }
}

function touched(ctx: HandlerContext, merchant: MerchantRecord, change: string) {
  merchant.updatedAt = timestamp(ctx.clock.now())
  emitEvent(ctx, 'MerchantUpdated', merchant.merchantId, { merchantId: merchant.merchantId, change })
  return merchantView(ctx.store, merchant)
}

function addBankAccount(ctx: HandlerContext, merchant: MerchantRecord, body: z.output<typeof AddMerchantBankAccountBody>) {
  const bsb = formatBsb(body.bsb)
  if (merchant.bankAccounts.some((b) => b.bsb === bsb && b.accountNumber === body.accountNumber)) {
    throw conflict('bank_account_exists', `The merchant already has the account ${bsb} ${body.accountNumber}`)
  }
  const makePrimary = body.isPrimary === true || merchant.bankAccounts.length === 0
  if (makePrimary) for (const b of merchant.bankAccounts) b.isPrimary = false
  merchant.bankAccounts.push({
    bankAccountId: ctx.ids.next('bank'),
    accountName: body.accountName,
    bsb,
    accountNumber: body.accountNumber,
    isPrimary: makePrimary,
    createdAt: timestamp(ctx.clock.now()),
  })
  return touched(ctx, merchant, 'AddMerchantBankAccount')
}

function setPrimary(ctx: HandlerContext, merchant: MerchantRecord, body: z.output<typeof SetMerchantPrimaryBankAccountBody>) {
  const account = merchant.bankAccounts.find((b) => b.bankAccountId === body.bankAccountId)
  if (!account) throw notFound(`Bank account of merchant ${merchant.merchantId}`, body.bankAccountId)
  for (const b of merchant.bankAccounts) b.isPrimary = b === account
  return touched(ctx, merchant, 'SetMerchantPrimaryBankAccount')
}

function updateProfile(ctx: HandlerContext, merchant: MerchantRecord, body: z.output<typeof UpdateMerchantBusinessProfileBody>) {
  const { name, industry, emailAddress, phoneNumber, businessNumber, address, websiteUrl, supportsB2B, walletPayDomains, metadata, ...rest } = body
  checkBusinessNumber(businessNumber)
  const industryValue = industry === undefined ? undefined : industryName(industry)
  const profile = ensureProfile(ctx.store, merchant.merchantId)
  if (name !== undefined) merchant.name = name
  if (industryValue !== undefined) merchant.industry = industryValue
  if (supportsB2B !== undefined) merchant.supportsB2B = supportsB2B
  if (emailAddress !== undefined) profile.emailAddress = emailAddress
  if (phoneNumber !== undefined) profile.phoneNumber = phoneNumber
  if (businessNumber !== undefined) profile.businessNumber = businessNumber
  if (address !== undefined) profile.address = address
  if (websiteUrl !== undefined) profile.websiteUrl = websiteUrl
  if (metadata !== undefined) profile.metadata = metadata
  if (walletPayDomains !== undefined) profile.walletPayDomains = walletDomains(timestamp(ctx.clock.now()), walletPayDomains)
  profile.businessProfile = { ...profile.businessProfile, ...(JSON.parse(JSON.stringify(rest)) as Record<string, unknown>) }
  return touched(ctx, merchant, 'UpdateMerchantBusinessProfile')
}

function onMerchant<B>(handle: (ctx: HandlerContext, merchant: MerchantRecord, body: B) => unknown) {
  return (ctx: HandlerContext, body: B, req: { params: Record<string, string> }) => handle(ctx, visibleMerchant(ctx, req.params.merchantId as string), body)
}

// Routes --------------------------------------------------------------------------------------

const merchantIdOf = (req: { params: Record<string, string> }) => req.params.merchantId as string

export const routes = [
  route({
    method: 'GET',
    path: '/merchants',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const ids = f.list('merchantId')
      const statuses = f.list('status')
      const industries = f.list('industry')
      const name = f.string('name')?.toLowerCase()
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.merchants.select({
        ids: merchantsWithin(visible, ids),
        after,
        before,
        filter: (m) =>
          oneOf(statuses, m.status) &&
          (industries === undefined || industries.some((i) => findIndustry(i)?.name === m.industry)) &&
          (name === undefined || m.name.toLowerCase().includes(name)),
        filterKey: JSON.stringify([statuses, industries, name]),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (m) => m.createdAt, updatedAt: (m) => m.updatedAt, name: (m) => m.name, status: (m) => m.status },
        view: (m) => merchantView(ctx.store, m),
      })
    },
  }),
  route({ method: 'POST', path: '/merchants', allow: PRIVATE, body: CreateMerchantBody, handle: (ctx, req) => createMerchant(ctx, req.body) }),
  route({
    method: 'GET',
    path: '/merchants/industries',
    allow: ['marketplace', 'merchant', 'public', 'customer'],
    handle: () => INDUSTRIES.map((i) => ({ ...i })),
  }),
  route({
    method: 'GET',
    path: '/merchants/{merchantId}',
    allow: PRIVATE,
    handle: (ctx, req) => merchantView(ctx.store, visibleMerchant(ctx, merchantIdOf(req))),
  }),
  route({
    method: 'PATCH',
    path: '/merchants/{merchantId}',
    allow: PRIVATE,
    actions: {
      AddMerchantBankAccount: action(AddMerchantBankAccountBody, onMerchant(addBankAccount)),
      SetMerchantPrimaryBankAccount: action(SetMerchantPrimaryBankAccountBody, onMerchant(setPrimary)),
      UpdateMerchantBusinessProfile: action(UpdateMerchantBusinessProfileBody, onMerchant(updateProfile)),
    },
  }),
  route({
    method: 'GET',
    path: '/merchants/{merchantId}/balances',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const merchant = visibleMerchant(ctx, merchantIdOf(req))
      const now = ctx.clock.now()
      return { merchantId: merchant.merchantId, asOf: timestamp(now), balances: merchantBalances(ctx.store, merchant, now) }
    },
  }),
  route({
    method: 'GET',
    path: '/merchants/{merchantId}/walletpay',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const merchant = visibleMerchant(ctx, merchantIdOf(req))
      return { merchantId: merchant.merchantId, domains: profileOf(ctx.store, merchant.merchantId).walletPayDomains.map((d) => ({ ...d })) }
    },
  }),
]
