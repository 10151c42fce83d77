import * as Flags from '@oclif/core/flags'

import type { PayfacClient } from '../../client/index.js'
import { parseCurrency } from '../../client/money.js'
import { ApiCommand } from '../../cli/base-command.js'
import { againFlag } from '../../cli/flags/safety.js'
import { repeatWindowFlag } from '../../cli/flags/witness.js'
import { asUsage, dataFlag, idArg, minorUnitsFrom } from '../../cli/flags/index.js'
import { warnPreviousGeneration } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { UsageError } from '../../cli/errors/index.js'
import { TRANSACTION_ACTIONS, checkDecimal, envelopeFromData, reverseTransferBody } from '../../cli/requests/transactions.js'
import { currencyOf } from '../../cli/validate/transactions.js'
import { transactionActionOnce } from '../../cli/safety/transaction-ops.js'
import { transactionDetailView } from '../../output/views/transactions.js'

export default class TransactionsReverseTransfer extends ApiCommand<typeof TransactionsReverseTransfer> {
  static override summary = 'Reverse all or part of a transfer of funds (ReverseFundsTransfer).'
  static override description =
    "Marketplace credential only. The contract shows no fields: the flags send the emulator's {transferId, amount?} (without --amount, all that is left of the transfer); --data sends fields as given. The transfer ids are in `payfac transactions get`. At most once: journaled, and a re-run after a lost answer (exit 7) looks at the transaction before sending. Before sending, a reversal of the same transfer and --amount within the last 24 hours (--repeat-window) is exit 6 naming it; --again sends anyway. Prints the updated transaction."

  static override examples = [
    '<%= config.bin %> transactions reverse-transfer tran_ZqCNoNcm_22WeZ-j --transfer trf_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> transactions reverse-transfer tran_ZqCNoNcm_22WeZ-j --transfer trf_ZqCNoNcm_22WeZ-j --amount 1.00 --json',
  ]

  static override args = {
    transactionId: idArg('tran', 'Transaction id (tran_…).'),
  }

  static override flags = {
    transfer: Flags.string({ description: 'The transfer to reverse (its id, from the transaction).' }),
    amount: Flags.string({
      description: 'How much to reverse, in major units (default: all that is left).',
      parse: async (input) => checkDecimal(input, '--amount'),
    }),
    currency: Flags.string({
      description: "The amount's currency; by default the transaction's own (a different one is refused).",
      dependsOn: ['amount'],
      parse: async (input) => asUsage(() => parseCurrency(input), '--currency'),
    }),
    data: dataFlag('The ReverseFundsTransfer body (or its whole envelope) as JSON: text, @file, or - for stdin.', ['transfer', 'amount', 'currency']),
    again: againFlag,
    'repeat-window': repeatWindowFlag,
  }

  async run() {
    const { data: text, transfer, amount, currency } = this.flags
    const data = text ? await readDataObject(text) : undefined
    if (!data && !transfer) throw new UsageError('A reversal needs --transfer (or the whole body with --data)')
    if (amount && currency) minorUnitsFrom(amount, currency)
    const client = await this.client()
    const envelope = data
      ? envelopeFromData('ReverseFundsTransfer', data, TRANSACTION_ACTIONS)
      : { ReverseFundsTransfer: reverseTransferBody(transfer as string, await this.minor(client)) }
    warnPreviousGeneration(envelope)
    return this.show(
      transactionDetailView,
      await transactionActionOnce(await this.safety(), client, this.args.transactionId, envelope, { repeatWindow: this.flags['repeat-window'] }),
    )
  }

  private async minor(client: PayfacClient): Promise<number | undefined> {
    const { amount, currency } = this.flags
    if (!amount) return undefined
    // Always read: a --currency other than the transaction's is refused, never sent as the other's minor units.
    return minorUnitsFrom(amount, currencyOf(await client.transactions.get(this.args.transactionId), currency))
  }
}
