// `payto charge` under the reservation of its agreement and amount (charge-repeat.ts), then of its
// reference (payto-pay-command.ts): the charge's record is read, a repeat under another reference
// refused, the intent journaled, the flow run, and its outcome journaled.
import type { Transaction } from '../../client/schemas/transactions.js'
import type { JournalStore } from '../../config/journal-store.js'
import type { OperationRecord, ServiceIdentity, Slot } from '../../config/operations.js'
import { InterruptedError, RefusedError, UnresolvedOutcomeError } from '../errors/index.js'
import { withReservation } from '../safety/journal-ops.js'
import { type ChargeRepeat, chargeKey, chargeRepeatProblem, journalCharge } from './charge-repeat.js'

export interface ChargeRun {
  journal: JournalStore
  slot: Slot
  identity: ServiceIdentity
  charge: ChargeRepeat
  check: string
  waitMs: number
}

export async function chargeOnce(run: ChargeRun, byReference: (held: { lost: () => string | undefined }) => Promise<Transaction>): Promise<Transaction> {
  const { journal, slot, charge } = run
  const [{ writtenMeanwhile }, { newOperation }, { OutcomeUnknownError }, { formatMoney }] = await Promise.all([
    import('../../config/journal-store.js'),
    import('../../config/operations.js'),
    import('../../client/errors.js'),
    import('../../client/money.js'),
  ])
  const action = `payto charge of ${formatMoney(charge.amount)} on agreement ${charge.agreementToken}`
  return withReservation(journal, slot, { what: action, check: run.check, waitMs: run.waitMs }, async (lock) => {
    const held = lock.held as NonNullable<typeof lock.held>
    const prior = await journal.read(slot, run.check)
    const problem = chargeRepeatProblem(prior, charge, prior !== undefined && writtenMeanwhile(prior, journal.startedAt()))
    if (problem) throw problem
    // The same reference's charge already done: exit 6 naming it, from the record alone (a runner of
    // another config folder has no step journal of it, and the service is asked nothing).
    if (prior?.reference === charge.reference && prior.state === 'done') {
      throw new RefusedError(
        `An identical payto charge of reference ${charge.reference} was already made: transaction ${prior.resultId ?? `at ${prior.updatedAt}`}; nothing was sent. ` +
          'A reference names one payment: for another payment, use a new --reference.',
      )
    }
    const intent: OperationRecord = newOperation(
      run.identity,
      { ...chargeKey(charge), reference: charge.reference },
      { action, check: run.check },
      undefined,
      prior?.doneCount ?? 0,
    )
    const record = await journal.write(slot, intent, held)
    try {
      const paid = await byReference(lock)
      await journalCharge(journal, slot, held, record, 'done', paid.purchaseDetails?.transactionId ?? null)
      return paid
    } catch (error) {
      const unknown = error instanceof OutcomeUnknownError || error instanceof UnresolvedOutcomeError || error instanceof InterruptedError
      await journalCharge(journal, slot, held, record, unknown ? 'unknown' : 'refused', null)
      throw error
    }
  })
}
