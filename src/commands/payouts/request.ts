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
import { payoutBody } from '../../cli/requests/money.js'
import { payoutOperation } from '../../cli/safety/creation-ops.js'
import { payoutView } from '../../output/views/money.js'

export default class PayoutsRequest extends ApiCommand<typeof PayoutsRequest> {
  static override summary = 'Request a manual payout of available funds to the primary bank account.'
  static override description =
    'Sends POST /transactions/payouts. The contract does not show the body: the flags send {amount, description?}; --data sends any body as given. First reads the merchant (manual payouts enabled?) and its balances (enough available?): when either is missing, says which and exits 6 without sending. At most once: journaled, and a re-run after a lost answer (exit 7) looks among the payouts before requesting again. Before sending, a payout of the same amount and currency made within the last hour (--repeat-window) is exit 6 naming it, even from another machine; --again sends anyway.'

  static override examples = [
    '<%= config.bin %> payouts request --amount 250 --currency AUD',
    '<%= config.bin %> payouts request --amount 250 --currency AUD --description "Weekly sweep" --json',
    '<%= config.bin %> payouts request --merchant-id mcht_LocalSubMerch001 --amount 10 --currency AUD',
    '<%= config.bin %> payouts request --from-file payouts.csv --yes',
  ]

  static override flags = {
    ...moneyFlags(),
    description: Flags.string({ description: 'What the payout is for.' }),
    data: dataFlag('The whole body as JSON: text, @file, or - for stdin.', ['amount', 'currency', 'description']),
    again: againFlag,
    'repeat-window': repeatWindowFlag,
    ...bulkFlags(),
  }

  async run() {
    if (this.flags['from-file']) return fromFile(this.bulkHost())
    const body = this.flags.data ? await readDataObject(this.flags.data) : payoutBody(this.flags)
    warnPreviousGeneration(body)
    const client = await this.client()
    const merchantId = (await this.settings()).context.merchantId
    const options = { repeatWindow: this.flags['repeat-window'], merchantId }
    const payout = await payoutOperation(await this.safety(), client, body, () => checkPayoutPossible(client, merchantId, body), options)
    return this.show(payoutView, payout)
  }
}
