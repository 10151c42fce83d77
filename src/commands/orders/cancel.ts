import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { orderView } from '../../output/views/orders.js'

export default class OrdersCancel extends ApiCommand<typeof OrdersCancel> {
  static override summary = 'Cancel an order so it can no longer be paid.'
  static override description = 'Sends DELETE /orders/{orderId}. A paid or already cancelled order is refused by the service (exit 6).'
  static override examples = ['<%= config.bin %> orders cancel ordr_ZqCNoNcm_22WeZ-j', '<%= config.bin %> orders cancel ordr_ZqCNoNcm_22WeZ-j --json']

  static override args = {
    orderId: idArg('ordr', 'Order id (ordr_…).'),
  }

  async run() {
    const client = await this.client()
    return this.show(orderView, await client.orders.cancel(this.args.orderId))
  }
}
