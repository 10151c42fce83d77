import { ApiCommand } from '../../../cli/base-command.js'
import { idArg, idFlag } from '../../../cli/flags/index.js'
import { delegateDetailView } from '../../../output/views/customers.js'

export default class CustomersDelegatesLink extends ApiCommand<typeof CustomersDelegatesLink> {
  static override summary = 'Link a delegate to another organisation customer (LinkDelegateToCustomer).'
  static override description = 'Sends PATCH /customers/delegates/{id} with the update action LinkDelegateToCustomer {customerId}.'
  static override examples = [
    '<%= config.bin %> customers delegates link custd_Pq3x8sK1mZ0aB2cD --customer cust_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> customers delegates link custd_Pq3x8sK1mZ0aB2cD --customer cust_ZqCNoNcm_22WeZ-j --json',
  ]

  static override args = {
    customerDelegateId: idArg('custd', 'Customer delegate id (custd_…).'),
  }

  static override flags = {
    customer: idFlag('cust', 'The organisation customer to link the delegate to (cust_…).', { required: true }),
  }

  async run() {
    const envelope = { LinkDelegateToCustomer: { customerId: this.flags.customer as string } }
    const client = await this.client()
    return this.show(delegateDetailView, await client.customers.delegates.update(this.args.customerDelegateId, envelope))
  }
}
