import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { checkIdText } from '../../cli/validate/index.js'
import { invoiceView } from '../../output/views/money.js'

export default class InvoicesGet extends ApiCommand<typeof InvoicesGet> {
  static override summary = 'Show a merchant invoice: its breakdown and billing details.'
  static override examples = ['<%= config.bin %> invoices get inv_ZqCNoNcm_22WeZ-j', '<%= config.bin %> invoices get inv_ZqCNoNcm_22WeZ-j --json']

  static override args = {
    invoiceId: Args.string({ description: 'Invoice id.', required: true, parse: async (input) => checkIdText(input, 'The invoice id') }),
  }

  async run() {
    const client = await this.client()
    return this.show(invoiceView, await client.transactions.invoices.get(this.args.invoiceId))
  }
}
