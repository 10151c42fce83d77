import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { orderView } from '../../output/views/orders.js'

export default class OrdersGet extends ApiCommand<typeof OrdersGet> {
  static override summary = 'Show an order.'
  static override examples = ['<%= config.bin %> orders get ordr_ZqCNoNcm_22WeZ-j', '<%= config.bin %> orders get ordr_ZqCNoNcm_22WeZ-j --json']

  static override args = {
    orderId: idArg('ordr', 'Order id (ordr_…).'),
  }

  async run() {
    const client = await this.client()
    return this.show(orderView, await client.orders.get(this.args.orderId))
  }
}
