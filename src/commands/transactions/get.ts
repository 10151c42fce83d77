import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { transactionDetailView } from '../../output/views/transactions.js'

export default class TransactionsGet extends ApiCommand<typeof TransactionsGet> {
  static override summary = 'Show a transaction: status, amounts, refunds, payment status and timeline.'
  static override examples = [
    '<%= config.bin %> transactions get tran_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> transactions get tran_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> transactions get tran_ZqCNoNcm_22WeZ-j --columns status,refundedAmount,timelines',
  ]

  static override args = {
    transactionId: idArg('tran', 'Transaction id (tran_…).'),
  }

  async run() {
    const client = await this.client()
    return this.show(transactionDetailView, await client.transactions.get(this.args.transactionId))
  }
}
