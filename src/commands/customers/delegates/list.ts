import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { idsFlag, paginationFlags } from '../../../cli/flags/index.js'
import { checkEmail } from '../../../cli/validate/index.js'
import { delegateView } from '../../../output/views/customers.js'

export default class CustomersDelegatesList extends ApiCommand<typeof CustomersDelegatesList> {
  static override summary = 'List customer delegates, one page or all of them.'
  static override description =
    'Sends GET /customers/delegates. The contract does not show its filters; --customer and --email are sent as customerId and emailAddress.'

  static override examples = [
    '<%= config.bin %> customers delegates list',
    '<%= config.bin %> customers delegates list --customer cust_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> customers delegates list --email jo@acme.example --all',
  ]

  static override flags = {
    ...paginationFlags({ sortFields: ['createdAt', 'updatedAt', 'emailAddress'] }),
    customer: idsFlag('cust', 'Only delegates of these organisation customers (repeatable).'),
    email: Flags.string({ description: 'Only delegates with this e-mail address (repeatable).', multiple: true }),
  }

  async run() {
    const query = { customerId: this.flags.customer, emailAddress: this.flags.email?.map((e) => checkEmail(e, '--email')) }
    const client = await this.client()
    return this.showList(delegateView, client.customers.delegates, query)
  }
}
