// The rows of a checked file, run: under one lock on the file's journal, `--concurrency` rows in
// flight, each at most once (journal.ts), with the results written as rows finish. A 429 puts
// the row back after every worker has waited as the service asked (workers.ts); a row whose
// request may have left without an answer is `unknown`, and a re-run looks it up on the service.
import { ApiError, OutcomeUnknownError, ResponseFormatError } from '../../client/errors.js'
import { retryAfterMs } from '../../client/retry.js'
import { retryAfterOf } from '../../client/retry.js'
import { ConfigError } from '../../config/errors.js'
import { quickLocksRemoved } from '../../config/op-lock.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { InterruptedError, RefusedError, UnresolvedOutcomeError } from '../errors/index.js'
import { exitCodeFor } from '../errors/exit-codes.js'
import { operationIdentity } from '../safety/journal-ops.js'
import type { SafetySession } from '../safety/session.js'
import { RowRun } from './row-run.js'
import { runJournalFor } from './rows-journal.js'
import { bulkProgress } from './progress.js'
import type { Row, RowSource } from './reader.js'
import { readRows } from './reader.js'
import { Results, type RowResult } from './results.js'
import { columnsOf, rowValues } from './row-flags.js'
import type { RowContext, RowKind } from './rows.js'
import type { BulkHost } from '../base-command.js'
import type { Checked } from './validate.js'
import { Workers } from './workers.js'

/** How often one row is tried when the service answers 429 (nothing was applied) before it counts as failed. */
const RATE_LIMITED_TRIES = 8

export interface BulkSummary {
  rows: number
  done: number
  skipped: number
  failed: number
  unknown: number
}

interface Execution {
  host: BulkHost
  kind: RowKind<never>
  source: RowSource
  checked: Checked
  ctx: RowContext
  safety: SafetySession
}

export async function executeRows(x: Execution): Promise<BulkSummary> {
  const { configDir, identity } = await operationIdentity(x.ctx.settings, x.safety.controller.signal)
  // The journal in use (local, or shared across runners): rows/records behind one shape (rows-journal.ts).
  const run = await runJournalFor(await x.safety.journal(), configDir, identity, x.host.id, x.checked.digest)
  const words = { what: `bulk run of ${x.source.name}`, check: 'the results of the earlier run (--out FILE.partial)' }
  return run.hold(words, async (held, journal) => {
    const workers = new Workers((x.host.flags.concurrency as number | undefined) ?? 4)
    const client = await x.host.client((event) => workers.slowDown(event.waitMs))
    const f = x.host.flags
    const results = await Results.open(f.out as string | undefined, f.csv ? 'csv' : f.json || f.jsonl ? 'jsonl' : undefined)
    const progress = bulkProgress(x.checked.rows)
    const { watchInterrupts } = await import('../runtime/interrupt.js')
    const interrupts = watchInterrupts()
    const forward = () => x.safety.controller.abort(interrupts.signal.reason)
    interrupts.signal.addEventListener('abort', forward, { once: true })
    const columns = columnsOf(x.host.definitions)
    let fatal: unknown
    const finish = (row: Row, result: RowResult) => {
      journal.forget(row.line)
      results.add(row.index, result)
      progress.update(results.counts)
    }
    const attempt = async (row: Row, request: never): Promise<RowResult> => {
      for (let tries = 1; ; tries++) {
        await workers.paced()
        const rowRun = new RowRun(journal, row.line, held.lost, run.records, workers)
        try {
          const id = await x.kind.send(x.safety.forRow(rowRun), client, request, x.ctx)
          workers.succeeded()
          return { line: row.line, status: rowRun.found ? 'skipped-already-done' : 'done', id: rowRun.resultId ?? id }
        } catch (error) {
          if (error instanceof ApiError && error.status === 429 && tries < RATE_LIMITED_TRIES && !interrupts.signal.aborted) {
            workers.slowDown(retryAfterMs(retryAfterOf(error), Date.now()) ?? 1000)
            continue
          }
          if (error instanceof ConfigError || (error instanceof UnresolvedOutcomeError && rowRun.lostLock)) fatal ??= error
          return failure(row.line, error, interrupts.signal.aborted)
        }
      }
    }
    try {
      try {
        for await (const row of readRows(x.source).rows) {
          if (fatal !== undefined || interrupts.signal.aborted) break
          const prior = journal.prior(row.line)
          if (prior?.state === 'done') {
            finish(row, { line: row.line, status: 'skipped-already-done', id: prior.resultId ?? undefined })
            continue
          }
          const { request } = x.kind.build(await rowValues(row, columns, x.source.name), x.ctx)
          await workers.submit(async () => {
            const result = await attempt(row, request as never)
            try {
              finish(row, result)
            } catch (error) {
              // The results cannot be written (a full disk behind --out): no row more is taken,
              // and the rows in flight finish and are journaled before the run stops.
              fatal ??= error
            }
          })
        }
      } catch (error) {
        // The file no longer reads as it was checked (reader.ts): no row more is taken, and the
        // rows in flight finish and are recorded before the run stops.
        fatal ??= error
      }
      await workers.drain()
    } finally {
      // Rows still in flight (the file could not be read to its end) finish before the journal closes.
      await workers.drain()
      await quickLocksRemoved()
      interrupts.signal.removeEventListener('abort', forward)
      interrupts.dispose()
      progress.end()
      await journal.close()
    }
    try {
      await results.finish()
    } catch (error) {
      fatal ??= error
    }
    return conclude(x, results.counts, fatal, interrupts.signal.aborted)
  })
}

/** A row that did not go through: unknown when its request may have left, failed otherwise. */
function failure(line: number, error: unknown, interrupted: boolean): RowResult {
  const unknown = error instanceof OutcomeUnknownError || error instanceof ResponseFormatError || error instanceof UnresolvedOutcomeError
  const message = sanitizeLine(error instanceof ApiError ? error.describe() : error instanceof Error ? error.message : String(error))
  const errorCode = error instanceof ApiError ? (error.errorCode ?? `http-${error.status}`) : `exit-${exitCodeFor(error)}`
  return { line, status: unknown ? 'unknown' : 'failed', errorCode, message: interrupted && !unknown ? `interrupted before it was sent: ${message}` : message }
}

/** The summary on stderr, and the run's exit: 0 all done, 6 some failed, 7 some unknown. */
function conclude(x: Execution, counts: Results['counts'], fatal: unknown, interrupted: boolean): BulkSummary {
  const finished = counts.done + counts['skipped-already-done'] + counts.failed + counts.unknown
  const summary: BulkSummary = {
    rows: x.checked.rows,
    done: counts.done,
    skipped: counts['skipped-already-done'],
    failed: counts.failed,
    unknown: counts.unknown,
  }
  const out = x.host.flags.out as string | undefined
  const where = out ? `; results in ${out}` : ''
  const words = `${counts.done} done, ${counts['skipped-already-done']} skipped (done before), ${counts.failed} failed, ${counts.unknown} unknown of ${x.checked.rows} rows${finished < x.checked.rows ? ` (${x.checked.rows - finished} not started)` : ''}${where}`
  const again =
    'Run the same command again with the same file: it skips the rows done, looks up on the service those whose answer was lost, and sends only the rest.'
  if (interrupted) throw new InterruptedError(`Interrupted: ${words}`, again)
  if (fatal !== undefined) {
    process.stderr.write(`${sanitizeLine(`Stopped: ${words}.`)}\n`)
    throw fatal
  }
  if (counts.unknown > 0)
    throw new UnresolvedOutcomeError(
      `Some rows have an unknown outcome: ${words}`,
      `${x.host.bin} ${x.host.id.replace(/:/g, ' ')} --from-file ${x.source.name}`,
      again,
    )
  if (counts.failed > 0) throw new RefusedError(`Some rows failed: ${words}. The results say why for each.`)
  process.stderr.write(`${sanitizeLine(`Done: ${words}.`)}\n`)
  return summary
}
