// `--fixtures FILE`: records an integrator wants in place before the first request, on top of
// the well-known seed, re-applied on every reset. A fixture file is JSON, checked with the zod
// schema below; any mistake (a bad shape, an unknown reference, a duplicate id) refuses the
// whole file with a message naming the entry, and the emulator does not start.
//
// {
//   "merchants":      [{ "merchantId"?, "name", "marketplaceId"?, "industry"?, "manualPayoutsEnabled"?,
//                        "supportsB2B"?, "currency"?, "bankAccount"? {bsb, accountNumber},
//                        "secretKey"?, "publicKey"? }],
//   "subMerchants":   [ same; marketplaceId defaults to the seeded marketplace ],
//   "customers":      [{ "customerId"?, "merchantId"?, "customerType"?, "emailAddress"?, "referenceCustomerId"?,
//                        "givenName"?, "familyName"?, "phoneNumber"?, "organisationName"?, "isVerified"? }],
//   "agreements":     [{ "token"?, "merchantId"?, "customerName", "bban"? | "alias"? {aliasType, value},
//                        "amount"? Money (one-off; none = open), "purpose"?, "status"?, "paymentOutcome"? }],
//   "webhookSubscriptions": [{ "id"?, "merchantId"? | "marketplaceId"?, "url", "events", "description"?,
//                        "metadata"?, "status"?, "secret"? }],
//   "balances":       [{ "merchantId", "amount" Money, "description"?, "available"? }],
//   "serviceTokens":  [{ "serviceTokenId"?, "merchantId"? | "marketplaceId"?, "token", "description"?, "expiresAt"? }]
// }
// A merchantId left out means the seeded merchant.
import { z } from 'zod'
import { isKnownCurrency } from '../client/money.js'
import { EmailAddress, Metadata, Money, Timestamp, describeIssues } from '../client/schemas/common.js'
import { WebhookUrl } from '../client/schemas/webhooks.js'
import { WELL_KNOWN } from '../well-known.js'
import { addSeconds, timestamp } from './clock.js'
import type { Clock } from './clock.js'
import type { Collection } from './collection.js'
import type { IdGenerator } from './ids.js'
import { MAX_FIXTURES_BYTES, readRegularFileSync } from './read-file.js'
import { isId } from './ids.js'
import { appendLedger } from './ledger.js'
import { AGREEMENT_STATUSES, maskIdentifier, normaliseAlias, parseBban } from './resources/payto.js'
import { lookup, type AgreementStatus, type MerchantRecord, type Store } from './store.js'

export class FixtureError extends Error {
  override name = 'FixtureError'
}

const Id = (prefix: string) => z.string().refine((v) => isId(v, prefix), { error: `expected an id ${prefix}_ followed by letters, digits, "-" or "_"` })

const MerchantFixture = z.strictObject({
  merchantId: Id('mcht').optional(),
  name: z.string().min(1),
  marketplaceId: Id('mktp').nullable().optional(),
  industry: z.string().min(1).optional(),
  manualPayoutsEnabled: z.boolean().optional(),
  supportsB2B: z.boolean().optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  bankAccount: z.strictObject({ bsb: z.string().regex(/^\d{3}-?\d{3}$/), accountNumber: z.string().regex(/^\d{5,9}$/) }).optional(),
  secretKey: z
    .string()
    .regex(/^sandbox_sk_[A-Za-z0-9_-]{8,}$/, { error: 'expected sandbox_sk_ and at least 8 more characters' })
    .optional(),
  publicKey: z
    .string()
    .regex(/^sandbox_pk_[A-Za-z0-9_-]{8,}$/, { error: 'expected sandbox_pk_ and at least 8 more characters' })
    .optional(),
})

const CustomerFixture = z.strictObject({
  customerId: Id('cust').optional(),
  merchantId: Id('mcht').optional(),
  customerType: z.enum(['Consumer', 'Organisation']).optional(),
  emailAddress: EmailAddress.optional(),
  referenceCustomerId: z.string().min(1).optional(),
  givenName: z.string().optional(),
  familyName: z.string().optional(),
  phoneNumber: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, { error: 'expected an E.164 number such as +61401234567' })
    .optional(),
  organisationName: z.string().optional(),
  isVerified: z.boolean().optional(),
  metadata: Metadata.optional(),
})

const AgreementFixture = z
  .strictObject({
    token: Id('ptagr').optional(),
    merchantId: Id('mcht').optional(),
    customerName: z.string().min(1),
    bban: z.string().optional(),
    alias: z.strictObject({ aliasType: z.string(), value: z.string() }).optional(),
    amount: Money.optional(),
    purpose: z.string().optional(),
    status: z.enum(AGREEMENT_STATUSES as [AgreementStatus, ...AgreementStatus[]]).optional(),
    paymentOutcome: z.enum(['approve', 'insufficient_funds']).optional(),
  })
  .refine((a) => (a.bban === undefined) !== (a.alias === undefined), { error: 'give exactly one of bban or alias' })

const SubscriptionFixture = z
  .strictObject({
    id: Id('webhook').optional(),
    merchantId: Id('mcht').optional(),
    marketplaceId: Id('mktp').optional(),
    url: WebhookUrl,
    events: z.array(z.string().regex(/^(\*|[A-Z][A-Za-z0-9]*)$/)).min(1),
    description: z.string().optional(),
    metadata: Metadata.optional(),
    status: z.enum(['Active', 'Suspended']).optional(),
    secret: z.string().min(8).optional(),
  })
  .refine((s) => !(s.merchantId && s.marketplaceId), { error: 'give merchantId or marketplaceId, not both' })

const BalanceFixture = z.strictObject({
  merchantId: Id('mcht').optional(),
  amount: Money,
  description: z.string().optional(),
  /** Default true: available for payout at once; false waits the usual 2 days. */
  available: z.boolean().optional(),
})

const ServiceTokenFixture = z
  .strictObject({
    serviceTokenId: Id('stkn').optional(),
    merchantId: Id('mcht').optional(),
    marketplaceId: Id('mktp').optional(),
    token: z.string().regex(/^sandbox_(sk|api)_[A-Za-z0-9_-]{8,}$/, { error: 'expected sandbox_sk_… (merchant) or sandbox_api_… (marketplace)' }),
    description: z.string().optional(),
    expiresAt: Timestamp.optional(),
  })
  .refine((t) => !(t.merchantId && t.marketplaceId), { error: 'give merchantId or marketplaceId, not both' })
  .refine((t) => (t.marketplaceId ? t.token.startsWith('sandbox_api_') : t.token.startsWith('sandbox_sk_')), {
    error: 'a marketplace token starts sandbox_api_, a merchant token sandbox_sk_',
  })

/** Options of the emulator a fixture file may set (docs/emulator.md, "Where the emulator chooses"). */
const SettingsFixture = z.strictObject({
  paymentTokenLifetimeSeconds: z
    .number()
    .int()
    .positive()
    .max(365 * 86_400)
    .optional(),
})

export const FixturesSchema = z.strictObject({
  settings: SettingsFixture.optional(),
  merchants: z.array(MerchantFixture).optional(),
  subMerchants: z.array(MerchantFixture).optional(),
  customers: z.array(CustomerFixture).optional(),
  agreements: z.array(AgreementFixture).optional(),
  webhookSubscriptions: z.array(SubscriptionFixture).optional(),
  balances: z.array(BalanceFixture).optional(),
  serviceTokens: z.array(ServiceTokenFixture).optional(),
})

export type Fixtures = z.output<typeof FixturesSchema>

/** Reads and checks a fixture file; a FixtureError says what is wrong and where. */
export function loadFixtures(path: string): Fixtures {
  let text: string
  try {
    text = readRegularFileSync(path, MAX_FIXTURES_BYTES)
  } catch (error) {
    throw new FixtureError(`Cannot read the fixture file ${path}: ${(error as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new FixtureError(`The fixture file ${path} is not JSON: ${(error as Error).message}`)
  }
  return parseFixtures(json, path)
}

/** Checks fixtures given as a value (the shape only; references are checked when applied). */
export function parseFixtures(json: unknown, source = 'fixtures'): Fixtures {
  const parsed = FixturesSchema.safeParse(json)
  if (!parsed.success) throw new FixtureError(`The fixture file ${source} is not valid: ${describeIssues(parsed.error)}`)
  return parsed.data
}

/**
 * Adds the fixtures to a store (normally one just seeded). Throws a FixtureError naming the entry
 * when a reference is unknown or an id is taken; the store may then be half-filled, so callers
 * apply fixtures to a fresh store first (see `checkFixtures`).
 */
export function applyFixtures(store: Store, fixtures: Fixtures, clock: Clock, ids: IdGenerator): void {
  const now = clock.now()
  const at = timestamp(now)
  const fail = (where: string, why: string) => new FixtureError(`Fixture ${where}: ${why}`)
  const merchantOf = (where: string, id: string | undefined): MerchantRecord => {
    const merchantId = id ?? WELL_KNOWN.merchantId
    const merchant = lookup(store.merchants, merchantId)
    if (!merchant) throw fail(where, `no merchant ${merchantId} in the seed or the fixtures`)
    return merchant
  }
  const unused = (where: string, collection: Pick<Collection<never>, 'has'>, id: string) => {
    if (collection.has(id)) throw fail(where, `the id ${id} is already taken`)
    return id
  }
  const credentialFree = (where: string, key: string) => {
    if (lookup(store.apiKeys, key) || store.serviceTokens.byIndex('token', key).length > 0) throw fail(where, 'this key is already in use')
    return key
  }

  const addMerchant = (where: string, m: z.output<typeof MerchantFixture>, defaultMarketplace: string | null) => {
    const marketplaceId = m.marketplaceId === undefined ? defaultMarketplace : m.marketplaceId
    if (marketplaceId !== null && !lookup(store.marketplaces, marketplaceId)) throw fail(where, `no marketplace ${marketplaceId}`)
    const currency = m.currency ?? 'AUD'
    if (!isKnownCurrency(currency)) throw fail(where, `unknown currency ${currency}`)
    const merchantId = unused(where, store.merchants, m.merchantId ?? ids.next('mcht'))
    const publicKey = credentialFree(`${where}.publicKey`, m.publicKey ?? `sandbox_pk_${ids.secret(32)}`)
    const bsb = m.bankAccount ? m.bankAccount.bsb.replace(/^(\d{3})-?(\d{3})$/, '$1-$2') : null
    store.merchants.set(merchantId, {
      merchantId,
      marketplaceId,
      name: m.name,
      industry: m.industry ?? 'Retail',
      status: 'Active',
      bankAccounts: m.bankAccount
        ? [
            {
              bankAccountId: ids.next('bank'),
              accountName: m.name,
              bsb: bsb as string,
              accountNumber: m.bankAccount.accountNumber,
              isPrimary: true,
              createdAt: at,
            },
          ]
        : [],
      publicKey,
      manualPayoutsEnabled: m.manualPayoutsEnabled ?? false,
      supportsB2B: m.supportsB2B ?? false,
      currency,
      createdAt: at,
      updatedAt: at,
    })
    store.apiKeys.set(publicKey, { kind: 'merchantPublicKey', ownerId: merchantId })
    if (m.secretKey) store.apiKeys.set(credentialFree(`${where}.secretKey`, m.secretKey), { kind: 'merchantSecretKey', ownerId: merchantId })
  }
  fixtures.merchants?.forEach((m, i) => {
    addMerchant(`merchants[${i}]`, m, null)
  })
  fixtures.subMerchants?.forEach((m, i) => {
    addMerchant(`subMerchants[${i}]`, m, WELL_KNOWN.marketplaceId)
  })

  fixtures.customers?.forEach((c, i) => {
    const where = `customers[${i}]`
    const merchant = merchantOf(`${where}.merchantId`, c.merchantId)
    const customerType = c.customerType ?? (c.emailAddress === undefined && c.referenceCustomerId !== undefined ? 'Organisation' : 'Consumer')
    if (customerType === 'Consumer' && c.emailAddress === undefined) throw fail(where, 'a consumer customer needs an emailAddress')
    if (customerType === 'Organisation' && c.referenceCustomerId === undefined) throw fail(where, 'an organisation customer needs a referenceCustomerId')
    const customerId = unused(where, store.customers, c.customerId ?? ids.next('cust'))
    store.customers.set(customerId, {
      customerId,
      merchantId: merchant.merchantId,
      customerType,
      emailAddress: c.emailAddress ?? null,
      phoneNumber: c.phoneNumber ?? null,
      referenceCustomerId: c.referenceCustomerId ?? null,
      givenName: c.givenName ?? null,
      middleName: null,
      familyName: c.familyName ?? null,
      organisationName: c.organisationName ?? null,
      businessNumber: null,
      isVerified: c.isVerified ?? false,
      metadata: c.metadata ?? null,
      kycStatus: c.isVerified ? 'Verified' : 'NotStarted',
      kycDetails: {},
      createdAt: at,
      updatedAt: at,
    })
  })

  fixtures.agreements?.forEach((a, i) => {
    const where = `agreements[${i}]`
    const merchant = merchantOf(`${where}.merchantId`, a.merchantId)
    let identifierType: 'Bban' | 'Alias' = 'Bban'
    let aliasType: string | null = null
    let identifierValue: string
    let hint: string
    if (a.bban !== undefined) {
      const parsed = parseBban(a.bban)
      if (!parsed) throw fail(`${where}.bban`, 'expected a 6-digit BSB and a 5- to 9-digit account number')
      identifierValue = `${parsed.bsb}${parsed.account}`
      hint = maskIdentifier('Bban', identifierValue)
    } else {
      let alias: ReturnType<typeof normaliseAlias>
      try {
        alias = normaliseAlias(a.alias?.aliasType ?? '', a.alias?.value ?? '')
      } catch (error) {
        throw fail(`${where}.alias`, (error as Error).message)
      }
      identifierType = 'Alias'
      aliasType = alias.aliasType
      identifierValue = alias.value
      hint = maskIdentifier(alias.aliasType, alias.value)
    }
    if (a.amount && a.amount.currency !== 'AUD') throw fail(`${where}.amount`, 'PayTo agreements are in AUD')
    const token = unused(where, store.agreements, a.token ?? ids.next('ptagr'))
    store.agreements.set(token, {
      token,
      agreementUid: ids.uuid(),
      merchantId: merchant.merchantId,
      customerName: a.customerName,
      identifierType,
      aliasType,
      identifierValue,
      accountIdentifierHint: hint,
      agreementType: a.amount ? 'OneOff' : 'Open',
      amount: a.amount ? { ...a.amount } : null,
      purpose: a.purpose ?? '',
      schedule: [{ status: a.status ?? 'Active', at }],
      paymentOutcome: a.paymentOutcome ?? 'approve',
      usedAt: null,
      createdAt: at,
    })
  })

  fixtures.webhookSubscriptions?.forEach((s, i) => {
    const where = `webhookSubscriptions[${i}]`
    let level: 'Marketplace' | 'Merchant' = 'Merchant'
    let merchantId: string | null = null
    let marketplaceId: string | null = null
    if (s.marketplaceId) {
      if (!lookup(store.marketplaces, s.marketplaceId)) throw fail(`${where}.marketplaceId`, `no marketplace ${s.marketplaceId}`)
      level = 'Marketplace'
      marketplaceId = s.marketplaceId
    } else merchantId = merchantOf(`${where}.merchantId`, s.merchantId).merchantId
    const id = unused(where, store.webhookSubscriptions, s.id ?? ids.next('webhook'))
    store.webhookSubscriptions.set(id, {
      id,
      level,
      marketplaceId,
      merchantId,
      url: s.url,
      events: [...new Set(s.events)],
      description: s.description ?? null,
      metadata: s.metadata ?? null,
      status: s.status ?? 'Active',
      secret: s.secret ?? `whsec_${ids.secret(32)}`,
      createdAt: at,
      updatedAt: at,
    })
  })

  fixtures.balances?.forEach((b, i) => {
    const where = `balances[${i}]`
    const merchant = merchantOf(`${where}.merchantId`, b.merchantId)
    if (!isKnownCurrency(b.amount.currency)) throw fail(`${where}.amount`, `unknown currency ${b.amount.currency}`)
    appendLedger(
      { store, clock, ids },
      {
        merchantId: merchant.merchantId,
        type: 'BankTransfer',
        amount: b.amount,
        description: b.description ?? 'Opening balance (fixture)',
        ...(b.available === false ? {} : { availableOn: at.slice(0, 10) }),
      },
    )
  })

  fixtures.serviceTokens?.forEach((t, i) => {
    const where = `serviceTokens[${i}]`
    let merchantId: string | null = null
    let marketplaceId: string | null
    if (t.marketplaceId) {
      if (!lookup(store.marketplaces, t.marketplaceId)) throw fail(`${where}.marketplaceId`, `no marketplace ${t.marketplaceId}`)
      marketplaceId = t.marketplaceId
    } else {
      const merchant = merchantOf(`${where}.merchantId`, t.merchantId)
      merchantId = merchant.merchantId
      marketplaceId = merchant.marketplaceId
    }
    const serviceTokenId = unused(where, store.serviceTokens, t.serviceTokenId ?? ids.next('stkn'))
    const token = credentialFree(`${where}.token`, t.token)
    store.serviceTokens.set(serviceTokenId, {
      serviceTokenId,
      token,
      tokenHint: `…${token.slice(-4)}`,
      ownerType: merchantId !== null ? 'Merchant' : 'Marketplace',
      merchantId,
      marketplaceId,
      description: t.description ?? null,
      status: 'Active',
      createdAt: at,
      updatedAt: at,
      expiresAt: t.expiresAt ? new Date(t.expiresAt).toISOString() : timestamp(addSeconds(now, 365 * 86_400)),
      revokedAt: null,
    })
  })
}
