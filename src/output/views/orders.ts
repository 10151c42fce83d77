// Orders (contract: Resources → Order).
import type { AddressRecord } from '../../client/schemas/common.js'
import type { Order } from '../../client/schemas/orders.js'
import { defineView, type Column } from '../view.js'
import { metadataCell } from './bookkeeping.js'

/** `line1, city state postalCode, country`, skipping what is missing. */
export function formatAddress(address: AddressRecord | null | undefined): string | undefined {
  if (!address) return undefined
  const cityLine = [address.city, address.state, address.postalCode].filter(Boolean).join(' ')
  const text = [address.line1, address.line2, cityLine, address.country].filter(Boolean).join(', ')
  return text || undefined
}

const orderId: Column<Order> = { key: 'orderId', header: 'Order' }
const referenceOrderId: Column<Order> = { key: 'referenceOrderId', header: 'Reference' }
const amount: Column<Order> = { key: 'amount', header: 'Amount', kind: 'money' }
const description: Column<Order> = { key: 'description', header: 'Description' }
const customerEmailAddress: Column<Order> = { key: 'customerEmailAddress', header: 'Customer email' }
const createdAt: Column<Order> = { key: 'createdAt', header: 'Created', kind: 'date' }
// Read from the record as the service sends it; the client's schema keeps unknown fields.
const status: Column<Order> = { key: 'status', header: 'Status' }
const transactionId: Column<Order> = { key: 'transactionId', header: 'Transaction' }

/** An order amount given as integer minor units (what real clients send) or as Money. */
function minorOf(value: Order['discountAmount']): number | undefined {
  return value === null || value === undefined ? undefined : typeof value === 'number' ? value : value.minorCurrencyUnits
}
const orderCurrency = (o: Order) => o.amount.currency

// List columns in order of importance: on a narrow terminal the last ones are left out.
export const orderView = defineView<Order>({
  name: 'order',
  columns: [orderId, status, amount, transactionId, referenceOrderId, createdAt, description, customerEmailAddress],
  detail: [
    orderId,
    status,
    transactionId,
    { key: 'payByLinkUrl', header: 'Pay-by-link URL' },
    { key: 'merchantId', header: 'Merchant' },
    referenceOrderId,
    amount,
    description,
    customerEmailAddress,
    { key: 'customerPhoneNumber', header: 'Customer phone' },
    { key: 'itemCount', header: 'Items', get: (o) => o.items?.length },
    { key: 'billing.name', header: 'Billing name' },
    { key: 'billing.phoneNumber', header: 'Billing phone' },
    {
      key: 'billing.address',
      header: 'Billing address',
      display: (_value, o) => formatAddress(o.billing?.address) ?? '-',
    },
    { key: 'discountAmount', header: 'Discount', kind: 'minor', currency: orderCurrency, get: (o) => minorOf(o.discountAmount) },
    { key: 'shipping.amount', header: 'Shipping', kind: 'minor', currency: orderCurrency, get: (o) => minorOf(o.shipping?.amount) },
    { key: 'shipping.name', header: 'Shipping name' },
    { key: 'shipping.address', header: 'Ship-to address', display: (_value, o) => formatAddress(o.shipping?.address) ?? '-' },
    { key: 'metadata', header: 'Metadata', kind: 'json', display: (_value, o) => metadataCell(o.metadata) },
    createdAt,
    { key: 'updatedAt', header: 'Updated', kind: 'date' },
  ],
})
