// How `payfac payto pay` runs the flow (payto-pay.ts) for a command: the journal in the config
// folder under the operation identity (the service and the party acted for), the lock of the
// reference held for the whole run (a second process with the same reference says so and waits,
// then reports what the first did), the command that resumes the run, and Ctrl-C watched for the
// whole run.
import type { PayfacClient } from '../../client/client.js'
import type { Transaction } from '../../client/schemas/transactions.js'
import type { JournalStore } from '../../config/journal-store.js'
import type { ResolvedSettings } from '../../config/resolve.js'
import { type PayToPayRequest, refuseApproveOnProduction, runPayToPay } from './payto-pay.js'

/** What the command hands over: the client, the resolved settings and its own command line. */
export interface PayToPayCommand {
  client: PayfacClient
  settings: ResolvedSettings
  bin: string
  /** The command's arguments (after `payto pay`), to print the command that resumes the run. */
  argv: string[]
  dryRun?: boolean | undefined
  /** The command's words (default `payto pay`), for the resume command and messages. */
  words?: string[] | undefined
  /** The operation journal of the command (its safety session's). */
  journal: () => Promise<JournalStore>
  /** `payto charge`: --again and the repeat window of a charge of the same agreement and amount under another reference. */
  charge?: { again: boolean; windowMs: number } | undefined
  /** Where a dry run says the real run would be refused (the safety session's notes, for the report). */
  dryRunNotes?: string[] | undefined
}

/**
 * Runs the flow for a command: the journal in the config folder (keyed by the operation identity,
 * so another spelling of the same service resumes it), under the lock of the reference, the
 * resume command (the same arguments, without --restart), and Ctrl-C watched for the whole run.
 */
export async function payToPayFromCommand(request: PayToPayRequest, command: PayToPayCommand): Promise<Transaction> {
  refuseApproveOnProduction(request, command.settings.environment)
  const { journalKey, journalPath } = await import('../../config/journal.js')
  const { referenceSlot } = await import('../../config/operations.js')
  const { checkPrivateFolders } = await import('../../config/fs-check.js')
  const { LOCK_WAIT_MS, operationIdentity, withReservation } = await import('../safety/journal-ops.js')
  const { commandLine, watchInterrupts } = await import('../runtime/interrupt.js')
  const path = await import('node:path')
  const interrupts = watchInterrupts()
  try {
    const { configDir, identity } = await operationIdentity(command.settings, interrupts.signal)
    const journalFile = journalPath(configDir, `svc-${identity.id}`, request.reference)
    const check = `${command.bin} orders list --reference ${request.reference}`
    checkPrivateFolders(configDir, path.dirname(journalFile), 'journal')
    const context = {
      client: command.client,
      environment: command.settings.environment,
      journalFile,
      resume: commandLine(command.bin, [...(command.words ?? ['payto', 'pay']), ...command.argv.filter((arg) => arg !== '--restart')]),
      stderr: process.stderr,
      signal: interrupts.signal,
      dryRun: command.dryRun,
      accountKey: journalKey(configDir),
      check,
    }
    const journal = await command.journal()
    const charge = request.charge && command.charge ? { ...command.charge, ...request.charge, reference: request.reference, bin: command.bin } : undefined
    const { chargeKey, dryRunChargeCheck } = await import('./charge-repeat.js')
    const { operationSlot } = await import('../../config/operations.js')
    const chargeAt = charge ? operationSlot(identity, chargeKey(charge)) : undefined
    if (command.dryRun) {
      if (charge && chargeAt) await dryRunChargeCheck(journal, chargeAt, charge, command.dryRunNotes ?? [])
      return await runPayToPay(request, context)
    }
    const words = {
      what: `${(command.words ?? ['payto', 'pay']).join(' ')} of reference ${request.reference}`,
      check,
      waitMs: request.timeoutMs + LOCK_WAIT_MS,
    }
    // The reservation of the reference is in the journal in use (shared: across runners); the
    // steps' own journal stays in this config folder.
    const byReference = (held?: { lost: () => string | undefined }) =>
      withReservation(journal, referenceSlot(identity, request.reference), words, (own) =>
        runPayToPay(request, { ...context, lost: () => held?.lost() ?? own.lost() }),
      )
    if (!charge || !chargeAt) return await byReference()
    const { chargeOnce } = await import('./charge-once.js')
    return await chargeOnce({ journal, slot: chargeAt, identity, charge, check, waitMs: words.waitMs }, byReference)
  } finally {
    interrupts.dispose()
  }
}
