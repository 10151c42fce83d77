import { ApiCommand } from '../../cli/base-command.js'
import { dateFlag, idsFlag, paginationFlags } from '../../cli/flags/index.js'
import { monthFlags } from '../../cli/flags/range.js'
import { paymentSourceView } from '../../output/views/sources.js'

export default class SourcesList extends ApiCommand<typeof SourcesList> {
  static override summary = 'List saved payment sources, one page or all of them.'
  static override description =
    "Shows one page (20 by default) with a footer on stderr saying how to see more; --all streams every page. With --customer-id (the Customer-Id header) only that customer's sources are visible."

  static override examples = [
    '<%= config.bin %> sources list',
    '<%= config.bin %> sources list --customer cust_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> sources list --created-after 2026-11-01 --all --csv > sources.csv',
  ]

  static override flags = {
    ...paginationFlags({ sortFields: ['createdAt', 'updatedAt', 'customerId'] }),
    customer: idsFlag('cust', 'Only sources of these customers (repeatable).'),
    'source-id': idsFlag('psrc', 'Only these payment sources (repeatable).'),
    'created-after': dateFlag('Only sources created at or after'),
    'created-before': dateFlag('Only sources created before'),
    ...monthFlags(),
  }

  async run() {
    const client = await this.client()
    const f = this.flags
    return this.showList(paymentSourceView, client.sources, {
      customerId: f.customer,
      paymentSourceId: f['source-id'],
      createdAfter: f['created-after'],
      createdBefore: f['created-before'],
    })
  }
}
