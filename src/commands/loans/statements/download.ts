import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { outputFormatFlag } from '../../../cli/flags/index.js'
import { checkedStream, idleTimeoutMs, refuseRecordFlags, saveStream, streamToStdout } from '../../../cli/files/download.js'
import { outFlag } from '../../../cli/flags/out.js'
import { UsageError } from '../../../cli/errors/index.js'
import { checkIdText } from '../../../cli/validate/index.js'

export default class LoansStatementsDownload extends ApiCommand<typeof LoansStatementsDownload> {
  static override summary = 'Download a loan statement report (a password-protected zip).'
  static override description =
    'The zip holds the statement as CSV, PDF or XML. With --out it is written to a temporary file beside the target and ' +
    'renamed into place only when complete; without --out it goes to stdout, which is refused on a terminal. An answer that is not ' +
    'a zip (a local file header first, the end record last), that breaks off, or that brings less than 1 KiB within --timeout is exit 7. ' +
    '--csv, --query, --ids, --columns and --wide shape printed records and are refused (exit 2); --json makes an error one JSON line.'

  static override examples = [
    '<%= config.bin %> loans statements download lstmt_LocalStmt2024-12 --out statement.zip',
    '<%= config.bin %> loans statements download lstmt_LocalStmt2024-12 --format pdf > statement.zip',
  ]

  static override args = {
    loanStatementId: Args.string({ description: 'Loan statement id.', required: true, parse: async (input) => checkIdText(input, 'The loan statement id') }),
  }

  static override flags = {
    out: outFlag('Write the zip to this file (atomically) instead of stdout.'),
    output: outputFormatFlag(false),
    format: Flags.string({ description: 'Format of the statement inside the zip.', options: ['csv', 'pdf', 'xml'], default: 'csv' }),
    'show-password': Flags.boolean({ description: "Print the zip's password on stderr, when the service sends one." }),
  }

  async run() {
    const { out } = this.flags
    refuseRecordFlags(this.flags, 'a zip')
    // Refused before anything is sent: a zip on a terminal is of no use to anyone.
    if (!out && process.stdout.isTTY)
      throw new UsageError('The statement zip is binary and stdout is a terminal', 'Give --out <file>, or redirect stdout to a file')
    const client = await this.client()
    const format = this.flags.format as 'csv' | 'pdf' | 'xml'
    const download = await client.loans.statements.download(this.args.loanStatementId, { format })
    const at = { method: 'GET', path: '/loans/enterprise/statements/{loanStatementId}/download', timeoutMs: idleTimeoutMs(this.flags) }
    const { body, password } = { ...download, body: checkedStream(download.body, 'zip', at) }
    const note = !password ? '' : this.flags['show-password'] ? ` Its password: ${password}` : ' Add --show-password to see its password.'
    if (out) {
      const bytes = await saveStream(body, out)
      process.stderr.write(`Saved ${bytes} bytes to ${out} (a password-protected zip).${note}\n`)
      return { path: out, bytes }
    }
    await streamToStdout(body, { binary: true, what: 'The statement zip' })
    if (note) process.stderr.write(`${note.trim()}\n`)
  }
}
