import { ApiCommand } from '../../../cli/base-command.js'
import { paginationFlags } from '../../../cli/flags/index.js'
import { entriesFlags } from '../../../cli/flags/loans.js'
import { entriesQueryFromFlags } from '../../../cli/requests/loans.js'
import { loanEntryView } from '../../../output/views/loans.js'

export default class LoansEntriesList extends ApiCommand<typeof LoansEntriesList> {
  static override summary = 'List loan statement entries (experimental), one page or all of them.'
  static override description =
    'Experimental in the contract (alpha): the operation may change. The fields of an entry are not shown by the contract, ' +
    'so the table shows the first fields of each record; --json prints them whole.'

  static override examples = [
    '<%= config.bin %> loans entries list --loan loan_LocalTradeLoan01',
    '<%= config.bin %> loans entries list --currency AUD --from 2026-01-01 --to 2026-02-01 --all --csv > entries.csv',
  ]

  static override flags = {
    ...paginationFlags(),
    ...entriesFlags(),
  }

  async run() {
    const client = await this.client()
    return this.showList(loanEntryView, client.loans.entries, entriesQueryFromFlags(this.flags))
  }
}
