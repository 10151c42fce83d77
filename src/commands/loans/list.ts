import { ApiCommand } from '../../cli/base-command.js'
import { paginationFlags } from '../../cli/flags/index.js'
import { loanView } from '../../output/views/loans.js'

export default class LoansList extends ApiCommand<typeof LoansList> {
  static override summary = 'List loan summaries, one page or all of them.'
  static override description = 'The contract does not show the fields of a loan, so the table shows the first fields of each record; --json prints them whole.'

  static override examples = [
    '<%= config.bin %> loans list',
    '<%= config.bin %> loans list --sort -createdAt --limit 50',
    '<%= config.bin %> loans list --all --json',
  ]

  static override flags = {
    ...paginationFlags(),
  }

  async run() {
    const client = await this.client()
    return this.showList(loanView, client.loans, {})
  }
}
