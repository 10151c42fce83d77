// `--dry-run` runs the repeat checks of a real run, reading only: the operation's record in the
// journal (local or shared; no reservation is taken, nothing is written) and the second witness
// (the service's own records, a read). When the real run would be refused (exit 6) or would look
// on the service first, it says so on stderr and in the dry run's report (`wouldBeRefused`); the
// request is then printed as every dry run prints it.
import { ConnectionError, TimeoutError } from '../../client/errors.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { operationIdentity } from './acting-for.js'
import type { OperationSpec } from './operation-spec.js'
import type { SafetySession } from './session.js'

export async function dryRunRepeatCheck<T, B>(session: SafetySession, spec: OperationSpec<T, B>): Promise<void> {
  if (spec.repeatable) return
  const say = (line: string) => process.stderr.write(`${sanitizeLine(`Dry run: ${line}`)}\n`)
  const refused = (why: string) => {
    session.dryRunNotes.push(why)
    say(`the real run would be refused (exit 6): ${why}`)
  }
  try {
    const { operationSlot } = await import('../../config/operations.js')
    const journal = await session.journal()
    const { identity } = await operationIdentity(session.settings, session.controller.signal)
    const prior = await journal.read(operationSlot(identity, spec.key), spec.check)
    if (prior?.state === 'done' && !session.again && !spec.deliberate) {
      refused(`an identical ${spec.action} was already made (${prior.resultId ?? `at ${prior.updatedAt}`}); add --again to make another on purpose`)
      return
    }
    if (prior && (prior.state === 'sending' || prior.state === 'unknown') && !session.again) {
      say(
        `an earlier identical ${spec.action} (at ${prior.intentAt}) ended without an answer: the real run looks on the service first. Check with: ${spec.check}`,
      )
    }
    if (spec.witness && !session.again) {
      const seen = await spec.witness()
      if (seen !== undefined) refused(`the service already shows an identical ${spec.action}: ${seen}; add --again to make another on purpose`)
    }
  } catch (error) {
    // A service that cannot be reached skips the checks that read it, as every dry-run read.
    if (!(error instanceof ConnectionError || error instanceof TimeoutError)) throw error
    say(`could not read the service (${error.message}); the repeat checks are skipped.`)
  }
}
