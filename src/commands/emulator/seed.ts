import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { UsageError } from '../../cli/errors/index.js'
import { CONTROL_PATH, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { genericView } from '../../output/views/generic.js'

const MAX = 10_000_000
const count = (description: string) => Flags.integer({ min: 0, max: MAX, description })

export default class EmulatorSeed extends ApiCommand<typeof EmulatorSeed> {
  static override summary = 'Add many orders or settlement entries to a running emulator at once.'
  static override description =
    'For benchmarks and tests of large stores: pending orders (every tenth cancelled, references seed-1, seed-2 …) ' +
    'and ledger entries (a payment, then its service fee) of the merchant in context (--merchant-id, default the ' +
    'first merchant), spread evenly over the last --days days of emulator time. No events or webhooks are sent. ' +
    `At most ${MAX.toLocaleString('en')} of each kind per call; a million orders take seconds.`

  static override examples = [
    '<%= config.bin %> emulator seed --orders 1000000',
    '<%= config.bin %> emulator seed --settlement-entries 5000000 --days 90',
    '<%= config.bin %> emulator seed --orders 1000 --merchant-id mcht_LocalSubMerch001 --namespace ci-run-42',
  ]

  static override flags = {
    namespace: namespaceFlag,
    orders: count('How many orders to add.'),
    'settlement-entries': count('How many settlement (ledger) entries to add.'),
    days: Flags.integer({ min: 1, max: 3650, description: 'Spread the records over this many days before now (default 30).' }),
  }

  async run() {
    const { orders, days, 'settlement-entries': settlementEntries } = this.flags
    if (orders === undefined && settlementEntries === undefined) throw new UsageError('Say what to add: --orders N, --settlement-entries N, or both')
    const { context } = await this.settings()
    const body = { orders, settlementEntries, days, merchantId: context.merchantId }
    const client = await this.client()
    const answer = await client.request({ method: 'POST', path: `${CONTROL_PATH}/seed`, headers: controlHeaders(this.flags.namespace), body })
    return this.show(genericView('seed'), answer.body)
  }
}
