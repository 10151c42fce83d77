import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { customerDetailView } from '../../output/views/customers.js'

export default class CustomersGet extends ApiCommand<typeof CustomersGet> {
  static override summary = 'Show a customer.'
  static override examples = ['<%= config.bin %> customers get cust_ZqCNoNcm_22WeZ-j', '<%= config.bin %> customers get cust_ZqCNoNcm_22WeZ-j --json']

  static override args = {
    customerId: idArg('cust', 'Customer id (cust_…).'),
  }

  async run() {
    const client = await this.client()
    return this.show(customerDetailView, await client.customers.get(this.args.customerId))
  }
}
