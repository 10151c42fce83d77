// What `payfac settlement reconcile` does between parsing and printing: the scope from the flags
// (checked before anything is sent), the ledger, one run per merchant or one in all (each ending
// with its totals, balances and summary records), the summary line on stderr and the exit code
// (0 all matched, 6 any difference).
import type { CallOptions, PayfacClient } from '../../client/index.js'
import { UsageError } from '../errors/index.js'
import { exitCodeFor } from '../errors/exit-codes.js'
import { RefusedError } from '../errors/index.js'
import { resolveRange } from '../range/range.js'
import { payoutMerchant } from '../safety/payout-checks.js'
import { type BalanceOwner, balanceRecords } from './balances.js'
import { Reconciler } from './engine.js'
import { LedgerBook, parseLedgerColumns } from './ledger.js'
import { preferSmallHeap } from './memory.js'
import type { ReconcileRecord } from './records.js'
import { type ReconcileScope, reconcile, terminalProgress } from './run.js'

export interface ReconcileFlags {
  payout?: string | undefined
  currency?: string | undefined
  from?: string | undefined
  to?: string | undefined
  last?: string | undefined
  month?: string | undefined
  'last-month'?: boolean | undefined
  ledger?: string | undefined
  'ledger-columns'?: string | undefined
  'ledger-amounts'?: string | undefined
  'each-merchant'?: boolean | undefined
  merchants?: string | undefined
}

/** The scope and the ledger; every mistake is a usage error before anything is sent. */
export async function reconcileScope(f: ReconcileFlags, now: Date): Promise<ReconcileScope> {
  const range = resolveRange(f, now)
  if (!f.payout && !range)
    throw new UsageError('Say what to reconcile: --payout <id>, or a range: --month, --last-month, --last, or --from and --to', 'For example --month 2026-10')
  if (f.payout && range)
    throw new UsageError('--payout reconciles one payout; leave out --from, --to, --last and --month', 'Or leave out --payout to reconcile a range')
  if (!f.currency && !f.payout) throw new UsageError('A range needs --currency', 'For example --currency AUD --last 30d')
  if (f.ledger && (f['each-merchant'] || f.merchants !== undefined)) {
    throw new UsageError(
      '--ledger compares one ledger with one run; it cannot be split by merchant',
      'Leave out --each-merchant/--merchants: a marketplace credential reconciles every merchant in one run',
    )
  }
  if (f['ledger-columns'] && !f.ledger) throw new UsageError('--ledger-columns describes --ledger, which is missing')
  let ledger: LedgerBook | undefined
  if (f.ledger) {
    if (!f['ledger-columns'])
      throw new UsageError('--ledger needs --ledger-columns', 'For example --ledger-columns reference=Ref,amount=Amount,currency=Currency')
    const amounts = f['ledger-amounts'] === 'minor' ? 'minor' : 'decimal'
    ledger = await LedgerBook.read(f.ledger, parseLedgerColumns(f['ledger-columns']), amounts, range)
  }
  return { currency: f.currency ?? '', from: range?.from, to: range?.to, payoutId: f.payout, ledger }
}

/** Whom the run acts for: the Merchant-Id in context and the credential's kind (ActingFor). */
export interface Acting {
  context: { merchantId?: string | undefined }
  credentialKind: string
}

/** Credentials that act for one merchant, whose merchant payfac may look up. */
const MERCHANT_KINDS = new Set(['merchant-secret-key', 'merchant-public-key', 'merchant-jwt'])

/** One reconciliation: its runs (one per merchant in a fan-out), their engines, one progress line. */
export class ReconcileSession {
  readonly engines: Reconciler[] = []
  private readonly progress: ReturnType<typeof terminalProgress>

  constructor(
    private readonly client: PayfacClient,
    private readonly scope: ReconcileScope,
    private readonly acting: Acting,
    private readonly timeoutMs: number,
    /** A progress line may be drawn: records are not printed on the terminal as they come. */
    progress: boolean,
  ) {
    this.progress = terminalProgress(process.stderr, progress)
  }

  /** The records of one run (one merchant, or everything the credential sees), streamed; then its totals, balances and summary. */
  async *run(call?: CallOptions): AsyncGenerator<ReconcileRecord> {
    preferSmallHeap()
    const merchantId = call?.context?.merchantId
    const engine = new Reconciler(this.scope.currency, this.scope.ledger, merchantId)
    this.engines.push(engine)
    yield* reconcile(this.client, this.scope, engine, call, this.progress)
    const owner = this.scope.payoutId ? { none: 'one payout' } : await this.owner(merchantId)
    this.progress(() => 'Reconciling: reading the balances')
    const label = merchantId ?? ('merchantId' in owner ? owner.merchantId : null)
    yield* await balanceRecords(this.client, engine, this.scope, owner, this.timeoutMs, call)
    yield* engine.totals.records(label)
    yield engine.summaryRecord(label)
  }

  /** The merchant whose balance the run can give, or why it cannot. */
  private async owner(fanOutMerchant: string | undefined): Promise<BalanceOwner> {
    const merchantId = fanOutMerchant ?? this.acting.context.merchantId
    if (merchantId) return { merchantId }
    const seeing =
      "a balance is one merchant's, and this credential sees every merchant of the marketplace (--each-merchant or --merchant-id gives each merchant's)"
    if (!MERCHANT_KINDS.has(this.acting.credentialKind)) return { none: seeing }
    const only = await payoutMerchant(this.client, undefined)
    return only ? { merchantId: only } : { none: seeing }
  }

  /** What an empty table of differences means (said on stderr instead of "No records."). */
  allMatched(): string {
    const checked = this.engines.reduce((n, e) => n + e.checked, 0)
    const entries = this.engines.reduce((n, e) => n + e.entries, 0)
    if (checked === 0 && entries === 0) return 'Nothing to reconcile: no records and no settlement entries in the range.'
    return `All ${checked} record${checked === 1 ? '' : 's'} matched (${entries} settlement entr${entries === 1 ? 'y' : 'ies'}): nothing to report.`
  }

  get differences(): number {
    return this.engines.reduce((n, e) => n + e.differences, 0)
  }

  /** The progress line cleared, the summary line(s) on stderr (and "All N records matched" unless the table said it), exit 6 when anything differed. */
  verdict(saidAllMatched: boolean): void {
    this.progress.done()
    for (const engine of this.engines) process.stderr.write(`${engine.summary()}\n`)
    const differences = this.differences
    if (differences === 0 && !saidAllMatched) process.stderr.write(`${this.allMatched()}\n`)
    if (differences > 0 && !process.exitCode) process.exitCode = exitCodeFor(new RefusedError(`${differences} differences`))
  }

  /** Clears the progress line (before a table is drawn). */
  clearProgress(): void {
    this.progress.done()
  }
}
