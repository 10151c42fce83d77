// Marketplaces and marketplace customers. The contract shows neither record; the fields are the
// emulator's (docs/emulator.md), and single-record tables add any other field.
import type { Marketplace } from '../../client/schemas/marketplaces.js'
import { isPlainObject } from '../flatten.js'
import { defineView } from '../view.js'
import { withOtherFields } from './auth.js'
import { displayName } from './customers.js'

type Row = Record<string, unknown>

export const marketplaceView = withOtherFields(
  defineView<Marketplace>({
    name: 'marketplace',
    columns: [
      { key: 'marketplaceId', header: 'Marketplace' },
      { key: 'name', header: 'Name' },
      { key: 'merchantCount', header: 'Merchants' },
      { key: 'merchantIds', header: 'Merchant ids' },
      { key: 'createdAt', header: 'Created', kind: 'date' },
      { key: 'updatedAt', header: 'Updated', kind: 'date' },
    ],
  }),
)

/** A marketplace customer, with the merchant customers already made for the same person. */
export const marketplaceCustomerView = withOtherFields(
  defineView<Row>({
    name: 'marketplace customer',
    columns: [
      { key: 'marketplaceCustomerId', header: 'Marketplace customer' },
      { key: 'marketplaceId', header: 'Marketplace' },
      { key: 'emailAddress', header: 'Email' },
      { key: 'name', header: 'Name', get: (r) => displayName(r) },
      { key: 'phoneNumber', header: 'Phone' },
      { key: 'referenceCustomerId', header: 'Reference' },
      { key: 'created', header: 'Created now' },
      {
        key: 'merchantCustomers',
        header: 'Merchant customers',
        display: (value) =>
          Array.isArray(value) && value.length > 0
            ? value.map((c) => (isPlainObject(c) ? `${String(c.customerId)} (${String(c.merchantId)})` : String(c))).join(', ')
            : '-',
      },
      { key: 'metadata', header: 'Metadata', kind: 'json' },
      { key: 'createdAt', header: 'Created', kind: 'date' },
      { key: 'updatedAt', header: 'Updated', kind: 'date' },
    ],
  }),
  { covers: ['givenName', 'middleName', 'familyName'] },
)
