import * as Flags from '@oclif/core/flags'

import type { PayfacClient } from '../../client/index.js'
import { parseCurrency } from '../../client/money.js'
import { ApiCommand } from '../../cli/base-command.js'
import { againFlag } from '../../cli/flags/safety.js'
import { repeatWindowFlag } from '../../cli/flags/witness.js'
import { asUsage, dataFlag, idArg, idFlag, minorUnitsFrom } from '../../cli/flags/index.js'
import { warnPreviousGeneration } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { TRANSACTION_ACTIONS, checkDecimal, checkTransferFlags, envelopeFromData, transferBody, transferOutcome } from '../../cli/requests/transactions.js'
import { currencyOf } from '../../cli/validate/transactions.js'
import { transactionActionOnce } from '../../cli/safety/transaction-ops.js'
import { transferOutcomeView } from '../../output/views/transactions.js'

export default class TransactionsTransfer extends ApiCommand<typeof TransactionsTransfer> {
  static override summary = 'Move part of a payment to another merchant of the marketplace (TransferFunds).'
  static override description =
    "Marketplace credential only. The contract shows no fields: the flags send the emulator's {amount (minor units), destinationMerchantId, description?}, the amount in the transaction's currency (read from the transaction first; a --currency other than its own is refused); --data sends fields as given. At most once: journaled, and a re-run after a lost answer (exit 7) looks at the transaction before sending. Before sending, an identical transfer on the transaction (same amount and destination) within the last 24 hours (--repeat-window) is exit 6 naming it; --again sends anyway. Prints the new transfer's id, then the updated transaction (`--json`: the transaction with `transferId` first; `-q`: the transfer id alone)."

  static override examples = [
    '<%= config.bin %> transactions transfer tran_ZqCNoNcm_22WeZ-j --to mcht_LocalSubMerch001 --amount 2.50',
    '<%= config.bin %> transactions transfer tran_ZqCNoNcm_22WeZ-j --to mcht_LocalSubMerch001 --amount 2.50 --currency AUD --description "Seller share" --json',
  ]

  static override args = {
    transactionId: idArg('tran', 'Transaction id (tran_…).'),
  }

  static override flags = {
    to: idFlag('mcht', 'The merchant receiving the funds (mcht_…).'),
    amount: Flags.string({ description: 'How much to transfer, in major units such as 2.50.', parse: async (input) => checkDecimal(input, '--amount') }),
    currency: Flags.string({
      description: "The amount's currency; by default the transaction's own (a different one is refused).",
      parse: async (input) => asUsage(() => parseCurrency(input), '--currency'),
    }),
    description: Flags.string({ description: 'What the transfer is for.' }),
    data: dataFlag('The TransferFunds body (or its whole envelope) as JSON: text, @file, or - for stdin.', ['to', 'amount', 'currency', 'description']),
    again: againFlag,
    'repeat-window': repeatWindowFlag,
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    if (!data) checkTransferFlags(this.flags)
    const client = await this.client()
    const envelope = data ? envelopeFromData('TransferFunds', data, TRANSACTION_ACTIONS) : await this.fromFlags(client)
    warnPreviousGeneration(envelope)
    return this.show(
      transferOutcomeView,
      transferOutcome(
        await transactionActionOnce(await this.safety(), client, this.args.transactionId, envelope, { repeatWindow: this.flags['repeat-window'] }),
      ),
    )
  }

  private async fromFlags(client: PayfacClient) {
    const { to, amount, currency, description } = this.flags as { to: string; amount: string; currency?: string; description?: string }
    // Always read: a --currency other than the transaction's is refused, never sent as the other's minor units.
    const own = currencyOf(await client.transactions.get(this.args.transactionId), currency)
    return { TransferFunds: transferBody(to, minorUnitsFrom(amount, own), description) }
  }
}
