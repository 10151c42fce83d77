// Runs one money-moving request at most once, with the operation journal (config/operations.ts).
// Every journaled command takes this one path, so a new money command cannot forget a rule:
//
//   0. the operation's identity is the service, what it acts on (the transaction or order; for a
//      creation, the party it is made for: acting-for.ts), the kind and the fields; its
//      reservation is taken in the journal (config/journal-store.ts: the config folder, or a
//      shared PostgreSQL journal) before the journal is read and held until the outcome is
//      journaled: a second process with the same operation waits for the first (saying so once
//      on stderr) and then reports what it did;
//   1. an earlier identical operation whose answer was lost (journaled `sending` or `unknown`)
//      is looked up on the service first: found, it is reported (exit 0) and nothing is sent;
//      shown not to have happened, it is sent; when the service cannot tell, exit 7 with the
//      command that shows it (`--again` sends anyway);
//   2. an identical operation already done is exit 6 naming it, unless --again (every spec but
//      the `repeatable` ones, which move no money); one made by another process after this one
//      started (a run in flight at the same time: config/journal-store.ts writtenMeanwhile) is
//      exit 6 naming it even with --again or --if-exists create;
//   3. the command's guards from the service's state run (more than remains, already paid …),
//      then the second witness (the service's own records), unless --again;
//   4. the intent is journaled, the request sent, and its result journaled: done, refused (the
//      service answered that it did not happen) or unknown (OutcomeUnknownError, annotated with
//      what was being done and the command that shows whether it did).
// SIGINT and SIGTERM while the request is in flight abort it: outcome unknown, exit 130/143.
// Records and folders are read fail-closed (config/fs-check.ts): exit 3, nothing sent.
import { OutcomeUnknownError, ResponseFormatError } from '../../client/errors.js'
import type { Held, JournalStore, Slot } from '../../config/journal-store.js'
import type { OperationRecord, ServiceIdentity } from '../../config/operations.js'
import type { ResolvedSettings } from '../../config/resolve.js'
import type { OperationJournal, OperationSpec } from './operation-spec.js'
import { InterruptedError, RefusedError, UnresolvedOutcomeError } from '../errors/index.js'
import type { SafetySession } from './session.js'
import { sanitizeLine } from '../../output/sanitize.js'

export type { OperationJournal, OperationSpec, Reconciled } from './operation-spec.js'

/** How long a process waits for another's run of the same operation: reads and a request, plus a margin. */
export const LOCK_WAIT_MS = 2 * 60_000

/** The config folder and the identity of what `settings` act on (acting-for.ts, loaded when first needed). */
export async function operationIdentity(
  settings: ResolvedSettings,
  signal?: AbortSignal,
  ask = true,
): Promise<{ configDir: string; identity: ServiceIdentity }> {
  const actingFor = await import('./acting-for.js')
  return actingFor.operationIdentity(settings, signal, ask)
}

export interface HeldLock {
  /** It had to wait for another process first. */
  waited: boolean
  /** When this process asked for the lock. */
  askedAt: number
  /** Why the lock may no longer be this process's (paused, taken over), or undefined: asked right before sending. */
  lost: () => string | undefined
  /** The reservation as the journal store holds it (for its writes). */
  held?: Held | undefined
}

/** The words of a wait that ran out: exit 7 naming `check`. */
async function waitedTooLong<T>(check: string, take: () => Promise<T>): Promise<T> {
  const { LockWaitError } = await import('../../config/journal-store.js')
  try {
    return await take()
  } catch (error) {
    if (error instanceof LockWaitError) throw new UnresolvedOutcomeError(`${error.message} Check what it did with: ${check}`, check, error.hint)
    throw error
  }
}

const waitNote = (what: string, waitMs: number) => () =>
  process.stderr.write(`Another payfac run of the same ${what} is in flight; waiting for it to finish (at most ${Math.round(waitMs / 1000)} s).\n`)

/**
 * Runs `work` holding the lock of `file` (a record, or a name beside the records) in the local
 * journal: the folders are checked first (fail-closed); a held lock is waited for (said once on
 * stderr) for at most `waitMs`, after which it is exit 7 naming `check`. `quick`: one of many short
 * holds at once (the rows of a bulk run), taken with one mkdir when free (op-lock.ts, takeLockQuick).
 */
export async function withOperationLock<T>(
  configDir: string,
  file: string,
  words: { what: string; check: string; waitMs?: number | undefined; quick?: boolean | undefined },
  work: (held: HeldLock) => Promise<T>,
): Promise<T> {
  const [{ checkPrivateFolders }, { takeLock, takeLockQuick }, path] = await Promise.all([
    import('../../config/fs-check.js'),
    import('../../config/op-lock.js'),
    import('node:path'),
  ])
  checkPrivateFolders(configDir, path.dirname(file), 'operation journal')
  const askedAt = Date.now()
  const waitMs = words.waitMs ?? LOCK_WAIT_MS
  const take = words.quick ? takeLockQuick : takeLock
  const lock = await waitedTooLong(words.check, () => take(file, { waitMs, what: words.what, onWait: waitNote(words.what, waitMs) }))
  try {
    return await work({ waited: lock.waited, askedAt, lost: lock.lost })
  } finally {
    await lock.release()
  }
}

/**
 * Runs `work` holding the reservation of `slot` in `journal` (local or shared): a held one is
 * waited for (said once on stderr) for at most `waitMs`, after which it is exit 7 naming `check`.
 */
export async function withReservation<T>(
  journal: JournalStore,
  slot: Slot,
  words: { what: string; check: string; waitMs?: number | undefined },
  work: (held: HeldLock) => Promise<T>,
): Promise<T> {
  const askedAt = Date.now()
  const waitMs = words.waitMs ?? LOCK_WAIT_MS
  const taken = await waitedTooLong(words.check, () => journal.reserve(slot, { waitMs, what: words.what, onWait: waitNote(words.what, waitMs) }))
  try {
    return await work({ waited: taken.held.waited, askedAt, lost: () => taken.held.lost(), held: taken.held })
  } finally {
    await taken.release()
  }
}

export async function runOperation<T, B = unknown>(session: SafetySession, spec: OperationSpec<T, B>): Promise<T> {
  session.action = spec.action
  if (session.dryRun) return dryRunOperation(session, spec)
  // A row of a bulk run (cli/bulk) is journaled with its run, by the file and line: same rules.
  if (session.rowJournal) return (session.rowJournal as OperationJournal).run(spec)
  const journal = await session.journal()
  const { operationSlot } = await import('../../config/operations.js')
  // A repeatable operation is never refused as a repeat: its identity need not ask the service.
  const { identity } = await operationIdentity(session.settings, session.controller.signal, !spec.repeatable)
  const slot = operationSlot(identity, spec.key)
  return withReservation(journal, slot, { what: spec.action, check: spec.check }, (held) => runLocked(session, spec, journal, identity, slot, held))
}

/**
 * `--dry-run`: the repeat checks of a real run, read only (the journal's record and the second
 * witness): when the real run would be refused, it is said on stderr; then the guards, and the
 * request is printed instead of sent (dry-run.ts).
 */
async function dryRunOperation<T, B>(session: SafetySession, spec: OperationSpec<T, B>): Promise<T> {
  const { dryRunRepeatCheck } = await import('./dry-run-checks.js')
  await dryRunRepeatCheck(session, spec)
  await spec.guard?.()
  return spec.send()
}

async function runLocked<T, B>(
  session: SafetySession,
  spec: OperationSpec<T, B>,
  journal: JournalStore,
  identity: ServiceIdentity,
  slot: Slot,
  lock: HeldLock,
): Promise<T> {
  const { newOperation } = await import('../../config/operations.js')
  const { writtenMeanwhile } = await import('../../config/journal-store.js')
  const held = lock.held as Held
  const prior = await journal.read(slot, spec.check)
  const write = (record: OperationRecord) => journal.write(slot, record, held)
  const log = (line: string) => process.stderr.write(`${sanitizeLine(line)}\n`)
  // Written by another run after this one started: a concurrent duplicate, never a deliberate
  // repeat, so neither --again nor --if-exists create skips what a re-run checks (its lost
  // answer, the witness), and one already done is refused naming it.
  const meanwhile = prior !== undefined && writtenMeanwhile(prior, journal.startedAt())
  const madeMeanwhile = meanwhile && prior?.state === 'done'
  const again = session.again && !meanwhile

  if (prior && (prior.state === 'sending' || prior.state === 'unknown') && !again) {
    log(`An earlier identical ${spec.action} (at ${prior.intentAt}) ended without an answer; looking on the service first.`)
    const found = await spec.reconcile(prior.before as B | undefined, prior)
    if (found === 'cannot-tell') {
      throw new UnresolvedOutcomeError(
        `The earlier ${spec.action} may or may not have happened, and the service's state cannot tell: nothing was sent. Check with: ${spec.check}`,
        spec.check,
      )
    }
    if (found !== 'absent') {
      const resultId = spec.resultId?.(found.found) ?? prior.resultId
      await write({ ...prior, state: 'done', resultId: resultId ?? null, doneCount: prior.doneCount + 1 })
      log(`It happened: ${found.note}. Nothing was sent again.`)
      return found.found
    }
    log('The service shows it did not happen; sending it now.')
  } else if (prior?.state === 'done' && !spec.repeatable && (madeMeanwhile || (!session.again && !spec.deliberate))) {
    const made = prior.resultId ?? `at ${prior.updatedAt}`
    throw new RefusedError(
      madeMeanwhile
        ? `Another payfac run made the identical ${spec.action} while this one ${lock.waited ? 'waited' : 'was starting'} (${made}); nothing was sent. ` +
            'To make another one on purpose, run the command again with --again once it has finished.'
        : `An identical ${spec.action} was already made (${made}); nothing was sent. To make another one on purpose, run the command again with --again.`,
    )
  }

  await spec.guard?.()
  if (spec.witness && !again) {
    const seen = await spec.witness()
    if (seen !== undefined) {
      throw new RefusedError(
        `The service already shows an identical ${spec.action}: ${seen}. Nothing was sent. ` +
          'To make another one on purpose, run the command again with --again.',
      )
    }
  }
  const before = spec.before ? await spec.before() : undefined
  // A holder paused past the lock's stale time (Ctrl-Z, SIGSTOP, a suspended machine) may have
  // been taken over by a second run that has sent meanwhile: what this run read is then stale.
  stillHeld(lock, spec)
  // The intent is in the journal before the request leaves (the shared journal writes it only
  // while the reservation is still this run's: otherwise exit 3 or 7, nothing sent).
  let record = await write(newOperation(identity, spec.key, spec, before, prior?.doneCount ?? 0)).catch((error: unknown) => {
    if (!(error instanceof Error && error.name === 'ReservationLostError')) throw error
    throw new UnresolvedOutcomeError(`${error.message} Check with: ${spec.check}`, spec.check, (error as { hint?: string }).hint)
  })
  const { watchInterrupts } = await import('../runtime/interrupt.js')
  // Asked again once the intent is written, and by the client right before the request leaves
  // (after the production confirmation): a run paused meanwhile (the write's round trip, Ctrl-Z at
  // the prompt) may have been taken over by a run that found the intent `sending`, looked on the
  // service, found nothing and sent (before, both refunds were made: test/e2e/fleet-paused-runner.test.ts).
  // The record is then the other run's: this one leaves it as it is.
  stillHeld(lock, spec)
  let lostAtSend: unknown
  session.beforeSend = () => {
    try {
      stillHeld(lock, spec)
    } catch (error) {
      lostAtSend = error
      throw error
    }
  }
  const interrupts = watchInterrupts()
  const forward = () => session.controller.abort(interrupts.signal.reason)
  interrupts.signal.addEventListener('abort', forward, { once: true })
  try {
    const result = await spec.send()
    record = await journalOutcome(write, { ...record, state: 'done', resultId: spec.resultId?.(result) ?? null, doneCount: record.doneCount + 1 }, spec)
    return result
  } catch (error) {
    if (error === lostAtSend) throw error
    const unknown = error instanceof OutcomeUnknownError || error instanceof ResponseFormatError
    await journalOutcome(write, { ...record, state: unknown ? 'unknown' : 'refused' }, spec)
    if (error instanceof OutcomeUnknownError) {
      error.action = spec.action
      error.check = spec.check
      error.look = spec.look
    } else if (interrupts.signal.aborted && !unknown) {
      throw new InterruptedError(`Interrupted before the ${spec.action} was sent: nothing was sent`)
    }
    throw error
  } finally {
    session.beforeSend = undefined
    interrupts.signal.removeEventListener('abort', forward)
    interrupts.dispose()
  }
}

/** Exit 7, nothing sent, when the lock or reservation may no longer be this run's (paused past its stale time, taken over). */
function stillHeld(lock: HeldLock, spec: { action: string; check: string }): void {
  const lost = lock.lost()
  if (lost === undefined) return
  throw new UnresolvedOutcomeError(
    `This payfac run may no longer hold the lock of the ${spec.action} (${lost}): another payfac run may have made it meanwhile. Nothing was sent. Check with: ${spec.check}`,
    spec.check,
    'Run the same command again once the other run has finished: it then reports what was done.',
  )
}

/**
 * The outcome, written after the request: when the journal cannot take it (the shared journal's
 * database went away meanwhile), the answer still stands and is said; the record stays `sending`,
 * so the next run looks on the service before sending anything.
 */
async function journalOutcome(
  write: (record: OperationRecord) => Promise<OperationRecord>,
  record: OperationRecord,
  spec: { action: string; check: string },
): Promise<OperationRecord> {
  try {
    return await write(record)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    process.stderr.write(
      `${sanitizeLine(`Warning: the ${spec.action} ended ${record.state === 'done' ? `as done${record.resultId ? ` (${record.resultId})` : ''}` : record.state}, but the journal could not record it (${why}). It still says the request was being sent, so the next run looks on the service first. Check with: ${spec.check}`)}\n`,
    )
    return record
  }
}
