// Flags of `orders create` for what the service's shop plug-in sets on an order (field notes):
// a discount and a shipping block. Amounts are decimal major units, converted exactly by the
// order's currency into the integer minor units the service takes (src/cli/requests/orders.ts).
import * as Flags from '@oclif/core/flags'

export const SHIPPING_FLAGS = ['discount', 'shipping-amount', 'shipping-name', 'shipping-address']

export function shippingFlags() {
  return {
    discount: Flags.string({ description: 'Discount on the order in major units, such as 5.00 (discountAmount; 0 for none).' }),
    'shipping-amount': Flags.string({ description: 'Shipping cost in major units, such as 8.00 (shipping.amount).' }),
    'shipping-name': Flags.string({ description: 'Name of the person the goods go to (shipping.name).' }),
    'shipping-address': Flags.string({
      description: 'Shipping address "<line1>|<city>|<state>|<postalCode>|<country>" (a <line2> after <line1> makes six parts).',
    }),
  }
}
