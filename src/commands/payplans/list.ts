import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { dateFlag, idsFlag, paginationFlags } from '../../cli/flags/index.js'
import { monthFlags } from '../../cli/flags/range.js'
import { checkVariant } from '../../cli/requests/payplans.js'
import { payPlanView } from '../../output/views/payplans.js'

export default class PayPlansList extends ApiCommand<typeof PayPlansList> {
  static override summary = 'List pay plans, one page or all of them.'
  static override description = 'The contract shows no filters for this list; these are the ones the emulator defines, passed as given.'
  static override examples = [
    '<%= config.bin %> payplans list',
    '<%= config.bin %> payplans list --customer cust_ZqCNoNcm_22WeZ-j --status Active --json',
    '<%= config.bin %> payplans list --all --csv > payplans.csv',
  ]

  static override flags = {
    ...paginationFlags(),
    customer: idsFlag('cust', 'Only plans of these customers (repeatable).'),
    status: Flags.string({ description: 'Only plans in this status, such as Pending, Active, Completed or Cancelled (repeatable).', multiple: true }),
    variant: Flags.string({ description: 'Only plans of this variant (repeatable).', multiple: true, parse: async (input) => checkVariant(input) }),
    'created-after': dateFlag('Only plans created at or after'),
    'created-before': dateFlag('Only plans created before'),
    ...monthFlags(),
  }

  async run() {
    const client = await this.client()
    const f = this.flags
    return this.showList(payPlanView, client.payplans, {
      customerId: f.customer,
      status: f.status,
      payPlanVariant: f.variant,
      createdAfter: f['created-after'],
      createdBefore: f['created-before'],
    })
  }
}
