import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { checkNonEmpty } from '../../cli/validate/index.js'
import { orderView } from '../../output/views/orders.js'

export default class OrdersSetReference extends ApiCommand<typeof OrdersSetReference> {
  static override summary = "Change an order's own reference (UpdateReferenceOrderId)."
  static override examples = [
    '<%= config.bin %> orders set-reference ordr_ZqCNoNcm_22WeZ-j inv-1001-b',
    '<%= config.bin %> orders set-reference ordr_ZqCNoNcm_22WeZ-j inv-1001-b --json',
  ]

  static override args = {
    orderId: idArg('ordr', 'Order id (ordr_…).'),
    reference: Args.string({ description: 'The new referenceOrderId.', required: true, parse: async (input) => checkNonEmpty(input, 'The reference') }),
  }

  async run() {
    const client = await this.client()
    return this.show(orderView, await client.orders.setReference(this.args.orderId, this.args.reference))
  }
}
