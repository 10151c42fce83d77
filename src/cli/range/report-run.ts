// What `payfac settlement report` does once its output is decided (report-output.ts): one report
// to stdout or a file, every merchant's entries as rows, or one report file per merchant.
import type { Readable } from 'node:stream'

import type { CallOptions, PayfacClient, SettlementQuery } from '../../client/index.js'
import type { View } from '../../output/index.js'
import { defineView } from '../../output/view.js'
import { genericView } from '../../output/views/generic.js'
import { settlementEntryView, settlementSummaryView } from '../../output/views/money.js'
import { deliver } from '../files/download.js'
import { saveStream } from '../files/out-file.js'
import { plainFileTarget } from '../files/out-target.js'
import { reportParts } from './report-parts.js'
import type { DateRange } from './range.js'
import type { ReportOutput, ReportOutputFlags } from './report-output.js'
import { checkedJsonReport, reportDocument, reportEntries, reportStream } from './settlement.js'

type Loose = Record<string, unknown>

/** One report as the flags ask for it. */
export interface ReportRun {
  client: PayfacClient
  query: SettlementQuery
  parts: DateRange[]
  format: 'csv' | 'json'
  timeoutMs: number
}

/** A report saved for one merchant. */
export interface SavedReport {
  merchantId: string
  path: string
  bytes: number
}

export const savedView = defineView<SavedReport>({
  name: 'saved report',
  columns: [
    { key: 'merchantId', header: 'Merchant' },
    { key: 'path', header: 'File', whole: true },
    { key: 'bytes', header: 'Bytes' },
  ],
})

/** One merchant's entries, from its JSON report (checked as every report is), one by one. */
export async function* merchantEntries(run: ReportRun, call: CallOptions): AsyncGenerator<Loose> {
  yield* (await reportDocument(checkedJsonReport(await run.client.transactions.settlement.report(run.query, 'json-stream', call), run.timeoutMs))).entries
}

/**
 * Each merchant's report saved under its own name: the very report `--merchant-id <id> --out FILE`
 * saves, but only as a regular file of that name (a link there is not followed, a FIFO or folder
 * is that merchant's failure): the user named the folder, not each file in it.
 */
export function saveMerchantReport(run: ReportRun, pathOf: (merchantId: string) => string) {
  return async (merchantId: string, call: CallOptions): Promise<SavedReport> => {
    const path = pathOf(merchantId)
    // Refused before the merchant's report is asked for; checked again when it is written.
    plainFileTarget(path)
    const stream = await reportStream(run.client, run.query, run.parts, run.format, run.timeoutMs, call)
    return { merchantId, path, bytes: await saveStream(stream, path, { plainFile: true }) }
  }
}

/** "Saved N bytes to FILE" on stderr for each merchant's file, in merchant order; stdout stays empty. */
export async function announceSaved(_view: View<SavedReport>, saved: AsyncIterable<SavedReport>): Promise<number> {
  let count = 0
  for await (const file of saved) {
    process.stderr.write(`Saved ${file.bytes} bytes to ${file.path}\n`)
    count += 1
  }
  return count
}

interface Shows {
  show<R>(view: View<R>, record: R): Promise<R>
  showAll<R>(view: View<R>, records: Iterable<R> | AsyncIterable<R>): Promise<number>
}

/**
 * One report: saved to a file, or on stdout as the service sends it (--csv, --json), its entries
 * one a line (--jsonl) or their ids (--ids), the whole document through --query, or a table of the
 * entries followed by the summary.
 */
export async function deliverReport(
  run: ReportRun,
  output: ReportOutput,
  f: Pick<ReportOutputFlags, 'csv' | 'json' | 'jsonl' | 'query' | 'ids' | 'columns'>,
  host: Shows,
): Promise<unknown> {
  const stream: Readable = await reportStream(run.client, run.query, run.parts, run.format, run.timeoutMs)
  if (output.kind === 'file') return deliver(stream, output.path, { binary: false, what: 'The settlement report' })
  if (f.query !== undefined) {
    const { entries, rest } = await reportDocument(stream)
    return host.show(genericView('settlement report'), { entries, ...(rest as Loose | undefined) })
  }
  if (f.csv || f.json) return deliver(stream, undefined, { binary: false, what: 'The settlement report' })
  if (f.jsonl || f.ids) return host.showAll(settlementEntryView, reportEntries(stream))
  const document = await reportDocument(stream)
  const { summary } = reportParts(document.rest)
  await host.showAll(settlementEntryView, document.entries)
  // --columns names columns of the entries; the summary is then left out.
  if (summary && !f.columns) {
    process.stdout.write('\n')
    await host.show(settlementSummaryView, summary)
  }
  return document
}
