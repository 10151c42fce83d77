import * as Flags from '@oclif/core/flags'

import { parseCurrency } from '../../client/money.js'
import { ApiCommand } from '../../cli/base-command.js'
import { UsageError } from '../../cli/errors/index.js'
import { asUsage, paginationFlags } from '../../cli/flags/index.js'
import { invoiceView } from '../../output/views/money.js'

export default class InvoicesList extends ApiCommand<typeof InvoicesList> {
  static override summary = 'List merchant invoices, one page or all of them.'
  static override description =
    'The contract shows neither the fields of an invoice nor filters; the table and the filters are those the emulator defines (one invoice of service fees per merchant, currency and month). --json prints every field.'
  static override examples = [
    '<%= config.bin %> invoices list',
    '<%= config.bin %> invoices list --period 2026-11 --json',
    '<%= config.bin %> invoices list --status Issued --all --csv > invoices.csv',
  ]

  static override flags = {
    ...paginationFlags(),
    status: Flags.string({ description: 'Only invoices in this status, such as Open or Issued (repeatable).', multiple: true }),
    period: Flags.string({
      description: 'Only invoices of this month, YYYY-MM (repeatable).',
      multiple: true,
      parse: async (input) => {
        if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(input.trim())) throw new UsageError(`--period must be a month YYYY-MM (got "${input}")`)
        return input.trim()
      },
    }),
    currency: Flags.string({ description: 'Only invoices in this currency.', parse: async (input) => asUsage(() => parseCurrency(input), '--currency') }),
  }

  async run() {
    const client = await this.client()
    const f = this.flags
    return this.showList(invoiceView, client.transactions.invoices, { status: f.status, period: f.period, currency: f.currency })
  }
}
