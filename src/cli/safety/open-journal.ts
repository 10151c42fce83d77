// Which operation journal a command uses: the shared one (PostgreSQL) when PAYFAC_JOURNAL_URL or
// the profile's journalUrl names it, else the local one in the config folder. The PostgreSQL
// client is loaded only here, only then: no other command pays for it at start-up.
import type { JournalStore } from '../../config/journal-store.js'
import type { ResolvedSettings } from '../../config/resolve.js'

/** `commandStartedAt`: when the command began (its safety session), for "written meanwhile" (local-journal.ts runStart). */
export async function openJournal(settings: ResolvedSettings, commandStartedAt?: number): Promise<JournalStore> {
  const [{ LocalJournal, runStart }, { resolveConfigDir }] = await Promise.all([import('../../config/local-journal.js'), import('../../config/store.js')])
  const startedAt = runStart(commandStartedAt)
  if (settings.journal) {
    const { openSharedJournal } = await import('../../config/shared-journal.js')
    return openSharedJournal(settings.journal.url, settings.journal.origin, { startedAt })
  }
  return new LocalJournal(resolveConfigDir(), startedAt)
}
