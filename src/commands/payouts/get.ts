import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { checkIdText } from '../../cli/validate/index.js'
import { payoutView } from '../../output/views/money.js'

export default class PayoutsGet extends ApiCommand<typeof PayoutsGet> {
  static override summary = 'Show a payout: its money movements and disbursement details.'
  static override description =
    'The breakdown is not shown by the contract: the table shows the summary fields; --json prints the whole answer, movements included.'
  static override examples = ['<%= config.bin %> payouts get payout_ZqCNoNcm_22WeZ-j', '<%= config.bin %> payouts get payout_ZqCNoNcm_22WeZ-j --json']

  static override args = {
    payoutId: Args.string({ description: 'Payout id.', required: true, parse: async (input) => checkIdText(input, 'The payout id') }),
  }

  async run() {
    const client = await this.client()
    return this.show(payoutView, await client.transactions.payouts.get(this.args.payoutId))
  }
}
