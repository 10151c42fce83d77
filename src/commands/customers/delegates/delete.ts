import type { CustomerDelegate } from '../../../client/index.js'
import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { delegateDetailView } from '../../../output/views/customers.js'

export default class CustomersDelegatesDelete extends ApiCommand<typeof CustomersDelegatesDelete> {
  static override summary = 'Delete a customer delegate.'
  static override description = 'Sends DELETE /customers/delegates/{id}. The delegate can no longer sign in for the organisation.'
  static override examples = [
    '<%= config.bin %> customers delegates delete custd_Pq3x8sK1mZ0aB2cD',
    '<%= config.bin %> customers delegates delete custd_Pq3x8sK1mZ0aB2cD --json',
  ]

  static override args = {
    customerDelegateId: idArg('custd', 'Customer delegate id (custd_…).'),
  }

  async run() {
    const client = await this.client()
    const answer = await client.customers.delegates.delete(this.args.customerDelegateId)
    // The answer is not shown by the contract: print the deleted record when there is one.
    if (answer && typeof answer === 'object') return this.show(delegateDetailView, answer as CustomerDelegate)
    process.stderr.write(`Deleted ${this.args.customerDelegateId}.\n`)
    return answer
  }
}
