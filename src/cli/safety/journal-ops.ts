// Runs one money-moving request at most once, with the operation journal (config/operations.ts):
//
//   1. an earlier identical operation whose answer was lost (journaled `sending` or `unknown`)
//      is looked up on the service first: found, it is reported (exit 0) and nothing is sent;
//      shown not to have happened, it is sent; when the service cannot tell, exit 7 with the
//      command that shows it (`--again` sends anyway);
//   2. an identical operation already done needs `--again` when the spec says so (a refund);
//   3. the command's guards from the service's state run (more than remains, already paid …);
//   4. the intent is journaled, the request sent, and its result journaled: done, refused (the
//      service answered that it did not happen) or unknown (OutcomeUnknownError, annotated with
//      what was being done and the command that shows whether it did).
// SIGINT and SIGTERM while the request is in flight abort it: outcome unknown, exit 130/143.
import { OutcomeUnknownError, ResponseFormatError } from '../../client/errors.js'
import type { OperationKey, OperationRecord } from '../../config/operations.js'
import { InterruptedError, RefusedError, UnresolvedOutcomeError } from '../errors.js'
import type { SafetySession } from './session.js'
import { sanitizeLine } from '../../output/sanitize.js'

/** What a look on the service found about an earlier operation. */
export type Reconciled<T> = { found: T; note: string } | 'absent' | 'cannot-tell'

export interface OperationSpec<T, B = unknown> {
  key: OperationKey
  /** "refund of 10.00 AUD on transaction tran_…" */
  action: string
  /** The command line that shows whether it happened. */
  check: string
  /** What to look at in what it shows. */
  look?: string | undefined
  /** The service's state before sending, kept in the journal to compare with after. */
  before?: (() => Promise<B>) | undefined
  /** Looks on the service for what an earlier run of this operation did. */
  reconcile: (before: B | undefined, record: OperationRecord) => Promise<Reconciled<T>>
  /** Guards from the service's state; they throw to refuse. Run only when about to send. */
  guard?: (() => Promise<void>) | undefined
  send: () => Promise<T>
  resultId?: ((result: T) => string | undefined) | undefined
  /** An identical operation already done is refused without --again (a second identical refund). */
  repeatNeedsAgain?: boolean | undefined
  /**
   * The second witness: looks on the service for an identical operation already made within the
   * repeat window (witness.ts) and returns what it found, in words ("refund ref_… of 10.00 AUD at
   * 2026-11-25T10:00:00Z"), or undefined. Run before sending unless --again; a find is exit 6.
   */
  witness?: (() => Promise<string | undefined>) | undefined
}

export async function runOperation<T, B = unknown>(session: SafetySession, spec: OperationSpec<T, B>): Promise<T> {
  session.action = spec.action
  if (session.dryRun) {
    await spec.guard?.()
    return spec.send()
  }
  const { operationPath, readOperation, serviceIdentity, writeOperation, newOperation } = await import('../../config/operations.js')
  const { resolveConfigDir } = await import('../../config/store.js')
  const s = session.settings
  const identity = serviceIdentity(s.baseUrl, s.context, s.credential)
  const file = operationPath(resolveConfigDir(), identity, spec.key)
  const prior = readOperation(file)
  const log = (line: string) => process.stderr.write(`${sanitizeLine(line)}\n`)

  if (prior && (prior.state === 'sending' || prior.state === 'unknown') && !session.again) {
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
      writeOperation(file, { ...prior, state: 'done', resultId: resultId ?? null, doneCount: prior.doneCount + 1 })
      log(`It happened: ${found.note}. Nothing was sent again.`)
      return found.found
    }
    log('The service shows it did not happen; sending it now.')
  } else if (prior?.state === 'done' && spec.repeatNeedsAgain && !session.again) {
    throw new RefusedError(
      `An identical ${spec.action} was already made (${prior.resultId ?? 'at ' + prior.updatedAt}); nothing was sent. ` +
        'To make another one on purpose, run the command again with --again.',
    )
  }

  await spec.guard?.()
  if (spec.witness && !session.again) {
    const seen = await spec.witness()
    if (seen !== undefined) {
      throw new RefusedError(
        `The service already shows an identical ${spec.action}: ${seen}. Nothing was sent. ` +
          'To make another one on purpose, run the command again with --again.',
      )
    }
  }
  const before = spec.before ? await spec.before() : undefined
  let record = writeOperation(file, newOperation(identity, spec.key, spec, before, prior?.doneCount ?? 0))
  const { watchInterrupts } = await import('../flows/interrupt.js')
  const interrupts = watchInterrupts()
  const forward = () => session.controller.abort(interrupts.signal.reason)
  interrupts.signal.addEventListener('abort', forward, { once: true })
  try {
    const result = await spec.send()
    record = writeOperation(file, { ...record, state: 'done', resultId: spec.resultId?.(result) ?? null, doneCount: record.doneCount + 1 })
    return result
  } catch (error) {
    const unknown = error instanceof OutcomeUnknownError || error instanceof ResponseFormatError
    writeOperation(file, { ...record, state: unknown ? 'unknown' : 'refused' })
    if (error instanceof OutcomeUnknownError) {
      error.action = spec.action
      error.check = spec.check
      error.look = spec.look
    } else if (interrupts.signal.aborted && !unknown) {
      throw new InterruptedError(`Interrupted before the ${spec.action} was sent: nothing was sent`)
    }
    throw error
  } finally {
    interrupts.signal.removeEventListener('abort', forward)
    interrupts.dispose()
  }
}

