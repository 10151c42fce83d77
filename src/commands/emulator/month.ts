import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { CONTROL_PATH, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { genericView } from '../../output/views/generic.js'

export default class EmulatorMonth extends ApiCommand<typeof EmulatorMonth> {
  static override summary = 'Fill the emulator with a realistic month of a marketplace, for month-end reconciliation.'
  static override description =
    "Resets the namespace, moves its clock a month back and builds the month through the emulator's own operations: sub-merchants, " +
    'PayTo payments, partial and whole refunds, disputes, weekly payouts and their settlement entries, ending now. ' +
    '--mismatch adds one known difference for `payfac settlement reconcile` to find. The same --seed gives the same month.'

  static override examples = [
    '<%= config.bin %> emulator month',
    '<%= config.bin %> emulator month --transactions 500 --sub-merchants 3 --json',
    '<%= config.bin %> emulator month --mismatch duplicate-entry --namespace ci-42',
  ]

  static override flags = {
    namespace: namespaceFlag,
    'sub-merchants': Flags.integer({ description: 'Sub-merchants made besides the two seeded merchants (default 3).', min: 0, max: 20 }),
    transactions: Flags.integer({ description: 'Orders paid over the month (default 300).', min: 1, max: 5000 }),
    days: Flags.integer({ description: 'Days in the month (default 30).', min: 1, max: 31 }),
    seed: Flags.string({ description: 'Seed of the month\'s random choices (default "month").' }),
    mismatch: Flags.string({ description: 'One known difference to seed.', options: ['missing-entry', 'duplicate-entry', 'fee-off-by-cent'] }),
  }

  async run() {
    const f = this.flags
    const body = { subMerchants: f['sub-merchants'], transactions: f.transactions, days: f.days, seed: f.seed, mismatch: f.mismatch }
    const client = await this.client()
    const answer = await client.request({ method: 'POST', path: `${CONTROL_PATH}/fixtures/month`, headers: controlHeaders(f.namespace), body })
    return this.show(genericView('month'), answer.body)
  }
}
