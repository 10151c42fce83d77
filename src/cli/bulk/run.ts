// `--from-file`: a command once per row of a file, each row at most once, resumable.
//   1. every row is checked first (validate.ts): a bad row is exit 2, nothing sent;
//   2. `--dry-run` prints the first row's request and sends nothing; on production the guard
//      shows the row count and the money per currency and asks once (--yes without a terminal);
//   3. the rows run, `--concurrency` at a time (workers.ts), each journaled (journal.ts) under one
//      lock on the file; a re-run with the same file skips the rows done and looks up on the
//      service the rows whose answer was lost;
//   4. the results (results.ts), one line per row; exit 0 when every row is done, 6 when some
//      failed, 7 when some outcomes are unknown (130/143 after Ctrl-C or SIGTERM).
import type { BulkHost } from '../base-command.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { UsageError } from '../errors/index.js'
import type { SafetySession } from '../safety/session.js'
import { type BulkSummary, executeRows } from './execute.js'
import { columnsOf, rowValues } from './row-flags.js'
import { type RowSource, openSource, readRows } from './reader.js'
import { ROW_KINDS, type RowContext, type RowKind } from './rows.js'
import { checkAll, describeTotals } from './validate.js'

export async function runBulk(host: BulkHost): Promise<BulkSummary | undefined> {
  const kind = ROW_KINDS[host.id]
  if (!kind) throw new UsageError(`${host.id.replace(/:/g, ' ')} does not take --from-file`)
  refuseCommandLineRowFlags(host)
  const source = await openSource(host.flags['from-file'] as string)
  // A file of rows is read like a long list walk: each row made and dropped, so the heap is kept
  // from growing with the file's length the same way (runtime/walk-heap.ts).
  const { shapeHeapForWalk } = await import('../runtime/walk-heap.js')
  const unshape = shapeHeapForWalk()
  try {
    const settings = await host.settings()
    const safety = await host.safety()
    const warned = new Set<string>()
    const ctx: RowContext = {
      settings,
      bin: host.bin,
      warn: (key, message) => {
        if (warned.has(key)) return
        warned.add(key)
        process.stderr.write(`Warning: ${sanitizeLine(message)}.\n`)
      },
    }
    const checked = await checkAll(source, kind, host.definitions, ctx)
    const totals = describeTotals(checked)
    process.stderr.write(`${sanitizeLine(`Checked ${checked.rows} row${checked.rows === 1 ? '' : 's'} of ${source.name}: ${totals}.`)}\n`)
    if (safety.dryRun) {
      await sayRowsDone(host, checked, ctx, safety)
      await dryRunFirst(host, kind, source, ctx, safety)
      return undefined
    }
    const what = `${host.bin} ${host.id.replace(/:/g, ' ')} --from-file ${source.name}`
    await safety.confirmNow(what, [
      ['rows', String(checked.rows)],
      ['total', totals],
    ])
    return await executeRows({ host, kind, source, checked, ctx, safety })
  } finally {
    unshape()
    source.dispose()
  }
}

/**
 * A row's flags come from the file only: the same flag on the command line as well would leave
 * unclear which one a row means. `--again` would send again rows whose earlier answer was lost.
 */
function refuseCommandLineRowFlags(host: BulkHost): void {
  if (host.flags.again) {
    throw new UsageError(
      '--again does not go with --from-file: a re-run of a file carries on where it stopped, and never sends a row twice',
      'Make a deliberate repeat of one row as its own command with --again',
    )
  }
  // The results are one line a row in fixed columns: a flag that shapes printed records would be ignored.
  const shaping = (['query', 'ids', 'columns', 'wide'] as const).find((name) => host.flags[name] !== undefined && host.flags[name] !== false)
  if (shaping) {
    throw new UsageError(
      `--${shaping} does not go with --from-file: the results are one line a row (line,status,id,errorCode,message)`,
      'Leave it out; --csv, --json or --jsonl choose the results format',
    )
  }
  if (host.flags.data !== undefined)
    throw new UsageError('--data does not go with --from-file: each row is the flags of one request', 'Put the fields in columns named after the flags')
  const given = Object.entries(host.args).find(([, value]) => value !== undefined)
  if (given) throw new UsageError(`${given[0]} is a column of the file with --from-file, not an argument`, `Put it in the "${given[0]}" column of each row`)
  for (const column of columnsOf(host.definitions).keys()) {
    const used = host.argv.find((token) => token === `--${column}` || token.startsWith(`--${column}=`) || token === `--no-${column}`)
    if (used)
      throw new UsageError(`--${column} is a column of the file with --from-file, not a flag of the run`, `Put it in the "${column}" column of each row`)
  }
}

/** `--dry-run`: how many rows earlier runs of this file already did (the journal in use, read only). */
async function sayRowsDone(host: BulkHost, checked: { rows: number; digest: string }, ctx: RowContext, safety: SafetySession): Promise<void> {
  const [{ operationIdentity }, { rowsDone }] = await Promise.all([import('../safety/journal-ops.js'), import('./rows-journal.js')])
  let counted: { configDir: string; identity: import('../../config/operations.js').ServiceIdentity }
  try {
    counted = await operationIdentity(ctx.settings, safety.controller.signal)
  } catch (error) {
    // Who the rows are for is asked of the service once per key: unreachable, the count is skipped (as a dry run's reads are).
    const { ConnectionError, TimeoutError } = await import('../../client/errors.js')
    if (!(error instanceof ConnectionError || error instanceof TimeoutError)) throw error
    process.stderr.write('Dry run: could not reach the service to tell how many rows are already done.\n')
    return
  }
  const { configDir, identity } = counted
  const { done, unknown } = await rowsDone(await safety.journal(), configDir, identity, host.id, checked.digest)
  const lost = unknown > 0 ? `; ${unknown} ended without an answer (a real run looks them up on the service first)` : ''
  process.stderr.write(`Dry run: ${done} of ${checked.rows} rows are already done (a real run skips them)${lost}.\n`)
}

/** `--dry-run`: every row was checked; the first row's request is printed (DryRunStop), nothing sent. */
async function dryRunFirst(host: BulkHost, kind: RowKind<never>, source: RowSource, ctx: RowContext, safety: SafetySession): Promise<void> {
  const columns = columnsOf(host.definitions)
  const { rows } = readRows(source)
  for await (const row of rows) {
    const { request } = kind.build(await rowValues(row, columns, source.name), ctx)
    process.stderr.write(`Dry run: every row is valid; the request of line ${row.line} follows. No row is sent.\n`)
    await kind.send(safety, await host.client(), request, ctx)
    return
  }
}
