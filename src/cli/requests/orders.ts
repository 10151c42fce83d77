// Builds order request bodies from parsed flags. Pure: no I/O, no client.
import { toMinorUnits } from '../../client/money.js'
import { UsageError } from '../errors/index.js'
import { asUsage, metadataFrom, minorUnitsFrom, moneyFrom } from '../flags/index.js'
import { checkCountry, checkEmail, checkNonEmpty, checkPhone, refusePreviousGenerationFields } from '../validate/index.js'

export interface OrderFlagValues {
  amount?: string | undefined
  currency?: string | undefined
  reference?: string | undefined
  description?: string | undefined
  email?: string | undefined
  phone?: string | undefined
  item?: string[] | undefined
  'billing-name'?: string | undefined
  'billing-phone'?: string | undefined
  'billing-address'?: string | undefined
  metadata?: string[] | undefined
  discount?: string | undefined
  'shipping-amount'?: string | undefined
  'shipping-name'?: string | undefined
  'shipping-address'?: string | undefined
}

/** The CreateOnlineOrder (or CreatePayByLinkOrder) body from flags. */
export function orderBodyFromFlags(f: OrderFlagValues): Record<string, unknown> {
  if (!f.amount || !f.currency || !f.reference) {
    throw new UsageError('An order needs --amount, --currency and --reference (or the whole body with --data)')
  }
  const body: Record<string, unknown> = {
    referenceOrderId: checkNonEmpty(f.reference, '--reference'),
    amount: moneyFrom(f.amount, f.currency),
  }
  if (f.description) body.description = f.description
  if (f.email) body.customerEmailAddress = checkEmail(f.email, '--email')
  if (f.phone) body.customerPhoneNumber = checkPhone(f.phone, '--phone')
  if (f.item?.length) body.items = f.item.map((text) => parseItem(text, f.currency as string))
  const billing = billingFromFlags(f)
  if (billing) body.billing = billing
  const metadata = metadataFrom(f.metadata)
  if (metadata) body.metadata = metadata
  if (f.discount !== undefined) body.discountAmount = amountOrZero(f.discount, f.currency, '--discount')
  if (Array.isArray(body.items)) checkItemsTotal(body.items, body.amount as { minorCurrencyUnits: number }, (body.discountAmount as number | undefined) ?? 0)
  const shipping = shippingFromFlags(f, f.currency)
  if (shipping) body.shipping = shipping
  return body
}

/**
 * Refuses items whose total (quantity × unit amount, in minor units) is more than the order's
 * amount plus its discount (a discount lowers the amount below the items' total).
 */
export function checkItemsTotal<I extends { quantity: number; amount: { minorCurrencyUnits: number } }>(
  items: I[],
  order: { minorCurrencyUnits: number },
  discount = 0,
): I[] {
  const total = items.reduce((sum, item) => sum + item.quantity * item.amount.minorCurrencyUnits, 0)
  if (total > order.minorCurrencyUnits + discount) {
    const bound = discount
      ? `the order's --amount and --discount (${order.minorCurrencyUnits} + ${discount})`
      : `the order's --amount (${order.minorCurrencyUnits})`
    throw new UsageError(
      `The --item lines add up to ${total} minor units, more than ${bound}`,
      'Each --item amount is a unit price: quantity × amount, summed, may not exceed --amount plus --discount',
    )
  }
  return items
}

/**
 * An amount that may be 0 (a discount, a shipping cost), in minor units of the order's currency,
 * as the service's shop plug-in sends them: a bare integer, not Money (field notes).
 */
function amountOrZero(text: string, currency: string, flag: string): number {
  return asUsage(() => toMinorUnits(text, currency, { allowZero: true }), flag)
}

/** `--shipping-amount`, `--shipping-name`, `--shipping-address`: the shipping block, when any is given. */
function shippingFromFlags(f: OrderFlagValues, currency: string) {
  const amount = f['shipping-amount']
  const name = f['shipping-name']
  const address = f['shipping-address']
  if (amount === undefined && name === undefined && address === undefined) return undefined
  const shipping: Record<string, unknown> = {}
  if (amount !== undefined) shipping.amount = amountOrZero(amount, currency, '--shipping-amount')
  if (address !== undefined) shipping.address = parseAddress(address, '--shipping-address')
  if (name !== undefined) shipping.name = checkNonEmpty(name, '--shipping-name')
  return shipping
}

/**
 * `"<description>:<quantity>:<amount>"`, optionally followed by `:sku=<sku>`; the description may
 * itself contain colons.
 */
export function parseItem(text: string, currency: string) {
  const parts = text.split(':')
  const sku = parts.length > 3 && /^sku=/i.test(parts.at(-1) as string) ? (parts.pop() as string).slice(4).trim() : undefined
  if (sku === '') throw new UsageError(`--item "${text}": sku= needs a value`, 'For example --item "Mug:2:15.00:sku=MUG-01"')
  if (parts.length < 3) {
    throw new UsageError(`--item takes "<description>:<quantity>:<amount>[:sku=<sku>]" (got "${text}")`, 'For example --item "Coffee beans 1kg:2:25.00"')
  }
  const amountText = parts.pop() as string
  const quantityText = parts.pop() as string
  const description = parts.join(':').trim()
  if (!description) throw new UsageError(`--item "${text}" has no description`)
  if (!/^[1-9]\d*$/.test(quantityText.trim())) {
    throw new UsageError(`--item "${text}": the quantity must be a whole number of at least 1 (got "${quantityText}")`)
  }
  return {
    description,
    quantity: Number(quantityText.trim()),
    amount: { minorCurrencyUnits: minorUnitsFrom(amountText, currency, '--item amount'), currency: currency.toUpperCase() },
    ...(sku === undefined ? {} : { sku }),
  }
}

/** `"<line1>|<city>|<state>|<postalCode>|<country>"`, or with `<line2>` after `<line1>` (six parts). */
export function parseAddress(text: string, flag = '--billing-address') {
  const parts = text.split('|').map((p) => p.trim())
  if ((parts.length !== 5 && parts.length !== 6) || parts.some((p) => !p)) {
    throw new UsageError(
      `${flag} takes "<line1>|<city>|<state>|<postalCode>|<country>", or "<line1>|<line2>|<city>|<state>|<postalCode>|<country>" (got "${text}")`,
      `For example ${flag} "1 Market St|Level 2|Sydney|NSW|2000|AU"`,
    )
  }
  const line2 = parts.length === 6 ? parts.splice(1, 1)[0] : undefined
  const [line1, city, state, postalCode, country] = parts as [string, string, string, string, string]
  return { line1, ...(line2 === undefined ? {} : { line2 }), city, state, postalCode, country: checkCountry(country, flag) }
}

function billingFromFlags(f: OrderFlagValues) {
  const name = f['billing-name']
  const phone = f['billing-phone']
  const address = f['billing-address']
  if (!name && !phone && !address) return undefined
  const billing: Record<string, unknown> = {}
  if (address) billing.address = parseAddress(address)
  if (name) billing.name = name
  if (phone) billing.phoneNumber = checkPhone(phone, '--billing-phone')
  return billing
}

/**
 * The create envelope from `--data` (either the bare body or the whole single-key envelope) or from
 * flags. Previous-generation field names are refused, since the contract shows this shape.
 */
export function orderEnvelope(kind: 'CreateOnlineOrder' | 'CreatePayByLinkOrder', data: Record<string, unknown> | undefined, flags: OrderFlagValues) {
  if (!data) return { [kind]: orderBodyFromFlags(flags) }
  const keys = Object.keys(data)
  const body = keys.length === 1 && keys[0] === kind ? (data[kind] as Record<string, unknown>) : data
  refusePreviousGenerationFields(body)
  return { [kind]: body }
}

/** The pay envelope for `orders pay --method`. */
export function payEnvelope(method: string, paymentTokenId: string, request3DS: boolean) {
  if (request3DS && method !== 'card') throw new UsageError('--request-3ds applies to card payments only', 'Add --method card')
  if (method === 'card') return { PayByCard: { paymentTokenId, request3DS } }
  if (method === 'payment-token') return { PayByPaymentToken: { paymentTokenId } }
  return { PayByPayTo: { paymentTokenId } }
}
