// The journaling half of a PayTo payment run (payto-pay.ts): every step that creates something is
// sent through attempt(), which journals an unknown outcome when the answer is lost and a refusal
// when the service answered; the journal is written only while this run still holds its lock;
// an interruption stops the run between steps with the journal naming what was done.
import { OutcomeUnknownError } from '../../client/errors.js'
import { type PayToPayRun, writePayToPayRun } from '../../config/journal.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { InterruptedError, UnresolvedOutcomeError } from '../errors/index.js'
import type { PayToPayContext } from './payto-pay-request.js'

export abstract class JournaledSteps {
  protected run_!: PayToPayRun

  constructor(
    protected readonly context: PayToPayContext,
    /** The command, in messages: `payto pay`, or `payto charge` on a given agreement. */
    protected readonly name: string,
    /** The run's reference (the journal's key). */
    protected readonly reference: string,
  ) {}

  /**
   * Sends one request that creates something. Without an answer (the request may have been
   * applied) `unknown` is journaled; with one (nothing was applied) `refused` is journaled; the
   * error is then thrown as it is.
   */
  protected async attempt<T>(send: () => Promise<T>, unknown: () => void, refused: () => void): Promise<T> {
    this.stillHeld()
    try {
      const result = await send()
      return result
    } catch (error) {
      // The transport decides: an answer lost after the request may have reached the service.
      if (error instanceof OutcomeUnknownError) unknown()
      else refused()
      this.save()
      throw error
    }
  }

  /**
   * A run paused past the lock's stale time may have been taken over by another run of the same
   * reference, which may have sent and journaled meanwhile: this run's view is stale, so it
   * neither writes the journal nor sends.
   */
  protected stillHeld(): void {
    const lost = this.context.lost?.()
    if (lost === undefined) return
    throw new UnresolvedOutcomeError(
      `This payfac run may no longer hold the lock of ${this.name} of reference ${this.reference} (${lost}): another payfac run may have taken it over. Nothing more was sent or journaled by this run. Check with: ${this.context.check}`,
      this.context.check,
      'Run the same command again once the other run has finished: it then reports what was done.',
    )
  }

  protected checkpoint(after: string): void {
    if (!this.context.signal.aborted) return
    throw new InterruptedError(`Interrupted after ${after}; the journal ${this.context.journalFile} has what was done`, this.context.resume)
  }

  protected save(): void {
    if (this.context.dryRun) return
    this.stillHeld()
    this.run_ = writePayToPayRun(this.context.journalFile, this.run_, this.now())
  }

  protected log(line: string): void {
    this.context.stderr.write(`${sanitizeLine(line)}\n`)
  }

  protected now(): Date {
    return this.context.now?.() ?? new Date()
  }

  protected stamp(): string {
    return this.now().toISOString()
  }
}
