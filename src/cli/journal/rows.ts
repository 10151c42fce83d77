// `payfac journal list|show|init`: the journal a command would use (shared when
// PAYFAC_JOURNAL_URL or the profile names one, else the config folder's), and its records as rows.
import { formatMinorUnits } from '../../client/money.js'
import type { JournalEntry, JournalStore } from '../../config/journal-store.js'
import { runnerWords } from '../../config/journal-store.js'
import type { ResolvedSettings } from '../../config/resolve.js'
import type { JournalRow } from '../../output/views/journal.js'
import { UsageError } from '../errors/index.js'

/** The states a record can be in, for --state. */
export const STATES = ['sending', 'unknown', 'done', 'refused'] as const

/**
 * The journal in use. Settings that cannot be resolved (no credential: reading the journal needs
 * none) leave PAYFAC_JOURNAL_URL alone to say which journal, else the config folder's.
 */
export async function journalInUse(settings: () => Promise<ResolvedSettings>): Promise<JournalStore> {
  const { openJournal } = await import('../safety/open-journal.js')
  let resolved: Pick<ResolvedSettings, 'journal'>
  try {
    resolved = await settings()
  } catch (error) {
    const url = process.env.PAYFAC_JOURNAL_URL?.trim()
    if (!(error instanceof Error) || error.name !== 'ConfigError') throw error
    const { checkJournalUrl } = await import('../../config/journal-url.js')
    resolved = { journal: url ? { url: checkJournalUrl(url, 'PAYFAC_JOURNAL_URL'), origin: 'PAYFAC_JOURNAL_URL' } : undefined }
  }
  return openJournal(resolved as ResolvedSettings)
}

export function journalRow(entry: JournalEntry): JournalRow {
  const r = entry.record
  return {
    id: entry.id,
    kind: r.kind,
    target: r.target,
    amount: r.amount ? `${formatMinorUnits(r.amount.minorCurrencyUnits, r.amount.currency)} ${r.amount.currency}` : '',
    state: r.state,
    resultId: r.resultId,
    updatedAt: r.updatedAt,
    intentAt: r.intentAt,
    runner: r.runner ? runnerWords(r.runner) : '',
    heldBy: entry.heldBy ?? null,
    action: r.action,
    check: r.check,
  }
}

/** `--state unknown,sending`: checked against the states a record can be in. */
export function statesOf(flag: string[] | undefined): string[] | undefined {
  if (!flag || flag.length === 0) return undefined
  const states = flag.flatMap((s) => s.split(',')).map((s) => s.trim().toLowerCase())
  const bad = states.find((s) => !(STATES as readonly string[]).includes(s))
  if (bad) throw new UsageError(`--state ${bad} is not a state of a record`, `Use one or more of ${STATES.join(', ')}`)
  return states
}
