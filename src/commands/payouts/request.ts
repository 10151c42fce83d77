import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { fromFile } from '../../cli/bulk/index.js'
import { againFlag } from '../../cli/flags/safety.js'
import { bulkFlags } from '../../cli/flags/bulk.js'
import { repeatWindowFlag } from '../../cli/flags/witness.js'
import { dataFlag, moneyFlags } from '../../cli/flags/index.js'
import { warnPreviousGeneration } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { checkPayoutPossible } from '../../cli/safety/payout-checks.js'
import { payoutBodyFor } from '../../cli/requests/merchant-defaults.js'
import { payoutOperation } from '../../cli/safety/creation-ops.js'
import { payoutView } from '../../output/views/money.js'

export default class PayoutsRequest extends ApiCommand<typeof PayoutsRequest> {
  static override summary = 'Request a manual payout of available funds to the primary bank account.'
  static override description =
    "Sends POST /transactions/payouts. The contract does not show the body: the flags send {amount, description?}; --data sends any body as given. --available pays out the whole available balance (read from the merchant's balances just before); --currency defaults to the merchant's only currency. First reads the merchant (manual payouts enabled?) and its balances (enough available?): when either is missing, says which and exits 6 without sending. At most once: journaled, and a re-run after a lost answer (exit 7) looks among the payouts before requesting again. Before sending, a payout of the same amount and currency made within the last hour (--repeat-window) is exit 6 naming it, even from another machine; --again sends anyway."

  static override examples = [
    '<%= config.bin %> payouts request --amount 250 --currency AUD',
    '<%= config.bin %> payouts request --available',
    '<%= config.bin %> payouts request --amount 250 --currency AUD --description "Weekly sweep" --json',
    '<%= config.bin %> payouts request --merchant-id mcht_LocalSubMerch001 --amount 10 --currency AUD',
    '<%= config.bin %> payouts request --from-file payouts.csv --yes',
  ]

  static override flags = {
    ...moneyFlags(),
    amount: Flags.string({
      description: "Amount in major units, such as 250 (in --currency; without it, the merchant's only currency).",
      exclusive: ['available'],
    }),
    available: Flags.boolean({
      description: "Pay out the whole available balance of --currency (default: the merchant's only currency), read from its balances just before sending.",
    }),
    description: Flags.string({ description: 'What the payout is for.' }),
    data: dataFlag('The whole body as JSON: text, @file, or - for stdin.', ['amount', 'currency', 'description', 'available']),
    again: againFlag,
    'repeat-window': repeatWindowFlag,
    ...bulkFlags(),
  }

  async run() {
    if (this.flags['from-file']) return fromFile(this.bulkHost())
    const client = await this.client()
    const settings = await this.settings()
    const merchantId = settings.context.merchantId
    const body = this.flags.data ? await readDataObject(this.flags.data) : await payoutBodyFor(this.flags, client, settings)
    warnPreviousGeneration(body)
    const options = { repeatWindow: this.flags['repeat-window'], merchantId, wholeBalance: this.flags.available }
    const payout = await payoutOperation(await this.safety(), client, body, () => checkPayoutPossible(client, merchantId, body, this.flags.available), options)
    return this.show(payoutView, payout)
  }
}
