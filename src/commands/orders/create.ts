import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { fromFile } from '../../cli/bulk/index.js'
import { againFlag } from '../../cli/flags/safety.js'
import { bulkFlags } from '../../cli/flags/bulk.js'
import { dataFlag, metadataFlag, moneyFlags } from '../../cli/flags/index.js'
import { SHIPPING_FLAGS, shippingFlags } from '../../cli/flags/orders.js'
import { readDataObject } from '../../cli/files/input.js'
import { askOrder } from '../../cli/terminal/prompts.js'
import { checkReference } from '../../cli/validate/index.js'
import { orderEnvelope } from '../../cli/requests/orders.js'
import { createOrderOperation, type IfExists } from '../../cli/safety/order-ops.js'
import { orderView } from '../../output/views/orders.js'

const FIELD_FLAGS = [
  'amount',
  'currency',
  'reference',
  'description',
  'email',
  'phone',
  'item',
  'billing-name',
  'billing-phone',
  'billing-address',
  'metadata',
  ...SHIPPING_FLAGS,
]

export default class OrdersCreate extends ApiCommand<typeof OrdersCreate> {
  static override summary = 'Create an order for a customer to pay.'
  static override description =
    'Sends CreateOnlineOrder (or CreatePayByLinkOrder with --pay-by-link). Amounts are decimal major units, converted exactly by the currency; --data sends a whole body instead of the field flags. An order with the same referenceOrderId is looked for first: --if-exists fail (the default) refuses with exit 6 naming it, reuse prints it, create makes another. At most once: journaled, and a re-run after a lost answer (exit 7) looks for the order by its reference before creating it.'

  static override examples = [
    '<%= config.bin %> orders create --amount 12.50 --currency AUD --reference inv-1001',
    '<%= config.bin %> orders create --amount 40 --currency AUD --reference inv-1002 --item "Coffee beans 1kg:2:20.00" --email jo@example.com --metadata channel=web',
    '<%= config.bin %> orders create --reference inv-1003 --amount 99.95 --currency AUD --billing-name "Jo Citizen" --billing-address "1 Market St|Sydney|NSW|2000|AU"',
    '<%= config.bin %> orders create --reference wc-1004 --amount 48.00 --currency AUD --item "Mug:3:15.00:sku=MUG-01" --discount 5 --shipping-amount 8 --shipping-name "Jo Citizen" --shipping-address "1 Market St|Level 2|Sydney|NSW|2000|AU"',
    '<%= config.bin %> orders create --data @order.json --json',
    '<%= config.bin %> orders create --amount 12.50 --currency AUD --reference inv-1001 --if-exists reuse --json',
    '<%= config.bin %> orders create --from-file orders.csv --out results.csv',
  ]

  static override flags = {
    ...moneyFlags(),
    reference: Flags.string({
      description: 'Your own identifier of the order (referenceOrderId); no comma.',
      parse: async (input) => checkReference(input, '--reference'),
    }),
    description: Flags.string({ description: 'What the order is for.' }),
    email: Flags.string({ description: "Customer's e-mail address." }),
    phone: Flags.string({ description: "Customer's phone number, E.164 (+61401234567)." }),
    item: Flags.string({ description: 'A line item "<description>:<quantity>:<amount>", optionally ":sku=<sku>" after it (repeatable).', multiple: true }),
    'billing-name': Flags.string({ description: 'Billing name.' }),
    'billing-phone': Flags.string({ description: 'Billing phone number, E.164.' }),
    'billing-address': Flags.string({
      description: 'Billing address "<line1>|<city>|<state>|<postalCode>|<country>" (a <line2> after <line1> makes six parts).',
    }),
    ...shippingFlags(),
    metadata: metadataFlag('Order metadata as key=value (repeatable); returned as orderMetadata on the transaction.'),
    'pay-by-link': Flags.boolean({ description: 'Create a pay-by-link order (CreatePayByLinkOrder).' }),
    data: dataFlag('The whole order body as JSON: text, @file, or - for stdin.', FIELD_FLAGS),
    'if-exists': Flags.string({
      description: 'When an order with this reference exists: fail (exit 6), reuse (print it) or create (another).',
      options: ['fail', 'reuse', 'create'],
      default: 'fail',
    }),
    again: againFlag,
    ...bulkFlags(),
  }

  async run() {
    if (this.flags['from-file']) return fromFile(this.bulkHost())
    const flags = await askOrder(this.flags)
    const data = flags.data ? await readDataObject(flags.data) : undefined
    const envelope = orderEnvelope(flags['pay-by-link'] ? 'CreatePayByLinkOrder' : 'CreateOnlineOrder', data, flags)
    const order = await createOrderOperation(await this.safety(), await this.client(), envelope, flags['if-exists'] as IfExists)
    return this.show(orderView, order)
  }
}
