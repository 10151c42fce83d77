import { ApiCommand } from '../../../cli/base-command.js'
import { paginationFlags } from '../../../cli/flags/index.js'
import { loanStatementView } from '../../../output/views/loans.js'

export default class LoansStatementsList extends ApiCommand<typeof LoansStatementsList> {
  static override summary = 'List loan statement summaries, one page or all of them.'
  static override description =
    'The contract does not show the fields of a statement, so the table shows the first fields of each record; --json prints them whole.'

  static override examples = ['<%= config.bin %> loans statements list', '<%= config.bin %> loans statements list --all --csv > statements.csv']

  static override flags = {
    ...paginationFlags(),
  }

  async run() {
    const client = await this.client()
    return this.showList(loanStatementView, client.loans.statements, {})
  }
}
