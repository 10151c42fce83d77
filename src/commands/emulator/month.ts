import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { CONTROL_PATH, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { monthFlags } from '../../cli/flags/range.js'
import { fixtureMismatches, fixtureMonth } from '../../cli/requests/emulator-month.js'
import { genericView } from '../../output/views/generic.js'

export default class EmulatorMonth extends ApiCommand<typeof EmulatorMonth> {
  static override summary = 'Fill the emulator with a realistic month of a marketplace, for month-end reconciliation.'
  static override description =
    "Resets the namespace and builds a month through the emulator's own operations: sub-merchants, PayTo payments, partial and whole " +
    'refunds with their fees, disputes, weekly payouts and their settlement entries. By default the last --days days (30), ending now; ' +
    "--month 2026-10 or --last-month fills exactly that calendar month in UTC (from its first midnight to the next month's), then the clock comes back to now. " +
    'Limits: a month must be over (before the current month of this machine and of the emulator) and not before 2025-01 (the seeded merchants are made on 2025-01-01); ' +
    '--days 1 to 31 and not with a month; --transactions 1 to 5000; --sub-merchants 0 to 20; --mismatch up to 5 times. ' +
    '--mismatch adds a known difference for `payfac settlement reconcile` to find, each on its own transaction. The same --seed gives the same month.'

  static override examples = [
    '<%= config.bin %> emulator month',
    '<%= config.bin %> emulator month --last-month',
    '<%= config.bin %> emulator month --month 2026-10 --transactions 500 --sub-merchants 3 --json',
    '<%= config.bin %> emulator month --mismatch duplicate-entry --mismatch fee-off-by-cent --namespace ci-42',
  ]

  static override flags = {
    namespace: namespaceFlag,
    ...monthFlags(['days']),
    'sub-merchants': Flags.integer({ description: 'Sub-merchants made besides the two seeded merchants (default 3, at most 20).', min: 0, max: 20 }),
    transactions: Flags.integer({ description: 'Orders paid over the month (default 300, at most 5000).', min: 1, max: 5000 }),
    days: Flags.integer({ description: 'Days up to now (default 30, at most 31); not with --month or --last-month.', min: 1, max: 31 }),
    seed: Flags.string({ description: 'Seed of the month\'s random choices (default "month").' }),
    mismatch: Flags.string({
      description: 'A known difference to seed (may be given up to 5 times, each on another transaction).',
      options: ['missing-entry', 'duplicate-entry', 'fee-off-by-cent'],
      multiple: true,
    }),
  }

  async run() {
    const f = this.flags
    const month = fixtureMonth(f, new Date())
    const mismatch = fixtureMismatches(f.mismatch)
    const body = { subMerchants: f['sub-merchants'], transactions: f.transactions, days: f.days, month, seed: f.seed, mismatch }
    const client = await this.client()
    const answer = await client.request({ method: 'POST', path: `${CONTROL_PATH}/fixtures/month`, headers: controlHeaders(f.namespace), body })
    return this.show(genericView('month'), answer.body)
  }
}
