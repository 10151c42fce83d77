// One row of a bulk run, journaled by the operation journal's rules (safety/journal-ops.ts) in
// the run's journal (journal.ts), and ALSO in the operation's own record, the one the single
// command keeps (<config>/operations/<identity>/<kind>-<hash>.json), under that record's lock:
//   - a row whose operation was already made (by a single command, by another row of the same
//     file, by another file) is refused as the single command refuses a repeat (exit 6 for the
//     run); a bulk run has no --again (a row's own `--if-exists create` asks for another order
//     on purpose, as it does for the single command);
//   - two rows with one operation in flight at once (one file, two files, two processes) wait
//     for each other on that lock, so the second finds the first's record: never both sent;
//   - an identical operation whose answer was lost is looked up on the service first, as the
//     single command does.
// Writes go row journal first, then the record: a record `done` means the row's own `done` is
// already written, so a re-run of the same file never mistakes its own row for another's. The
// intents are on disk before the request leaves (in the local journal, flushed with those of the
// other rows in flight: journal.ts); the outcomes are written without waiting for a flush. While
// it waits for the journal, a row steps aside (workers.ts): another row takes its place.
import { OutcomeUnknownError, ResponseFormatError } from '../../client/errors.js'
import { type OperationRecord, newOperation } from '../../config/operations.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { RefusedError, UnresolvedOutcomeError } from '../errors/index.js'
import type { OperationJournal, OperationSpec } from '../safety/journal-ops.js'
import type { OperationRecords, OwnRecord, RowsJournal } from './rows-journal.js'

/**
 * One row's operation. After `run`, `found` says an earlier run's lost answer was found done,
 * and `resultId` what it made.
 */
export class RowRun implements OperationJournal {
  found = false
  resultId: string | undefined
  /** The run's lock on the file may have been lost: the run stops. */
  lostLock = false

  constructor(
    private readonly journal: RowsJournal,
    private readonly line: number,
    private readonly lost: () => string | undefined,
    /** Each operation's own record, under its lock or reservation (rows-journal.ts). */
    private readonly records: OperationRecords,
    /** Waits for the journal, or for its operation's lock, without holding the row's place among those in flight (workers.ts). */
    private readonly place: { aside<W>(wait: Promise<W>): Promise<W>; leave(): () => Promise<void> } = {
      aside: (wait) => wait,
      leave: () => async () => undefined,
    },
  ) {}

  private aside<W>(wait: Promise<W>): Promise<W> {
    return this.place.aside(wait)
  }

  async run<T, B>(spec: OperationSpec<T, B>): Promise<T> {
    // A repeatable operation (an upsert) is simply made again: no record of its own is needed.
    if (spec.repeatable) return this.runRow(spec, undefined)
    // The lock is waited for without a place (another run's row, or a row of this file with the
    // same operation, may hold it while it waits for the journal), and the place taken back once held.
    const back = this.place.leave()
    try {
      return await this.records.withRecord(spec.key, { what: spec.action, check: spec.check }, async (own) => {
        await back()
        return this.runRow(spec, own)
      })
    } finally {
      await back()
    }
  }

  private async runRow<T, B>(spec: OperationSpec<T, B>, shared: OwnRecord | undefined): Promise<T> {
    const journal = this.journal
    const prior = journal.prior(this.line)
    if (prior?.state === 'done') throw new RefusedError(`line ${this.line} was already done (${prior.resultId ?? `at ${prior.updatedAt}`}); nothing was sent`)
    const record = shared ? await shared.read(spec.check) : undefined
    const log = (text: string) => process.stderr.write(`${sanitizeLine(text)}\n`)
    if (prior && (prior.state === 'sending' || prior.state === 'unknown')) {
      log(`Line ${this.line}: an earlier run's ${spec.action} ended without an answer; looking on the service first.`)
      const found = await this.lookUp(spec, prior)
      if (found !== undefined) {
        await journal.append({ ...prior, state: 'done', resultId: this.resultId ?? null, doneCount: prior.doneCount + 1 })
        if (shared && record) await shared.write({ ...record, state: 'done', resultId: this.resultId ?? null, doneCount: record.doneCount + 1 })
        return found
      }
    } else if (record?.state === 'done' && !spec.deliberate) {
      throw new RefusedError(
        `An identical ${spec.action} was already made (${record.resultId ?? `at ${record.updatedAt}`}); nothing was sent for line ${this.line}. ` +
          'To make another one on purpose, run it as a single command with --again.',
      )
    } else if (record && (record.state === 'sending' || record.state === 'unknown')) {
      log(`Line ${this.line}: an earlier identical ${spec.action} (at ${record.intentAt}) ended without an answer; looking on the service first.`)
      const found = await this.lookUp(spec, record)
      if (found !== undefined) {
        await (shared as OwnRecord).write({ ...record, state: 'done', resultId: this.resultId ?? null, doneCount: record.doneCount + 1 })
        this.found = false
        throw new RefusedError(
          `An identical ${spec.action} was already made (${this.resultId ?? 'found on the service'}); nothing was sent for line ${this.line}.`,
        )
      }
    }
    await spec.guard?.()
    if (spec.witness) {
      const seen = await spec.witness()
      if (seen !== undefined) throw new RefusedError(`The service already shows an identical ${spec.action}: ${seen}. Nothing was sent.`)
    }
    const before = spec.before ? await spec.before() : undefined
    this.stillHeld(spec, shared)
    const key = { ...spec.key, reference: `${spec.key.reference ?? ''}|bulk ${journal.fileHash.slice(0, 16)}:${this.line}` }
    // The two intents are written together (either alone, before anything is sent, is looked up
    // and found absent by a re-run); the `done` lines below keep their order.
    let [row, own] = await this.aside(
      Promise.all([
        journal.append({ ...newOperation(journal.identity, key, spec, before, prior?.doneCount ?? 0), line: this.line }),
        shared ? shared.write(newOperation(journal.identity, spec.key, spec, before, record?.doneCount ?? 0), { durable: true }) : undefined,
      ]),
    )
    // Asked again right before the request leaves: the wait for the disk and for a place may be
    // long, and a lock taken over meanwhile (this run paused past its stale time) is another's,
    // which may have sent the operation. The intent stays `sending`: a re-run looks it up.
    this.stillHeld(spec, shared)
    const outcome = { durable: false }
    let sent = false
    try {
      const result = await spec.send()
      sent = true
      this.resultId = spec.resultId?.(result) ?? undefined
      row = await this.aside(journal.append({ ...row, state: 'done', resultId: this.resultId ?? null, doneCount: row.doneCount + 1 }, outcome))
      if (shared && own) own = await this.aside(shared.write({ ...own, state: 'done', resultId: this.resultId ?? null, doneCount: own.doneCount + 1 }, outcome))
      return result
    } catch (error) {
      if (sent) throw this.unrecorded(spec, error)
      const unknown = error instanceof OutcomeUnknownError || error instanceof ResponseFormatError
      try {
        await this.aside(journal.append({ ...row, state: unknown ? 'unknown' : 'refused' }, outcome))
        if (shared && own) await this.aside(shared.write({ ...own, state: unknown ? 'unknown' : 'refused' }, outcome))
      } catch (failure) {
        // A request that may have moved money stays unknown when its outcome cannot be written,
        // never `failed`; one the service refused fails with the journal's error.
        if (unknown) throw this.unrecorded(spec, failure, false)
        throw failure
      }
      if (error instanceof OutcomeUnknownError) {
        error.action = spec.action
        error.check = spec.check
        error.look = spec.look
      }
      throw error
    }
  }

  /** Nothing is sent once the run's lock on its file, or the operation's own, may be another's: the run stops (exit 7). */
  private stillHeld(spec: { check: string }, shared: OwnRecord | undefined): void {
    const lost = this.lost() ?? shared?.lost()
    if (lost === undefined) return
    this.lostLock = true
    throw new UnresolvedOutcomeError(
      `This payfac run may no longer hold the lock of its file or of the operation (${lost}): another run may have sent line ${this.line} meanwhile. Nothing was sent for it. Check with: ${spec.check}`,
      spec.check,
      // Not --again: a run from a file has none.
      'Run the same command again with the same file once the other run has finished: it looks this row up on the service.',
    )
  }

  /**
   * The request was answered (or its answer was lost or unreadable: `answered` false), but its
   * outcome could not be journaled (the journal's disk or database went away): the row is unknown
   * (its intent says it was being sent, so a re-run looks it up on the service), and the run stops
   * taking rows.
   */
  private unrecorded<T, B>(spec: OperationSpec<T, B>, error: unknown, answered = true): UnresolvedOutcomeError {
    this.lostLock = true
    const why = error instanceof Error ? error.message : String(error)
    const what = answered ? `was made${this.resultId ? ` (${this.resultId})` : ''}` : 'was sent and its answer lost or unreadable'
    return new UnresolvedOutcomeError(
      `The ${spec.action} of line ${this.line} ${what}, but the journal could not record it (${why}). A re-run looks it up on the service. Check with: ${spec.check}`,
      spec.check,
      'Run the same command again with the same file once the journal is back: it looks this row up on the service.',
    )
  }

  /** Looks on the service for what an earlier, unanswered run of the operation did: what it made, or undefined (shown not to have happened). */
  private async lookUp<T, B>(spec: OperationSpec<T, B>, earlier: OperationRecord): Promise<T | undefined> {
    const found = await spec.reconcile(earlier.before as B | undefined, earlier)
    if (found === 'cannot-tell') {
      throw new UnresolvedOutcomeError(
        `The earlier ${spec.action} may or may not have happened, and the service's state cannot tell: nothing was sent. Check with: ${spec.check}`,
        spec.check,
      )
    }
    if (found === 'absent') return undefined
    this.resultId = spec.resultId?.(found.found) ?? earlier.resultId ?? undefined
    this.found = true
    return found.found
  }
}
