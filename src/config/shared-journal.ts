// The shared journal: the operation journal's records and reservations in PostgreSQL (schema:
// shared-journal-schema.ts), through the `postgres` client, loaded only by the commands that use
// it (cli/safety/open-journal.ts). This file opens it and puts its parts together as one
// JournalStore: the connection and its errors (shared-connection.ts), the reservations and their
// beat (shared-reservations.ts), the records (shared-records.ts). The same rules as the local
// journal (local-journal.ts):
//
//   - a reservation is a row of payfac_reservations, taken with one INSERT … ON CONFLICT that
//     succeeds only when there is none or the one there is stale (no beat for LOCK_STALE_MS: its
//     runner died); the others see it held, say so once and poll, at most `waitMs`;
//   - a holder beats every LOCK_UPDATE_MS (one UPDATE for every reservation it holds); a beat
//     that fails or finds a reservation gone makes `lost()` say why, and a holder whose clock
//     jumped (paused) is lost too;
//   - a record is written only while its reservation is this run's and fresh: the write and that
//     check are one statement, so a run that lost its reservation cannot write an intent (and so
//     cannot send);
//   - a record's `updatedAt` is the database's clock, and `startedAt()` is this process's start
//     on that clock (measured when the journal is opened), so that "written meanwhile" compares
//     times of one clock across machines.
// Rows in flight share round trips: reservations, writes and releases that arrive while one is on
// the wire go together in the next (a bulk run's rows, batched).
import postgres from 'postgres'

import type { Held, JournalEntry, JournalStore, ListFilter, ReserveWords, Slot } from './journal-store.js'
import { redactJournalUrl } from './journal-url.js'
import { runStart } from './local-journal.js'
import type { OperationRecord } from './operations.js'
import { CONNECTION_OPTIONS, type Connectable, SharedConnection, timed } from './shared-connection.js'
import { type Client, databaseProblem, openSchema } from './shared-journal-schema.js'
import { SharedRecords } from './shared-records.js'
import { SharedReservations } from './shared-reservations.js'

export { ReservationLostError } from './shared-reservations.js'

/** Opens the shared journal at `url` (from `origin`): connects, checks (or makes) the schema; a ConfigError (exit 3) otherwise. */
export async function openSharedJournal(url: string, origin: string, options: { create?: boolean; startedAt?: number } = {}): Promise<SharedJournal> {
  const where = redactJournalUrl(url)
  const sql = postgres(url, CONNECTION_OPTIONS)
  try {
    const check = await timed(openSchema(sql as unknown as Client, where, options.create ?? true), where)
    return new SharedJournal(sql, where, origin, (options.startedAt ?? runStart()) + check.offsetMs - check.uncertaintyMs, check.created)
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => undefined)
    throw databaseProblem(error, where)
  }
}

export class SharedJournal implements JournalStore {
  readonly kind = 'shared' as const
  private readonly connection: SharedConnection
  private readonly reservations: SharedReservations
  private readonly records: SharedRecords

  constructor(
    sql: postgres.Sql,
    readonly where: string,
    readonly origin: string,
    /** When this run started (local-journal.ts runStart), on the database's clock, taken early by the measure's uncertainty. */
    private readonly runStartedAt: number,
    readonly created: boolean,
  ) {
    this.connection = new SharedConnection(sql as unknown as Connectable, where)
    this.reservations = new SharedReservations(this.connection)
    this.records = new SharedRecords(this.connection)
  }

  startedAt(): number {
    return this.runStartedAt
  }

  async reserve(slot: Slot, words: ReserveWords): Promise<{ held: Held; release: () => Promise<void> }> {
    return this.reservations.reserve(slot, words)
  }

  async read(slot: Slot, check?: string): Promise<OperationRecord | undefined> {
    // Read once right after the reservation, by the statement after the one that took it (so its
    // snapshot holds whatever the last holder wrote); no one else writes while it is held.
    return this.records.read(slot, check, this.reservations.takePrefetched(slot))
  }

  async write(slot: Slot, record: OperationRecord, held: Held): Promise<OperationRecord> {
    return this.put(slot, record, held, undefined)
  }

  /**
   * Writes a record in `slot` while `held` is this run's: its own reservation, or (a bulk run's
   * row, `line`) the reservation of the run's file. Rows in flight share one statement.
   */
  async put(slot: Slot, record: OperationRecord, held: Held, line: number | undefined): Promise<OperationRecord> {
    return this.records.write(slot, record, this.reservations.guard(held, slot, line), line)
  }

  /** The records of the slots whose names start with `prefix` in `scope` (a bulk run's rows), with their lines. */
  async readPrefix(scope: string, prefix: string): Promise<Array<{ line: number; record: OperationRecord }>> {
    return this.records.readPrefix(scope, prefix)
  }

  async list(filter: ListFilter): Promise<JournalEntry[]> {
    return this.records.list(filter)
  }

  async show(id: string): Promise<JournalEntry | undefined> {
    return this.records.show(id)
  }

  async close(): Promise<void> {
    this.reservations.stop()
    await this.connection.end(2)
  }

  /** Runs one statement, bounded in time; a failure is a ConfigError (exit 3) naming the database. */
  async query(text: string, parameters: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    return this.connection.query(text, parameters)
  }
}
