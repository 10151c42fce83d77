// `payto charge`: one reference is one payment (the run's own journal, payto-pay.ts), and beyond
// it, a charge of the same agreement and amount within the repeat window is a repeat whatever
// its reference (two charges of 49.00 seconds apart under two references went through before).
// The charge is kept as an operation record (kind `payto-charge`, target the agreement, the
// amount; the reference in the record) in the journal in use, local or shared, and its
// reservation is held for the whole run, so that charges under other references racing on the
// same agreement and amount wait for it and then see it:
//   - one done within the window under another reference: exit 6 naming it, unless --again;
//   - one whose outcome is not known (`sending`, `unknown`) under another reference: exit 7 naming
//     the command that shows it, unless --again;
//   - one made by another run after this one started (a run in flight at the same time): exit 6
//     naming it even with --again.
// `--dry-run` reads the record (nothing reserved or written) and says when the real run would be refused.
import { formatMoney } from '../../client/money.js'
import type { Held, JournalStore } from '../../config/journal-store.js'
import type { OperationRecord, ServiceIdentity, Slot } from '../../config/operations.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { RefusedError, UnresolvedOutcomeError } from '../errors/index.js'
import { formatWindow } from '../safety/witness.js'

export interface ChargeRepeat {
  agreementToken: string
  amount: { minorCurrencyUnits: number; currency: string }
  reference: string
  again: boolean
  windowMs: number
  bin: string
}

export function chargeSlot(identity: ServiceIdentity, charge: ChargeRepeat, slotOf: (identity: ServiceIdentity, key: ChargeKey) => Slot): Slot {
  return slotOf(identity, chargeKey(charge))
}

export type ChargeKey = { kind: string; target: string; amount: { minorCurrencyUnits: number; currency: string } }

export function chargeKey(charge: ChargeRepeat): ChargeKey {
  return { kind: 'payto-charge', target: charge.agreementToken, amount: charge.amount }
}

const words = (c: ChargeRepeat) => `payto charge of ${formatMoney(c.amount)} on agreement ${c.agreementToken}`

/** Why the run must not charge again (a RefusedError or UnresolvedOutcomeError to throw), or undefined. */
export function chargeRepeatProblem(prior: OperationRecord | undefined, charge: ChargeRepeat, meanwhile: boolean, now = Date.now()): Error | undefined {
  if (!prior || prior.reference === charge.reference) return undefined
  const made = `reference ${prior.reference ?? '(none)'}${prior.resultId ? `, transaction ${prior.resultId}` : ''}, at ${prior.updatedAt}`
  if (prior.state === 'done' && meanwhile) {
    return new RefusedError(`Another payfac run made the identical ${words(charge)} while this one was starting or waiting (${made}); nothing was sent.`)
  }
  if (charge.again) return undefined
  const at = Date.parse(prior.updatedAt)
  const within = Number.isNaN(at) || now - at <= charge.windowMs
  if (prior.state === 'done' && within) {
    return new RefusedError(
      `An identical ${words(charge)} was already made (${made}), within the ${formatWindow(charge.windowMs)} window; nothing was sent. ` +
        'To charge again on purpose, run the command again with --again (or a --repeat-window that leaves it out).',
    )
  }
  if ((prior.state === 'sending' || prior.state === 'unknown') && within) {
    const check = `${charge.bin} orders list --reference ${prior.reference ?? ''}`
    return new UnresolvedOutcomeError(
      `An identical ${words(charge)} under reference ${prior.reference ?? '(none)'} (at ${prior.intentAt}) ended without an answer: it may have been paid. Nothing was sent. Check with: ${check}`,
      check,
      `Run that reference's command again to finish it, or add --again to charge under ${charge.reference} anyway.`,
    )
  }
  return undefined
}

/** The dry run's look: says on stderr (and in the report) when the real run would be refused. */
export async function dryRunChargeCheck(journal: JournalStore, slot: Slot, charge: ChargeRepeat, notes: string[]): Promise<void> {
  const problem = chargeRepeatProblem(await journal.read(slot), charge, false)
  if (!problem) return
  notes.push(problem.message)
  process.stderr.write(`${sanitizeLine(`Dry run: the real run would be refused (exit ${problem instanceof RefusedError ? 6 : 7}): ${problem.message}`)}\n`)
}

/** Journals the charge's outcome under its own record (a failure to write is said, never thrown over the payment's result). */
export async function journalCharge(
  journal: JournalStore,
  slot: Slot,
  held: Held,
  record: OperationRecord,
  state: OperationRecord['state'],
  resultId: string | null,
): Promise<void> {
  try {
    await journal.write(slot, { ...record, state, resultId, doneCount: record.doneCount + (state === 'done' ? 1 : 0) }, held)
  } catch (error) {
    process.stderr.write(`${sanitizeLine(`Warning: the charge's record could not be written (${error instanceof Error ? error.message : String(error)}).`)}\n`)
  }
}
