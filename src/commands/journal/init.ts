import { ApiCommand } from '../../cli/base-command.js'
import { UsageError } from '../../cli/errors/index.js'
import { genericView } from '../../output/views/generic.js'

export default class JournalInit extends ApiCommand<typeof JournalInit> {
  static override summary = "Create the shared journal's tables in PostgreSQL (PAYFAC_JOURNAL_URL), or check that they are there and of this payfac's version."
  static override description =
    "The money commands create the tables on first use when their database user may; run this once as a user that may create tables, then grant the runners' user " +
    'SELECT, INSERT, UPDATE and DELETE on payfac_operations and payfac_reservations (and SELECT on payfac_journal_meta). Safe to run again. ' +
    'Exit 3 when the database cannot be reached, has tables of another schema, or refuses the user. Sends nothing to the service.'

  static override examples = [
    'PAYFAC_JOURNAL_URL=postgres://payfac_owner@db.internal:5432/payfac <%= config.bin %> journal init',
    '<%= config.bin %> journal init --profile ci --json',
  ]

  async run() {
    const { journalInUse } = await import('../../cli/journal/rows.js')
    const journal = await journalInUse(() => this.settings())
    try {
      if (journal.kind !== 'shared') {
        throw new UsageError(
          `No shared journal is set: the local journal (${journal.where}) needs no set-up`,
          "Set PAYFAC_JOURNAL_URL=postgres://user@host:5432/database (or a profile's --journal-url) to use a shared one",
        )
      }
      const { SHARED_SCHEMA_VERSION } = await import('../../config/shared-journal-schema.js')
      const created = journal.created === true
      process.stderr.write(`${created ? 'Created' : 'Found'} the shared journal's tables (schema version ${SHARED_SCHEMA_VERSION}) in ${journal.where}.\n`)
      return this.show(genericView('journal'), { journal: journal.where, schemaVersion: SHARED_SCHEMA_VERSION, created })
    } finally {
      await journal.close()
    }
  }
}
