import { ApiCommand } from '../../../cli/base-command.js'
import { entriesFlags } from '../../../cli/flags/loans.js'
import { checkEntriesReportFlags, entriesQueryFromFlags, reportRows } from '../../../cli/requests/loans.js'
import { loanEntryView } from '../../../output/views/loans.js'
import { rawView } from '../../../output/views/generic.js'

export default class LoansEntriesReport extends ApiCommand<typeof LoansEntriesReport> {
  static override summary = 'Report of loan statement entries, not paginated (experimental); JSON or CSV.'
  static override description =
    'Experimental in the contract (alpha): the operation may change. Needs --loan or --loan-settlement, or else --currency ' +
    'with a date range (--from and --to, on the creation time or with --date-field due on the due date); without them ' +
    'nothing is sent. Prints the answer as JSON by default; --csv prints one row per entry.'

  static override examples = [
    '<%= config.bin %> loans entries report --loan loan_LocalTradeLoan01',
    '<%= config.bin %> loans entries report --currency AUD --from 2026-01-01 --to 2026-02-01 --csv > entries.csv',
    '<%= config.bin %> loans entries report --currency AUD --from 2026-01-01 --to 2026-04-01 --date-field due',
  ]

  static override flags = {
    ...entriesFlags(),
  }

  async run() {
    checkEntriesReportFlags(this.flags)
    const client = await this.client()
    const answer = await client.loans.entries.report(entriesQueryFromFlags(this.flags))
    const rows = reportRows(answer)
    if ((this.flags.csv || this.flags.jsonl) && rows) return this.showAll(loanEntryView, rows as Array<Record<string, unknown>>)
    return this.show(rawView, answer, 'json')
  }
}
