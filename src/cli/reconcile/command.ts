// What `payfac settlement reconcile` does between parsing and printing: the scope from the flags
// (checked before anything is sent), the ledger, one run per merchant or one in all, the summary
// line on stderr and the exit code (0 all matched, 6 any difference).
import type { CallOptions, PayfacClient } from '../../client/index.js'
import { defineView } from '../../output/view.js'
import { UsageError } from '../errors/index.js'
import { exitCodeFor } from '../errors/exit-codes.js'
import { RefusedError } from '../errors/index.js'
import { resolveRange } from '../range/range.js'
import { type Difference, Reconciler } from './engine.js'
import { LedgerBook, parseLedgerColumns } from './ledger.js'
import { preferSmallHeap } from './memory.js'
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

export const differenceView = defineView<Difference>({
  name: 'difference',
  columns: [
    { key: 'kind', header: 'Kind' },
    { key: 'reference', header: 'Reference' },
    { key: 'expected', header: 'Expected' },
    { key: 'found', header: 'Found' },
    { key: 'merchantId', header: 'Merchant' },
  ],
})

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

/** The differences of one run (one merchant, or everything the credential sees), streamed. */
export function reconcileRun(client: PayfacClient, scope: ReconcileScope, engines: Reconciler[], call?: CallOptions): AsyncIterable<Difference> {
  preferSmallHeap()
  const engine = new Reconciler(scope.currency, scope.ledger, call?.context?.merchantId)
  engines.push(engine)
  return reconcile(client, scope, engine, call, terminalProgress())
}

/** The summary line(s) on stderr, and exit 6 when anything differed. */
/** What an empty table of differences means (said on stderr instead of "No records."). */
export function allMatched(engines: Reconciler[]): string {
  const checked = engines.reduce((n, e) => n + e.checked, 0)
  const entries = engines.reduce((n, e) => n + e.entries, 0)
  if (checked === 0 && entries === 0) return 'Nothing to reconcile: no records and no settlement entries in the range.'
  return `All ${checked} record${checked === 1 ? '' : 's'} matched (${entries} settlement entr${entries === 1 ? 'y' : 'ies'}): nothing to report.`
}

export function reconcileVerdict(engines: Reconciler[]): void {
  terminalProgress().done()
  for (const engine of engines) process.stderr.write(`${engine.summary()}\n`)
  const differences = engines.reduce((n, e) => n + e.differences, 0)
  if (differences > 0 && !process.exitCode) process.exitCode = exitCodeFor(new RefusedError(`${differences} differences`))
}
