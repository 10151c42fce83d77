import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { delegateDetailView } from '../../../output/views/customers.js'

export default class CustomersDelegatesGet extends ApiCommand<typeof CustomersDelegatesGet> {
  static override summary = 'Show a customer delegate.'
  static override examples = [
    '<%= config.bin %> customers delegates get custd_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> customers delegates get custd_ZqCNoNcm_22WeZ-j --json',
  ]

  static override args = {
    customerDelegateId: idArg('custd', 'Customer delegate id (custd_…).'),
  }

  async run() {
    const client = await this.client()
    return this.show(delegateDetailView, await client.customers.delegates.get(this.args.customerDelegateId))
  }
}
