// Customers, delegates, the upsert answer and the KYC answer (contract: Resources → Customer and
// customer delegate; fields beyond the identifiers come from the field notes and the emulator).
import type { Customer, CustomerDelegate, CustomerUpserted, KycResult } from '../../client/schemas/customers.js'
import { defineView, type Column } from '../view.js'
import { withOtherFields } from './auth.js'

/** A person's name from its parts, or an organisation's name. */
export function displayName(record: Record<string, unknown>): string | undefined {
  const person = [record.givenName, record.middleName, record.familyName].filter((p) => typeof p === 'string' && p).join(' ')
  if (person) return person
  return typeof record.organisationName === 'string' && record.organisationName ? record.organisationName : undefined
}

const c = {
  customerId: { key: 'customerId', header: 'Customer' },
  customerType: { key: 'customerType', header: 'Type' },
  emailAddress: { key: 'emailAddress', header: 'Email' },
  referenceCustomerId: { key: 'referenceCustomerId', header: 'Reference' },
  name: { key: 'name', header: 'Name', get: (r) => displayName(r) },
  phoneNumber: { key: 'phoneNumber', header: 'Phone' },
  createdAt: { key: 'createdAt', header: 'Created', kind: 'date' },
} satisfies Record<string, Column<Customer>>

export const customerView = defineView<Customer>({
  name: 'customer',
  columns: [c.customerId, c.customerType, c.emailAddress, c.referenceCustomerId, c.name, c.createdAt],
  detail: [
    c.customerId,
    { key: 'merchantId', header: 'Merchant' },
    c.customerType,
    c.emailAddress,
    c.referenceCustomerId,
    c.name,
    { key: 'givenName', header: 'Given name' },
    { key: 'middleName', header: 'Middle name' },
    { key: 'familyName', header: 'Family name' },
    { key: 'organisationName', header: 'Organisation' },
    { key: 'businessNumber', header: 'Business number' },
    c.phoneNumber,
    { key: 'isVerified', header: 'Verified' },
    { key: 'kycStatus', header: 'KYC status' },
    { key: 'metadata', header: 'Metadata', kind: 'json' },
    c.createdAt,
    { key: 'updatedAt', header: 'Updated', kind: 'date' },
  ],
})

/** One customer, with any field the service adds. */
export const customerDetailView = withOtherFields(customerView)

/** The answer of a customer upsert: `{customerId, merchantId}`. */
export const customerUpsertedView = withOtherFields(
  defineView<CustomerUpserted>({
    name: 'customer',
    columns: [
      { key: 'customerId', header: 'Customer' },
      { key: 'merchantId', header: 'Merchant' },
    ],
  }),
)

const d = {
  customerDelegateId: { key: 'customerDelegateId', header: 'Delegate' },
  customerId: { key: 'customerId', header: 'Customer' },
  emailAddress: { key: 'emailAddress', header: 'Email' },
  name: { key: 'name', header: 'Name', get: (r) => displayName(r) },
  createdAt: { key: 'createdAt', header: 'Created', kind: 'date' },
} satisfies Record<string, Column<CustomerDelegate>>

export const delegateView = defineView<CustomerDelegate>({
  name: 'customer delegate',
  columns: [d.customerDelegateId, d.customerId, d.emailAddress, d.name, d.createdAt],
  detail: [
    d.customerDelegateId,
    d.customerId,
    { key: 'merchantId', header: 'Merchant' },
    d.emailAddress,
    d.name,
    { key: 'phoneNumber', header: 'Phone' },
    d.createdAt,
    { key: 'updatedAt', header: 'Updated', kind: 'date' },
  ],
})

/** One delegate, with any field the service adds. */
export const delegateDetailView = withOtherFields(delegateView, { covers: ['givenName', 'familyName'] })

/** The KYC answer (experimental; shape not shown): status and the details still needed first. */
export const kycView = withOtherFields(
  defineView<KycResult>({
    name: 'KYC result',
    columns: [
      { key: 'customerId', header: 'Customer' },
      { key: 'kycStatus', header: 'KYC status' },
      { key: 'requiredDetails', header: 'Details still needed' },
    ],
  }),
)
