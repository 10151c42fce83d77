import { Flags } from '@oclif/core'

import { parseCurrency } from '../../client/money.js'
import { ApiCommand } from '../../cli/base-command.js'
import { asUsage, idArg, minorUnitsFrom } from '../../cli/flags.js'
import { checkDecimal, refundMinorUnits } from '../../cli/requests/transactions.js'
import { refundOutcome } from '../../cli/refund-outcome.js'
import { refundOutcomeView } from '../../output/views/transactions.js'

export default class TransactionsRefund extends ApiCommand<typeof TransactionsRefund> {
  static override summary = 'Refund all or part of a transaction (CreateRefund).'
  static override description =
    "Reads the transaction first to learn its currency and what remains to refund, and refuses (exit 2) before sending when the amount is more than that. Sends CreateRefund with refundAmount in minor units; less than what remains makes the transaction partially_refunded, all of it refunded. Never retried: if the outcome is unknown, check `payfac transactions get` before refunding again. Prints the new refund id and what remains refundable, then the updated transaction (`--json` prints the updated transaction; `-q` the refund id alone)."

  static override examples = [
    '<%= config.bin %> transactions refund tran_ZqCNoNcm_22WeZ-j --amount 5.00',
    '<%= config.bin %> transactions refund tran_ZqCNoNcm_22WeZ-j --amount 12.50 --currency AUD --json',
  ]

  static override args = {
    transactionId: idArg('tran', 'Transaction id (tran_…).'),
  }

  static override flags = {
    amount: Flags.string({ description: 'How much to refund, in major units such as 5.00.', required: true, parse: async (input) => checkDecimal(input, '--amount') }),
    currency: Flags.string({
      description: "The amount's currency; by default the transaction's own (a different one is refused).",
      parse: async (input) => asUsage(() => parseCurrency(input), '--currency'),
    }),
  }

  async run() {
    const { amount, currency } = this.flags
    if (currency) minorUnitsFrom(amount, currency)
    const client = await this.client()
    const transaction = await client.transactions.get(this.args.transactionId)
    const refundAmount = refundMinorUnits(transaction, amount, currency)
    const after = await client.transactions.refund(this.args.transactionId, refundAmount)
    return this.show(refundOutcomeView, refundOutcome(transaction, after, refundAmount))
  }
}
