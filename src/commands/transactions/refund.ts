import * as Flags from '@oclif/core/flags'

import { parseCurrency } from '../../client/money.js'
import { ApiCommand } from '../../cli/base-command.js'
import { fromFile } from '../../cli/bulk/index.js'
import { asUsage, idArg, minorUnitsFrom } from '../../cli/flags/index.js'
import { againFlag } from '../../cli/flags/safety.js'
import { argGiven, bulkFlags, rowArgs, rowFlags } from '../../cli/flags/bulk.js'
import { repeatWindowFlag } from '../../cli/flags/witness.js'
import { refundOutcome } from '../../cli/safety/refund-outcome.js'
import { checkDecimal } from '../../cli/requests/transactions.js'
import { refundOperation } from '../../cli/safety/transaction-ops.js'
import { refundOutcomeView } from '../../output/views/transactions.js'

export default class TransactionsRefund extends ApiCommand<typeof TransactionsRefund> {
  static override summary = 'Refund all or part of a transaction (CreateRefund).'
  static override description =
    "Reads the transaction first to learn its currency and what remains to refund, and refuses (exit 6) before sending when the amount is more than that, or when --expect-refunded is not what the service shows. Sends CreateRefund with refundAmount in minor units; less than what remains makes the transaction partially_refunded, all of it refunded. At most once: the refund is journaled, a lost answer exits 7 (outcome unknown), and running the same command again looks at the transaction before sending; a second identical refund on purpose needs --again. Before sending, the transaction's own refunds are searched too: an identical refund (same amount) made within the last 24 hours (--repeat-window) is exit 6 naming it, even from another machine. Prints the new refund id and what remains refundable, then the updated transaction (`--json` prints the updated transaction with `refundId` first; `-q` the refund id alone)."

  static override examples = [
    '<%= config.bin %> transactions refund tran_ZqCNoNcm_22WeZ-j --amount 5.00',
    '<%= config.bin %> transactions refund tran_ZqCNoNcm_22WeZ-j --amount 12.50 --currency AUD --json',
    '<%= config.bin %> transactions refund tran_ZqCNoNcm_22WeZ-j --amount 5.00 --expect-refunded 0 --again',
    '<%= config.bin %> transactions refund tran_ZqCNoNcm_22WeZ-j --amount 5.00 --currency AUD --dry-run',
    '<%= config.bin %> transactions refund --from-file refunds.csv --concurrency 8 --out results.csv',
  ]

  static override args = rowArgs({
    transactionId: idArg('tran', 'Transaction id (tran_…).'),
  })

  static override flags = {
    ...rowFlags({
      amount: Flags.string({
        description: 'How much to refund, in major units such as 5.00.',
        required: true,
        parse: async (input) => checkDecimal(input, '--amount'),
      }),
      currency: Flags.string({
        description: "The amount's currency; by default the transaction's own (a different one is refused).",
        parse: async (input) => asUsage(() => parseCurrency(input), '--currency'),
      }),
      'expect-refunded': Flags.string({
        description: 'Refuse (exit 6) unless the transaction has exactly this much refunded already, such as 0.',
        parse: async (input) => (/^\s*[0.]+\s*$/.test(input) ? '0' : checkDecimal(input, '--expect-refunded')),
      }),
      again: againFlag,
      'repeat-window': repeatWindowFlag,
    }),
    ...bulkFlags(),
  }

  async run() {
    if (this.flags['from-file']) return fromFile(this.bulkHost())
    const { amount, currency } = this.flags
    if (currency) minorUnitsFrom(amount, currency)
    const request = {
      transactionId: argGiven(this.args.transactionId, 'transactionId'),
      amount,
      currency,
      expectRefunded: this.flags['expect-refunded'],
      repeatWindow: this.flags['repeat-window'],
    }
    const refunded = await refundOperation(await this.safety(), await this.client(), request)
    return this.show(refundOutcomeView, refundOutcome(refunded, amount))
  }
}
