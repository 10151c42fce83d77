import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../../cli/base-command.js'
import { checkIdText } from '../../../cli/validate/index.js'
import { loanStatementView } from '../../../output/views/loans.js'

export default class LoansStatementsGet extends ApiCommand<typeof LoansStatementsGet> {
  static override summary = 'Show a loan statement summary.'
  static override examples = [
    '<%= config.bin %> loans statements get lstmt_LocalStmt2024-12',
    '<%= config.bin %> loans statements get lstmt_LocalStmt2024-12 --json',
  ]

  static override args = {
    loanStatementId: Args.string({ description: 'Loan statement id.', required: true, parse: async (input) => checkIdText(input, 'The loan statement id') }),
  }

  async run() {
    const client = await this.client()
    return this.show(loanStatementView, await client.loans.statements.get(this.args.loanStatementId))
  }
}
