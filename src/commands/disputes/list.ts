import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { fanOutFlags, monthFlags } from '../../cli/flags/range.js'
import { dateFlag, idsFlag, paginationFlags } from '../../cli/flags/index.js'
import { disputeView } from '../../output/views/money.js'

export default class DisputesList extends ApiCommand<typeof DisputesList> {
  static override summary = 'List disputes raised against transactions, one page or all of them.'
  static override description =
    'What the contract offers for disputes is this list (GET /transactions/disputes) and the disputeIds of a transaction (`payfac transactions get`): it has no operation to answer a dispute (accept it, contest it, send evidence), so payfac cannot either. Disputes are answered outside this interface, with the payment service itself (its merchant portal or support), quoting the dispute id. The contract shows neither the fields of a dispute nor filters; the table and the filters are those the emulator defines, and --json prints every field. On the emulator, `payfac simulate OpenDispute` and `ResolveDispute` open and close one.'
  static override examples = [
    '<%= config.bin %> disputes list',
    '<%= config.bin %> disputes list --status Open --sort -createdAt --json',
    '<%= config.bin %> disputes list --transaction-id tran_ZqCNoNcm_22WeZ-j',
  ]

  static override flags = {
    ...paginationFlags(),
    ...fanOutFlags(),
    'transaction-id': idsFlag('tran', 'Only disputes of these transactions (repeatable).'),
    'order-id': idsFlag('ordr', 'Only disputes of these orders (repeatable).'),
    status: Flags.string({ description: 'Only disputes in this status, such as Open, Won or Lost (repeatable).', multiple: true }),
    'created-after': dateFlag('Only disputes created at or after'),
    'created-before': dateFlag('Only disputes created before'),
    ...monthFlags(),
  }

  async run() {
    const client = await this.client()
    const f = this.flags
    return this.showList(disputeView, client.transactions.disputes, {
      transactionId: f['transaction-id'],
      orderId: f['order-id'],
      status: f.status,
      createdAfter: f['created-after'],
      createdBefore: f['created-before'],
    })
  }
}
