import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { journalView } from '../../output/views/journal.js'

export default class JournalList extends ApiCommand<typeof JournalList> {
  static override summary = 'List the operation journal: what was made, by which runner, and what is unknown.'
  static override description =
    "Reads the journal the money commands use: the shared one (PostgreSQL) when PAYFAC_JOURNAL_URL or the profile names one, else the config folder's. " +
    'Newest first. A record `sending` or `unknown` is an operation whose answer was lost: the next run of the same command looks on the service before sending; ' +
    'check it with the command in its record (`journal show ID`). Sends nothing to the service.'

  static override examples = [
    '<%= config.bin %> journal list',
    '<%= config.bin %> journal list --state unknown,sending',
    'PAYFAC_JOURNAL_URL=postgres://payfac@db:5432/payfac <%= config.bin %> journal list --kind refund --limit 20 --json',
  ]

  static override flags = {
    state: Flags.string({ description: 'Only records in these states (sending, unknown, done, refused; comma-separated or repeated).', multiple: true }),
    kind: Flags.string({ description: 'Only records of this kind (refund, payout, order-create, pay …).' }),
    limit: Flags.integer({ description: 'At most this many records, newest first.', default: 50, min: 1, max: 10_000 }),
  }

  async run() {
    const { journalInUse, journalRow, statesOf } = await import('../../cli/journal/rows.js')
    const states = statesOf(this.flags.state)
    const journal = await journalInUse(() => this.settings())
    try {
      process.stderr.write(`Journal: ${journal.kind} (${journal.where})\n`)
      const entries = await journal.list({ states, kind: this.flags.kind, limit: this.flags.limit })
      const rows = entries.map(journalRow)
      await this.showAll(journalView, rows, 'table', () => 'No records.')
      return rows
    } finally {
      await journal.close()
    }
  }
}
