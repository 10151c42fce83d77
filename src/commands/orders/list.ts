import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { dateFlag, idsFlag, paginationFlags } from '../../cli/flags/index.js'
import { monthFlags } from '../../cli/flags/range.js'
import { orderView } from '../../output/views/orders.js'

export default class OrdersList extends ApiCommand<typeof OrdersList> {
  static override summary = 'List orders, one page or all of them.'
  static override description =
    'Shows one page (20 by default) with a footer on stderr saying how to see more; --all streams every page with flat memory, --max stops after that many records.'

  static override examples = [
    '<%= config.bin %> orders list',
    '<%= config.bin %> orders list --created-after 2026-11-01 --sort -createdAt --limit 50',
    '<%= config.bin %> orders list --all --csv > orders.csv',
    '<%= config.bin %> orders list --reference inv-1001 --json',
  ]

  static override flags = {
    ...paginationFlags({ sortFields: ['createdAt', 'updatedAt', 'amount', 'referenceOrderId', 'status'] }),
    'order-id': idsFlag('ordr', 'Only these orders (repeatable).'),
    reference: Flags.string({ description: 'Only orders with this referenceOrderId.' }),
    email: Flags.string({ description: "Only orders with this customer's e-mail address." }),
    status: Flags.string({ description: 'Only orders in this state.', options: ['pending', 'paid', 'cancelled'] }),
    'created-after': dateFlag('Only orders created at or after'),
    'created-before': dateFlag('Only orders created before'),
    ...monthFlags(),
  }

  async run() {
    const client = await this.client()
    const f = this.flags
    return this.showList(orderView, client.orders, {
      orderId: f['order-id'],
      referenceOrderId: f.reference,
      customerEmailAddress: f.email,
      status: f.status,
      createdAfter: f['created-after'],
      createdBefore: f['created-before'],
    })
  }
}
