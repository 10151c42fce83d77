// The operation journal as the safety layer sees it: one interface, two places it can be kept.
//
//   - local (local-journal.ts): the config folder, one file per record, a lock folder per
//     reservation (op-lock.ts). The embedded default; it holds on one machine and one folder.
//   - shared (shared-journal.ts): a PostgreSQL database named by PAYFAC_JOURNAL_URL (or a
//     profile's journalUrl): records and reservations in tables, so that runners that share the
//     database share the promise.
//
// A record lives in a slot: the scope (a hash of what the operation acts on, operations.ts) and
// its name (`refund-<hash>`, `reference-<hash>`, `bulk-…`). A reservation is taken on a slot before
// its record is read and held until its outcome is written: whoever holds it is the only run that
// may send that operation; the others wait (said once) and then read what it did. A holder that
// dies leaves its reservation to go stale (LOCK_STALE_MS without a beat) and its record `sending`,
// which the next run looks up on the service before sending anything. Pure: no client, no zod.
import { ConfigError } from './errors.js'
import type { OperationRecord, Slot } from './operations.js'
import { thisRunner } from './runner.js'

export { type Runner, runnerWords, thisRunner } from './runner.js'
export type { Slot } from './operations.js'

/** A held reservation. */
export interface Held {
  /** It had to wait for another holder first. */
  waited: boolean
  /** Why it may no longer be this run's (paused, taken over, the database lost), or undefined: asked right before sending. */
  lost(): string | undefined
}

export interface ReserveWords {
  /** What is reserved, in words ("refund of 10.00 AUD on transaction tran_…"). */
  what: string
  /** How long to wait for another holder at most, in ms. */
  waitMs: number
  /** Said once, when the reservation is found held. */
  onWait: () => void
}

/** One record as `payfac journal list|show` shows it. */
export interface JournalEntry {
  /** `<scope>/<name>`: what `journal show` takes. */
  id: string
  record: OperationRecord
  /** A bulk run's line, for a row record. */
  line?: number | undefined
  /** The runner that holds the reservation now (the shared journal tells), else undefined. */
  heldBy?: string | undefined
}

export interface ListFilter {
  /** Only records in these states. */
  states?: readonly string[] | undefined
  /** Only records of this kind. */
  kind?: string | undefined
  /** At most this many, newest first. */
  limit: number
}

export interface JournalStore {
  readonly kind: 'local' | 'shared'
  /** Where, in words, without a password: a folder, or `postgres://user@host:port/db`. */
  readonly where: string
  /** The shared journal: whether this process made its tables when it opened it. */
  readonly created?: boolean
  /**
   * When this process started, on the journal's clock (ms since the epoch). A record another
   * process wrote at or after it was made by a run in flight at the same time as this one: a
   * concurrent duplicate, never a deliberate repeat (--again).
   */
  startedAt(): number
  /** Takes the reservation of `slot`, waiting for another holder as `words` says (LockWaitError when the wait runs out). */
  reserve(slot: Slot, words: ReserveWords): Promise<{ held: Held; release: () => Promise<void> }>
  /** The record in `slot`, or undefined; a record that is not one payfac wrote is a ConfigError (exit 3). */
  read(slot: Slot, check?: string): Promise<OperationRecord | undefined>
  /** Writes the record (its `updatedAt` and `runner` set here), only while `held` is this run's. */
  write(slot: Slot, record: OperationRecord, held: Held): Promise<OperationRecord>
  /** The newest records. */
  list(filter: ListFilter): Promise<JournalEntry[]>
  /** One record by its id (`<scope>/<name>`), or undefined. */
  show(id: string): Promise<JournalEntry | undefined>
  close(): Promise<void>
}

/** A held reservation whose time has not moved for this long was left by a run that died (SIGKILL, power loss). */
export const LOCK_STALE_MS = 10_000
/** How often a holder refreshes its reservation. */
export const LOCK_UPDATE_MS = 1_000
/** A holder whose own clock jumped by more than this between two beats counts as paused (it may have been taken over). */
export const LOCK_PAUSE_MS = LOCK_STALE_MS / 2

export class LockWaitError extends ConfigError {}

/**
 * Whether `record` was written by another process after `startedAt` (the journal's clock): a run
 * that was in flight while this one started. Records of this process (an earlier command run in
 * the same process) never are.
 */
export function writtenMeanwhile(record: OperationRecord, startedAt: number): boolean {
  if (record.runner?.tag === thisRunner().tag) return false
  const at = Date.parse(record.updatedAt)
  return !Number.isNaN(at) && at >= startedAt
}
