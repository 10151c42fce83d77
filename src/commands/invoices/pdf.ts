import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { outputFormatFlag } from '../../cli/flags/index.js'
import { checkedStream, deliver, idleTimeoutMs, refuseRecordFlags } from '../../cli/files/download.js'
import { outFlag } from '../../cli/flags/out.js'
import { checkIdText } from '../../cli/validate/index.js'

export default class InvoicesPdf extends ApiCommand<typeof InvoicesPdf> {
  static override summary = 'Download the PDF of a merchant invoice.'
  static override description =
    'With --out the PDF is written to a temporary file beside FILE and renamed into place once complete, then "Saved N bytes to FILE" is printed on stderr. --csv, --query, --ids, --columns and --wide shape printed records and are refused (exit 2); --json makes an error one JSON line. Without --out it goes to stdout, which is refused when stdout is a terminal. An answer that is not a PDF (it must start with %PDF- and end with %%EOF), that breaks off, or that brings less than 1 KiB within --timeout is exit 7, and nothing is saved.'

  static override examples = [
    '<%= config.bin %> invoices pdf inv_ZqCNoNcm_22WeZ-j --out invoice.pdf',
    '<%= config.bin %> invoices pdf inv_ZqCNoNcm_22WeZ-j > invoice.pdf',
  ]

  static override args = {
    invoiceId: Args.string({ description: 'Invoice id.', required: true, parse: async (input) => checkIdText(input, 'The invoice id') }),
  }

  static override flags = {
    out: outFlag('Write the PDF to this file (atomically).'),
    output: outputFormatFlag(false),
  }

  async run() {
    refuseRecordFlags(this.flags, 'a PDF')
    const client = await this.client()
    const at = { method: 'GET', path: '/transactions/invoices/{invoiceId}/pdf', timeoutMs: idleTimeoutMs(this.flags) }
    const pdf = checkedStream(await client.transactions.invoices.pdf(this.args.invoiceId), 'pdf', at)
    await deliver(pdf, this.flags.out, { binary: true, what: 'The invoice PDF' })
  }
}
