import { ApiCommand } from '../../cli/base-command.js'
import { againFlag } from '../../cli/flags/safety.js'
import { dataFlag, idArg } from '../../cli/flags/index.js'
import { warnPreviousGeneration } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { TRANSACTION_ACTIONS, envelopeFromData } from '../../cli/requests/transactions.js'
import { transactionActionOnce } from '../../cli/safety/transaction-ops.js'
import { transactionDetailView } from '../../output/views/transactions.js'

export default class TransactionsCancelAuthorisation extends ApiCommand<typeof TransactionsCancelAuthorisation> {
  static override summary = 'Cancel a card authorisation, or a captured card payment not yet settled (CancelAuthorisation).'
  static override description =
    'Sends CancelAuthorisation; the transaction becomes cancelled and its order payable again. The contract shows no fields for this action and the emulator takes none; --data sends fields as given. A payment with transfers not reversed is refused (exit 6). At most once: journaled, and a re-run after a lost answer (exit 7) looks at the transaction before sending. Prints the updated transaction.'

  static override examples = [
    '<%= config.bin %> transactions cancel-authorisation tran_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> transactions cancel-authorisation tran_ZqCNoNcm_22WeZ-j --json',
  ]

  static override args = {
    transactionId: idArg('tran', 'Transaction id (tran_…).'),
  }

  static override flags = {
    data: dataFlag('The CancelAuthorisation body (or its whole envelope) as JSON: text, @file, or - for stdin.'),
    again: againFlag,
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : {}
    const envelope = envelopeFromData('CancelAuthorisation', data, TRANSACTION_ACTIONS)
    warnPreviousGeneration(envelope)
    const client = await this.client()
    return this.show(transactionDetailView, await transactionActionOnce(await this.safety(), client, this.args.transactionId, envelope))
  }
}
