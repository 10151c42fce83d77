// Where a bulk run keeps its rows and each row's operation record, behind one shape for the two
// journals (config/journal-store.ts): the local one (the run file, journal.ts, under a lock folder;
// each operation's own record under its lock) or the shared one (PostgreSQL rows under the
// reservation of the file; each operation's record under its reservation, taken and written in
// batches with the other rows in flight: config/shared-reservations.ts, shared-records.ts).
import type { JournalStore } from '../../config/journal-store.js'
import type { OperationKey, OperationRecord, ServiceIdentity } from '../../config/operations.js'
import { type HeldLock, withOperationLock, withReservation } from '../safety/journal-ops.js'
import { BulkJournal, type Durability, type RowRecord, bulkJournalPath, readRecords } from './journal.js'

/** What a run does with its rows (the run file's journal, or the shared journal's rows). */
export interface RowsJournal {
  readonly identity: ServiceIdentity
  readonly fileHash: string
  prior(line: number): RowRecord | undefined
  forget(line: number): void
  /** Appends a row's record; an intent (`durable`, the default) is on disk when it resolves. */
  append(record: RowRecord, options?: Durability): Promise<RowRecord>
  close(): Promise<void>
}

/** A row's operation record (the single command's), while its lock or reservation is held. */
export interface OwnRecord {
  read(check: string): Promise<OperationRecord | undefined>
  /** Writes the record; an intent (`durable`) is on disk when it resolves. */
  write(record: OperationRecord, options?: Durability): Promise<OperationRecord>
  lost(): string | undefined
}

export interface OperationRecords {
  withRecord<T>(key: OperationKey, words: { what: string; check: string }, work: (own: OwnRecord) => Promise<T>): Promise<T>
}

export interface RunJournal {
  /** Holds the run's lock (local) or reservation (shared) on its file for `work`. */
  hold<T>(words: { what: string; check: string }, work: (held: HeldLock, rows: RowsJournal) => Promise<T>): Promise<T>
  records: OperationRecords
}

export async function runJournalFor(store: JournalStore, configDir: string, identity: ServiceIdentity, commandId: string, digest: string): Promise<RunJournal> {
  const { operationPath, operationSlot, readOperationAsync } = await import('../../config/operations.js')
  const file = bulkJournalPath(configDir, identity, commandId, digest)
  if (store.kind === 'local') {
    // The run's file, once open: the rows' records are written in its bursts (journal.ts).
    let journal: BulkJournal | undefined
    return {
      hold: (words, work) =>
        withOperationLock(configDir, file, words, async (held) => {
          journal = await BulkJournal.open(file, configDir, identity, digest)
          return work(held, journal)
        }),
      records: {
        withRecord: (key, words, work) => {
          const own = operationPath(configDir, identity, key)
          // One mkdir when the lock is free (op-lock.ts, takeLockQuick): the folder single commands lock too.
          return withOperationLock(configDir, own, { ...words, quick: true }, (held) =>
            work({
              read: (check) => readOperationAsync(own, check),
              write: (record, options) => (journal as BulkJournal).writeRecord(own, record, options),
              lost: held.lost,
            }),
          )
        },
      },
    }
  }
  const { SharedRows } = await import('../../config/shared-rows.js')
  const shared = store as import('../../config/shared-journal.js').SharedJournal
  const name = (await import('node:path')).basename(file, '.jsonl')
  return {
    hold: (words, work) =>
      withReservation(store, { scope: identity.id, name }, words, async (held) =>
        work(held, await SharedRows.open(shared, identity, digest, name, held.held as NonNullable<HeldLock['held']>)),
      ),
    records: {
      withRecord: (key, words, work) => {
        const slot = operationSlot(identity, key)
        return withReservation(store, slot, words, (held) =>
          work({
            read: (check) => store.read(slot, check),
            write: (record) => store.write(slot, record, held.held as NonNullable<HeldLock['held']>),
            lost: held.lost,
          }),
        )
      },
    },
  }
}

/**
 * How many rows of the file earlier runs (from this folder, or from any runner of a shared
 * journal) did, and how many ended without an answer: what a dry run tells. Reads only.
 */
export async function rowsDone(
  store: JournalStore,
  configDir: string,
  identity: ServiceIdentity,
  commandId: string,
  digest: string,
): Promise<{ done: number; unknown: number }> {
  const file = bulkJournalPath(configDir, identity, commandId, digest)
  let records: Array<{ state: string }>
  if (store.kind === 'local') {
    const { checkPrivateFolders } = await import('../../config/fs-check.js')
    const path = await import('node:path')
    checkPrivateFolders(configDir, path.dirname(file), 'operation journal')
    records = (await readRecords(file)).records
  } else {
    const shared = store as import('../../config/shared-journal.js').SharedJournal
    const name = (await import('node:path')).basename(file, '.jsonl')
    records = (await shared.readPrefix(identity.id, `${name}#`)).map((r) => r.record)
  }
  return {
    done: records.filter((r) => r.state === 'done').length,
    unknown: records.filter((r) => r.state === 'sending' || r.state === 'unknown').length,
  }
}
