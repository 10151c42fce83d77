import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { merchantFilterFlag, withoutContextFlags } from '../../cli/flags/filters.js'
import { dateFlag, idsFlag, paginationFlags } from '../../cli/flags/index.js'
import { monthFlags } from '../../cli/flags/range.js'
import { customerQuery } from '../../cli/requests/customers.js'
import { customerView } from '../../output/views/customers.js'

export default class CustomersList extends ApiCommand<typeof CustomersList> {
  static override summary = 'List customers, one page or all of them.'
  static override description =
    'Sends GET /customers. --email, --customer and --merchant may repeat; --merchant is a filter (for marketplace credentials seeing several merchants), not the Merchant-Id header.'

  static override examples = [
    '<%= config.bin %> customers list',
    '<%= config.bin %> customers list --email jo@example.com --email sam@example.com',
    '<%= config.bin %> customers list --name citizen --created-after 2026-11-01 --sort -createdAt',
    '<%= config.bin %> customers list --merchant mcht_ZqCNoNcm_22WeZ-j --all --csv > customers.csv',
  ]

  static override flags = {
    ...paginationFlags({ sortFields: ['createdAt', 'updatedAt', 'emailAddress', 'givenName', 'familyName', 'referenceCustomerId'] }),
    email: Flags.string({ description: 'Only customers with this e-mail address (repeatable).', multiple: true }),
    customer: idsFlag('cust', 'Only these customers (repeatable).'),
    merchant: merchantFilterFlag('Only customers of these merchants (repeatable). A filter, not the Merchant-Id header.'),
    name: Flags.string({ description: 'Only customers whose name contains this text.' }),
    'created-after': dateFlag('Only customers created at or after'),
    'created-before': dateFlag('Only customers created before'),
    ...monthFlags(),
  }

  // Without --merchant-id: it is still, for a release, the old name of --merchant here.
  static override baseFlags = withoutContextFlags('merchant-id')

  async run() {
    const query = customerQuery({ ...this.flags, merchantIds: this.flags.merchant })
    const client = await this.client()
    return this.showList(customerView, client.customers, query)
  }
}
