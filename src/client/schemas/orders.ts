// Orders: the record, its parts, and the request bodies of create, update and pay.
import { z } from 'zod'
import { Address, AddressRecord, Metadata, MinorUnits, Money, MoneyRecord, Timestamp, idOf } from './common.js'

// ---------------------------------------------------------------------------------------------
// Requests

/**
 * One line of an order, as payfac sends it: `quantity` a whole number, as the contract says.
 * (Real integrations are seen to send decimals, 1.5 kg, and the service takes them, field notes:
 * the emulator accepts them by default and refuses them with --strict; lenient.ts.) `sku` and
 * `imageUrl` come from real integrations.
 */
export const OrderItemInput = z.strictObject({
  amount: Money,
  description: z.string().min(1),
  quantity: z
    .int()
    .positive()
    .meta({
      description:
        'A whole number, as the contract says. Real integrations are seen to send decimals (1.5) and the service takes them: ' +
        'a payfac emulator accepts them unless started with --strict (then 400).',
    }),
  sku: z.string().optional(),
  imageUrl: z.string().optional(),
})
export type OrderItemInput = z.infer<typeof OrderItemInput>

export const BillingInput = z.strictObject({
  address: Address,
  name: z.string().optional(),
  phoneNumber: z.string().optional(),
})
export type BillingInput = z.infer<typeof BillingInput>

/**
 * Where the goods go, as the service's shop plug-in sends it (field notes): every part may be an
 * empty string, because an order with nothing to ship carries the block with empty strings.
 */
export const ShippingAddress = z.strictObject({
  line1: z.string().optional(),
  line2: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  postalCode: z.string().optional(),
  country: z
    .string()
    .regex(/^([A-Za-z]{2})?$/, { error: 'expected a two-letter country code such as AU, or an empty string' })
    .optional(),
})
export type ShippingAddress = z.infer<typeof ShippingAddress>

/** Shipping: `amount` is an integer in minor units of the order's currency (field notes). */
export const ShippingInput = z.strictObject({
  amount: MinorUnits.nonnegative().optional(),
  address: ShippingAddress.optional(),
  name: z.string().optional(),
})
export type ShippingInput = z.infer<typeof ShippingInput>

/**
 * Fields of `CreateOnlineOrder` (contract) and `CreatePayByLinkOrder` (same fields). Only `amount`
 * is required: the contract does not say which others are. `discountAmount` (an integer in minor
 * units, 0 when there is none) and `shipping` are what the service's shop plug-in sends.
 */
const orderFields = {
  referenceOrderId: z.string().min(1).optional(),
  amount: Money,
  customerEmailAddress: z.string().optional(),
  customerPhoneNumber: z.string().optional(),
  description: z.string().optional(),
  items: z.array(OrderItemInput).optional(),
  billing: BillingInput.optional(),
  metadata: Metadata.optional(),
  discountAmount: MinorUnits.nonnegative().optional(),
  shipping: ShippingInput.optional(),
}

export const CreateOnlineOrder = z.strictObject(orderFields)
export type CreateOnlineOrder = z.infer<typeof CreateOnlineOrder>

export const CreatePayByLinkOrder = z.strictObject(orderFields)
export type CreatePayByLinkOrder = z.infer<typeof CreatePayByLinkOrder>

export const UpdateReferenceOrderId = z.strictObject({
  referenceOrderId: z.string().min(1),
})
export type UpdateReferenceOrderId = z.infer<typeof UpdateReferenceOrderId>

const paymentTokenId = idOf('ptkn')

export const PayByPayTo = z.strictObject({ paymentTokenId })
export type PayByPayTo = z.infer<typeof PayByPayTo>

export const PayByCard = z.strictObject({ paymentTokenId, request3DS: z.boolean().optional() })
export type PayByCard = z.infer<typeof PayByCard>

export const PayByPaymentToken = z.strictObject({ paymentTokenId })
export type PayByPaymentToken = z.infer<typeof PayByPaymentToken>

/** Second pay call after the browser ran the 3DS challenge. The response's form is not published: text or an object. */
export const Confirm3DSComplete = z.strictObject({
  paymentTokenId,
  threeDSResponse: z.union([z.string().min(1), z.record(z.string(), z.unknown())]),
  authoriseOnly: z.boolean().optional(),
})
export type Confirm3DSComplete = z.infer<typeof Confirm3DSComplete>

// ---------------------------------------------------------------------------------------------
// Responses

export const OrderItem = z.looseObject({
  amount: MoneyRecord.nullish(),
  description: z.string().nullish(),
  quantity: z.number().nullish(),
  sku: z.string().nullish(),
  imageUrl: z.string().nullish(),
})
export type OrderItem = z.infer<typeof OrderItem>

export const Billing = z.looseObject({
  address: AddressRecord.nullish(),
  name: z.string().nullish(),
  phoneNumber: z.string().nullish(),
})
export type Billing = z.infer<typeof Billing>

/** An amount on an order that real answers give as integer minor units; a Money object is read too. */
const OrderAmount = z.union([MinorUnits, MoneyRecord])

export const Shipping = z.looseObject({
  amount: OrderAmount.nullish(),
  address: AddressRecord.nullish(),
  name: z.string().nullish(),
})
export type Shipping = z.infer<typeof Shipping>

/** The order record. `orderId` and `amount` are required; the rest may be absent or null. */
export const Order = z.looseObject({
  orderId: z.string(),
  merchantId: z.string().nullish(),
  referenceOrderId: z.string().nullish(),
  amount: MoneyRecord,
  description: z.string().nullish(),
  customerEmailAddress: z.string().nullish(),
  customerPhoneNumber: z.string().nullish(),
  customerName: z.string().nullish(),
  items: z.array(OrderItem).nullish(),
  billing: Billing.nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  discountAmount: OrderAmount.nullish(),
  shipping: Shipping.nullish(),
  orderType: z.string().nullish(),
  createdAt: Timestamp.nullish(),
  updatedAt: Timestamp.nullish(),
})
export type Order = z.infer<typeof Order>

/** Answer of `POST /orders` with `CreateOnlineOrder`: `{ OnlineOrder: { order } }`. */
export const OnlineOrder = z.looseObject({ order: Order })
export type OnlineOrder = z.infer<typeof OnlineOrder>

/**
 * Answer of pay when a card payment needs a 3DS challenge (200, envelope
 * `ThreeDSAuthorisationRequired`). Only `threeDSAuthorisationId` is known.
 */
export const ThreeDSAuthorisationRequired = z.looseObject({
  threeDSAuthorisationId: z.string(),
})
export type ThreeDSAuthorisationRequired = z.infer<typeof ThreeDSAuthorisationRequired>
