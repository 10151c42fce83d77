// What a journaled money operation is, for the one path that runs it at most once
// (journal-ops.ts) and for the journals that keep it (a bulk run's rows: cli/bulk/row-run.ts).
import type { OperationKey, OperationRecord } from '../../config/operations.js'

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
  /**
   * Moves no money, so an identical one already done is simply made again (a payment token).
   * Every other operation already done is exit 6 naming it, unless --again.
   */
  repeatable?: true | undefined
  /** The command's own flags ask for another one on purpose (orders create --if-exists create): as --again for rule 2. */
  deliberate?: boolean | undefined
  /**
   * The second witness: looks on the service for an identical operation already made within the
   * repeat window (witness.ts) and returns what it found, in words ("refund ref_… of 10.00 AUD at
   * 2026-11-25T10:00:00Z"), or undefined. Run before sending unless --again; a find is exit 6.
   */
  witness?: (() => Promise<string | undefined>) | undefined
}

/** What journals one operation in place of its own record (a row of a bulk run: cli/bulk/journal.ts). */
export interface OperationJournal {
  run<T, B>(spec: OperationSpec<T, B>): Promise<T>
}
