import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { NotFoundError } from '../../cli/errors/index.js'
import { journalView } from '../../output/views/journal.js'

export default class JournalShow extends ApiCommand<typeof JournalShow> {
  static override summary = 'Show one record of the operation journal: its state, what it made, who made it, and how to check it on the service.'
  static override description =
    "ID is the Id column of `journal list` (<scope>/<name>). Reads the shared journal when PAYFAC_JOURNAL_URL or the profile names one, else the config folder's. Exit 5 when there is no such record. Sends nothing to the service."

  static override examples = [
    '<%= config.bin %> journal show 3f1c0a9be2d4c6e8a0b1/refund-4be1c2d3e4f5a6b7c8d9e0f1',
    '<%= config.bin %> journal show 3f1c0a9be2d4c6e8a0b1/refund-4be1c2d3e4f5a6b7c8d9e0f1 --json',
  ]

  static override args = {
    id: Args.string({ description: 'The record, as `journal list` names it (<scope>/<name>).', required: true }),
  }

  async run() {
    const { journalInUse, journalRow } = await import('../../cli/journal/rows.js')
    const journal = await journalInUse(() => this.settings())
    try {
      const entry = await journal.show(this.args.id)
      if (!entry)
        throw new NotFoundError(`The ${journal.kind} journal (${journal.where}) has no record ${this.args.id}`, 'List the records with: payfac journal list')
      return this.show(journalView, journalRow(entry))
    } finally {
      await journal.close()
    }
  }
}
