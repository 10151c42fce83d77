// Customers (consumer and organisation), customer delegates, and the KYC check.
// A customer belongs to one merchant. Upserts find the existing record by its business key, per
// merchant: a consumer by `emailAddress` (compared without case), an organisation by
// `referenceCustomerId`; the fields sent overwrite, the fields not sent are kept.
import { z } from 'zod'
import { Address, EmailAddress, Metadata, PhoneNumberE164 } from '../../client/schemas/common.js'
import type { RegisterPluginConsumerCustomer, UpsertConsumerCustomer } from '../../client/schemas/customers.js'
import { badRequest, conflict, notFound, unprocessable } from '../api-error.js'
import { PRIVATE, PRIVATE_OR_CUSTOMER, mayActForMerchant, requireMerchant, visibleMerchantIds, visibleOr404 } from '../auth.js'
import { timestamp } from '../clock.js'
import { emitEvent } from '../events.js'
import { customersWithin, filters, merchantsWithin, paginate } from '../lists.js'
import { action, route, type HandlerContext } from '../route.js'
import { lookup, type AgreementRecord, type CustomerRecord, type DelegateRecord } from '../store.js'

export function customerView(c: CustomerRecord) {
  const { kycDetails: _internal, ...view } = c
  return view
}

export function delegateView(d: DelegateRecord) {
  return { ...d }
}

/** A customer the request may act for (404 otherwise). */
export function visibleCustomer(ctx: HandlerContext, id: string): CustomerRecord {
  const customer = lookup(ctx.store.customers, id)
  const visible =
    customer !== undefined &&
    mayActForMerchant(ctx.store, ctx.scope, customer.merchantId) &&
    (ctx.principal.kind !== 'customer' || customer.customerId === ctx.principal.customerId)
  if (!visible || !customer) throw notFound('Customer', id)
  return customer
}

function visibleDelegate(ctx: HandlerContext, id: string): DelegateRecord {
  return visibleOr404(ctx, ctx.store.delegates, id, 'Customer delegate')
}

function newCustomer(ctx: HandlerContext, merchantId: string, customerType: CustomerRecord['customerType']): CustomerRecord {
  const now = timestamp(ctx.clock.now())
  return {
    customerId: ctx.ids.next('cust'),
    merchantId,
    customerType,
    emailAddress: null,
    phoneNumber: null,
    referenceCustomerId: null,
    givenName: null,
    middleName: null,
    familyName: null,
    organisationName: null,
    businessNumber: null,
    isVerified: false,
    metadata: null,
    kycStatus: 'NotStarted',
    kycDetails: {},
    createdAt: now,
    updatedAt: now,
  }
}

/**
 * The customer behind an agreement saved as a source without a customer in context (the open
 * flow of the contract names none): the one it was sent for; else, for an Email alias, the
 * merchant's consumer customer with that address; else a consumer customer made for it, named
 * after the agreement's `customerName` (CustomerCreated follows). It is kept on the agreement.
 */
export function customerForAgreement(ctx: HandlerContext, agreement: AgreementRecord): CustomerRecord {
  const known = agreement.customerId ? lookup(ctx.store.customers, agreement.customerId) : undefined
  if (known) return known
  const email = agreement.aliasType === 'Email' ? agreement.identifierValue : null
  let customer =
    email === null
      ? undefined
      : ctx.store.customers.byIndex('emailAddress', email).find((c) => c.merchantId === agreement.merchantId && c.customerType === 'Consumer')
  if (!customer) {
    customer = newCustomer(ctx, agreement.merchantId, 'Consumer')
    customer.givenName = agreement.customerName
    customer.emailAddress = email
    customer.phoneNumber = agreement.aliasType === 'Phone' ? agreement.identifierValue : null
    ctx.store.customers.set(customer.customerId, customer)
    emitEvent(ctx, 'CustomerCreated', customer.merchantId, { customerId: customer.customerId, customer: customerView(customer) })
  }
  agreement.customerId = customer.customerId
  return customer
}

/**
 * Fields the emulator sets itself. A body never overwrites them, not even with a field the schemas
 * do not know (a lenient emulator keeps unknown fields on the record, beside its own).
 */
const OWN_FIELDS: ReadonlySet<string> = new Set([
  'customerId',
  'customerDelegateId',
  'merchantId',
  'customerType',
  'kycStatus',
  'kycDetails',
  'createdAt',
  'updatedAt',
])

/** Copies the fields that were sent onto the record. */
function merge<T extends object>(record: T, fields: Partial<T>): void {
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && !OWN_FIELDS.has(key)) (record as Record<string, unknown>)[key] = value
}

function saveUpsert(ctx: HandlerContext, existing: CustomerRecord | undefined, created: () => CustomerRecord, fields: Partial<CustomerRecord>) {
  const record = existing ?? created()
  merge(record, fields)
  record.updatedAt = timestamp(ctx.clock.now())
  ctx.store.customers.set(record.customerId, record)
  if (!existing) {
    emitEvent(ctx, 'CustomerCreated', record.merchantId, { customerId: record.customerId, customer: customerView(record) })
  }
  return { customerId: record.customerId, merchantId: record.merchantId }
}

function upsertConsumer(ctx: HandlerContext, body: UpsertConsumerCustomer | RegisterPluginConsumerCustomer) {
  const merchant = requireMerchant(ctx.store, ctx.scope)
  const email = body.emailAddress.toLowerCase()
  const existing = ctx.store.customers.byIndex('emailAddress', email).find((c) => c.merchantId === merchant.merchantId && c.customerType === 'Consumer')
  return saveUpsert(ctx, existing, () => newCustomer(ctx, merchant.merchantId, 'Consumer'), body)
}

/** The emulator's fields for an organisation customer (the contract shows only the business key). */
const UpsertOrganisationCustomerBody = z.strictObject({
  referenceCustomerId: z.string().min(1),
  organisationName: z.string().min(1).optional(),
  businessNumber: z
    .string()
    .regex(/^\d{9}$|^\d{11}$/, { error: 'expected an ABN (11 digits) or ACN (9 digits)' })
    .optional(),
  emailAddress: EmailAddress.optional(),
  phoneNumber: PhoneNumberE164.optional(),
  metadata: Metadata.optional(),
})

function upsertOrganisation(ctx: HandlerContext, body: z.output<typeof UpsertOrganisationCustomerBody>) {
  const merchant = requireMerchant(ctx.store, ctx.scope)
  const existing = ctx.store.customers
    .byIndex('referenceCustomerId', body.referenceCustomerId)
    .find((c) => c.merchantId === merchant.merchantId && c.customerType === 'Organisation')
  return saveUpsert(ctx, existing, () => newCustomer(ctx, merchant.merchantId, 'Organisation'), body)
}

// KYC ---------------------------------------------------------------------------------------

/** The details a KYC check needs, in the order they are asked for. */
export const KYC_REQUIRED = ['dateOfBirth', 'address', 'identityDocument'] as const

const KycBody = z.strictObject({
  customerId: z.string().min(1).optional(),
  dateOfBirth: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'expected a date YYYY-MM-DD' })
    .optional(),
  address: Address.optional(),
  identityDocument: z.strictObject({ documentType: z.enum(['DriversLicence', 'Passport', 'MedicareCard']), documentNumber: z.string().min(1) }).optional(),
})

function kycCheck(ctx: HandlerContext, body: z.output<typeof KycBody>) {
  const id = body.customerId ?? ctx.scope.customerId
  if (!id) throw badRequest('customer_required', 'Name the customer with "customerId" or the Customer-Id header')
  const customer = visibleCustomer(ctx, id)
  if (customer.customerType !== 'Consumer') throw unprocessable('not_a_consumer', 'The KYC check is for consumer customers')
  const { customerId: _id, ...details } = body
  merge(customer.kycDetails, details)
  const missing = KYC_REQUIRED.filter((name) => customer.kycDetails[name] === undefined)
  customer.kycStatus = missing.length === 0 ? 'Verified' : 'MoreDetailsRequired'
  if (missing.length === 0) customer.isVerified = true
  customer.updatedAt = timestamp(ctx.clock.now())
  return { customerId: customer.customerId, kycStatus: customer.kycStatus, requiredDetails: missing }
}

// Delegates -------------------------------------------------------------------------------------

const UpsertDelegateBody = z.strictObject({
  customerId: z.string().min(1),
  emailAddress: EmailAddress,
  givenName: z.string().optional(),
  familyName: z.string().optional(),
  phoneNumber: PhoneNumberE164.optional(),
})

const LinkDelegateBody = z.strictObject({ customerId: z.string().min(1) })

function organisationFor(ctx: HandlerContext, customerId: string): CustomerRecord {
  const customer = visibleCustomer(ctx, customerId)
  if (customer.customerType !== 'Organisation') {
    throw unprocessable('not_an_organisation', 'A delegate acts for an organisation customer; this customer is a consumer')
  }
  return customer
}

function upsertDelegate(ctx: HandlerContext, body: z.output<typeof UpsertDelegateBody>) {
  const customer = organisationFor(ctx, body.customerId)
  const email = body.emailAddress.toLowerCase()
  const now = timestamp(ctx.clock.now())
  let delegate = ctx.store.delegates.byIndex('emailAddress', email).find((d) => d.merchantId === customer.merchantId)
  if (delegate && delegate.customerId !== customer.customerId) {
    throw conflict('delegate_linked_elsewhere', `This delegate acts for ${delegate.customerId}; move it with the LinkDelegateToCustomer action`)
  }
  if (!delegate) {
    delegate = {
      customerDelegateId: ctx.ids.next('custd'),
      customerId: customer.customerId,
      merchantId: customer.merchantId,
      emailAddress: body.emailAddress,
      givenName: null,
      familyName: null,
      phoneNumber: null,
      createdAt: now,
      updatedAt: now,
    }
    ctx.store.delegates.set(delegate.customerDelegateId, delegate)
  }
  const { customerId: _c, ...fields } = body
  merge(delegate, fields)
  delegate.updatedAt = now
  ctx.store.delegates.reindex(delegate.customerDelegateId)
  return delegateView(delegate)
}

export const routes = [
  route({
    method: 'GET',
    path: '/customers',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const emails = f.list('emailAddress')?.map((e) => e.toLowerCase())
      const customerIds = f.list('customerId')
      const merchantIds = f.list('merchantId')
      const references = f.list('referenceCustomerId')
      const name = f.string('name')?.toLowerCase()
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.customers.select({
        ids: customersWithin(ctx.scope, customerIds),
        where: { merchantId: merchantsWithin(visible, merchantIds), emailAddress: emails, referenceCustomerId: references },
        after,
        before,
        filter:
          name === undefined
            ? undefined
            : (c) => [c.givenName, c.middleName, c.familyName, c.organisationName].filter(Boolean).join(' ').toLowerCase().includes(name),
        filterKey: name,
      })
      return paginate(records, req.query, {
        sortable: {
          createdAt: (c) => c.createdAt,
          updatedAt: (c) => c.updatedAt,
          emailAddress: (c) => c.emailAddress,
          familyName: (c) => c.familyName,
          givenName: (c) => c.givenName,
          referenceCustomerId: (c) => c.referenceCustomerId,
        },
        view: customerView,
      })
    },
  }),
  route({
    method: 'POST',
    path: '/customers',
    allow: PRIVATE,
    actions: {
      UpsertConsumerCustomer: action<UpsertConsumerCustomer>((ctx, body) => upsertConsumer(ctx, body)),
      UpsertOrganisationCustomer: action(UpsertOrganisationCustomerBody, (ctx, body) => upsertOrganisation(ctx, body)),
      // The service's shop plug-in registers every signed-in shopper this way (field notes): a consumer upsert by e-mail.
      RegisterPluginConsumerCustomer: action<RegisterPluginConsumerCustomer>((ctx, body) => upsertConsumer(ctx, body)),
    },
  }),
  route({
    method: 'GET',
    path: '/customers/{customerId}',
    allow: PRIVATE_OR_CUSTOMER,
    handle: (ctx, req) => customerView(visibleCustomer(ctx, req.params.customerId as string)),
  }),
  route({
    method: 'POST',
    path: '/customers/kyc',
    allow: PRIVATE,
    body: KycBody,
    handle: (ctx, req) => kycCheck(ctx, req.body),
  }),
  route({
    method: 'GET',
    path: '/customers/delegates',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const customerIds = f.list('customerId')
      const ids = f.list('customerDelegateId')
      const emails = f.list('emailAddress')?.map((e) => e.toLowerCase())
      const merchantIds = f.list('merchantId')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.delegates.select({
        ids,
        where: { merchantId: merchantsWithin(visible, merchantIds), customerId: customersWithin(ctx.scope, customerIds), emailAddress: emails },
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (d) => d.createdAt, updatedAt: (d) => d.updatedAt, emailAddress: (d) => d.emailAddress },
        view: delegateView,
      })
    },
  }),
  route({
    method: 'POST',
    path: '/customers/delegates',
    allow: PRIVATE,
    body: UpsertDelegateBody,
    handle: (ctx, req) => upsertDelegate(ctx, req.body),
  }),
  route({
    method: 'GET',
    path: '/customers/delegates/{customerDelegateId}',
    allow: PRIVATE,
    handle: (ctx, req) => delegateView(visibleDelegate(ctx, req.params.customerDelegateId as string)),
  }),
  route({
    method: 'PATCH',
    path: '/customers/delegates/{customerDelegateId}',
    allow: PRIVATE,
    actions: {
      LinkDelegateToCustomer: action(LinkDelegateBody, (ctx, body, req) => {
        const delegate = visibleDelegate(ctx, req.params.customerDelegateId as string)
        const customer = organisationFor(ctx, body.customerId)
        if (customer.merchantId !== delegate.merchantId) {
          throw unprocessable('merchant_mismatch', 'A delegate can be linked only to a customer of the same merchant')
        }
        delegate.customerId = customer.customerId
        delegate.updatedAt = timestamp(ctx.clock.now())
        ctx.store.delegates.reindex(delegate.customerDelegateId)
        return delegateView(delegate)
      }),
    },
  }),
  route({
    method: 'DELETE',
    path: '/customers/delegates/{customerDelegateId}',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const delegate = visibleDelegate(ctx, req.params.customerDelegateId as string)
      ctx.store.delegates.delete(delegate.customerDelegateId)
      for (const [token, session] of ctx.store.customerSessions.entries()) {
        if (session.customerDelegateId === delegate.customerDelegateId) ctx.store.customerSessions.delete(token)
      }
      return delegateView(delegate)
    },
  }),
]
