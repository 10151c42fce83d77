// Runs a reconciliation against the service: the entries of the range (or of one payout) are
// walked page by page into the index, then transactions, refunds and payouts stream past it.
// Yields differences and matched entries as they are found; the Reconciler holds the counts and
// totals for the summary.
import type { CallOptions, PayfacClient } from '../../client/index.js'
import type { Reconciler } from './engine.js'
import type { LedgerBook } from './ledger.js'
import type { ReconcileRecord } from './records.js'

export interface ReconcileScope {
  currency: string
  /** The range, or none for one payout. */
  from?: Date | undefined
  to?: Date | undefined
  payoutId?: string | undefined
  ledger?: LedgerBook | undefined
}

const PAGE = 500
type Loose = Record<string, unknown>

/** Says how far the run is; the text is made only when it is shown. */
export type Progress = (text: () => string) => void

/**
 * A progress line on stderr, rewritten in place at most every 100 ms; only when stderr is a
 * terminal and `wanted` (not while records are printed on the same terminal: the line would run
 * into them).
 */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr, wanted = true): Progress & { done(): void } {
  let last = 0
  const show = ((text: () => string) => {
    if (!wanted || !stream.isTTY || Date.now() - last < 100) return
    last = Date.now()
    stream.write(`\r\x1b[2K${text()}`)
  }) as Progress & { done(): void }
  show.done = () => {
    if (stream.isTTY && last > 0) stream.write('\r\x1b[2K')
  }
  return show
}

export async function* reconcile(
  client: PayfacClient,
  scope: ReconcileScope,
  engine: Reconciler,
  call?: CallOptions,
  progress: Progress = () => {},
): AsyncGenerator<ReconcileRecord> {
  const range = scope.from && scope.to ? { createdAfter: scope.from.toISOString(), createdBefore: scope.to.toISOString() } : undefined
  const settlement = client.transactions.settlement
  const entryQuery = scope.payoutId ? { payoutId: scope.payoutId } : { currency: scope.currency, ...range }
  for await (const entry of settlement.iterate({ ...entryQuery, limit: PAGE }, { call })) {
    engine.addEntry(entry as Loose)
    progress(() => `Reconciling: ${engine.entries} settlement entries read`)
  }
  const payouts: Loose[] = []
  if (scope.payoutId) payouts.push((await client.transactions.payouts.get(scope.payoutId, call)) as Loose)
  if (range) {
    for await (const t of client.transactions.iterate({ ...range, limit: PAGE }, { call })) {
      yield* engine.checkTransaction(t as Loose)
      progress(() => `Reconciling: ${engine.entries} entries, ${engine.checked} records checked`)
    }
    for await (const r of client.transactions.refunds.iterate({ ...range, limit: PAGE }, { call })) yield* engine.checkRefund(r as Loose)
    for await (const p of client.transactions.payouts.iterate({ ...range, currency: scope.currency, limit: PAGE }, { call })) {
      payouts.push((await client.transactions.payouts.get(String((p as Loose).payoutId), call)) as Loose)
    }
  }
  for (const payout of payouts) {
    let swept = 0
    const own: number[] = []
    for await (const e of settlement.iterate({ payoutId: String(payout.payoutId), limit: PAGE }, { call })) {
      const amount = ((e as Loose).amount as { minorCurrencyUnits?: number } | undefined)?.minorCurrencyUnits ?? 0
      if ((e as Loose).type === 'Payout') own.push(amount)
      else swept += amount
    }
    yield* engine.checkPayout(payout, swept, own)
    progress(() => `Reconciling: ${engine.checked} records checked`)
  }
  if (!scope.payoutId) yield* engine.finish()
}
