import * as Flags from '@oclif/core/flags'

import { parseCurrency } from '../../client/money.js'
import { ApiCommand } from '../../cli/base-command.js'
import { fanOutFlags, monthFlags } from '../../cli/flags/range.js'
import { asUsage, dateFlag, paginationFlags } from '../../cli/flags/index.js'
import { payoutView } from '../../output/views/money.js'

export default class PayoutsList extends ApiCommand<typeof PayoutsList> {
  static override summary = 'List payout summaries, one page or all of them.'
  static override description =
    'The contract shows no filters for this list; these are the ones the emulator defines, passed as given. --merchant-id (the Merchant-Id header) chooses the merchant for a marketplace credential. `payfac payouts get` shows what a payout is made of.'
  static override examples = [
    '<%= config.bin %> payouts list',
    '<%= config.bin %> payouts list --status Pending --type Manual --sort -createdAt --json',
    '<%= config.bin %> payouts list --all --csv > payouts.csv',
  ]

  static override flags = {
    ...paginationFlags(),
    ...fanOutFlags(),
    status: Flags.string({ description: 'Only payouts in this status, such as Pending or Paid (repeatable).', multiple: true }),
    type: Flags.string({ description: 'Only payouts of this type, such as Manual or Scheduled (repeatable).', multiple: true }),
    currency: Flags.string({ description: 'Only payouts in this currency.', parse: async (input) => asUsage(() => parseCurrency(input), '--currency') }),
    'created-after': dateFlag('Only payouts created at or after'),
    'created-before': dateFlag('Only payouts created before'),
    ...monthFlags(),
  }

  async run() {
    const client = await this.client()
    const f = this.flags
    return this.showList(payoutView, client.transactions.payouts, {
      status: f.status,
      payoutType: f.type,
      currency: f.currency,
      createdAfter: f['created-after'],
      createdBefore: f['created-before'],
    })
  }
}
