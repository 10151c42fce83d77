import { ApiCommand } from '../../cli/base-command.js'
import { outputFormatFlag } from '../../cli/flags/index.js'
import { asksForRange, withOnlyCurrency } from '../../cli/requests/merchant-defaults.js'
import { deliver, idleTimeoutMs } from '../../cli/files/download.js'
import { outFlag } from '../../cli/flags/out.js'
import { fanOutFlags } from '../../cli/flags/range.js'
import { settlementFlags } from '../../cli/flags/transactions.js'
import { checkedJsonReport, reportDocument, reportEntries, reportStream } from '../../cli/range/settlement.js'
import { announceParts } from '../../cli/range/parts.js'
import { reportParts, settlementSelection } from '../../cli/requests/money.js'
import { settlementEntryView, settlementSummaryView } from '../../output/views/money.js'

export default class SettlementReport extends ApiCommand<typeof SettlementReport> {
  static override summary = 'The settlement report: every entry of a payout, or of a currency and date range, with a summary.'
  static override description =
    'Give --payout, or --currency with --from and --to (dates or timestamps) or with --last (24h, 7d, 1m); otherwise nothing is sent (exit 2), as for an impossible date or a reversed range. The report is not paginated and streams whatever its size: --csv asks for text/csv, read and written again as it comes (its header checked for the columns of the report, formula cells defused as in the CSV payfac writes itself); --json for the JSON report (entries and summary), passed on as it comes. An answer that is not the report (HTML, JSON for CSV, binary, empty), that breaks off, or that brings less than 1 KiB within --timeout is exit 7; --out FILE saves the report atomically (nothing under FILE unless complete) and says "Saved N bytes to FILE" on stderr. --split 7d asks for the range in parts (at least 1m, at most 1,000 parts, their number said on stderr; a range the service refuses as too large is halved by itself): entries come in order, each once, and the JSON summary is added up over the parts. A table prints the entries, then the summary (left out when --columns picks entry columns). With --each-merchant, each merchant\'s entries are rows with a merchantId.'

  static override examples = [
    '<%= config.bin %> settlement report --currency AUD --from 2026-11-01 --to 2026-12-01',
    '<%= config.bin %> settlement report --payout payout_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> settlement report --currency AUD --last 1m --csv --out settlement.csv',
    '<%= config.bin %> settlement report --currency AUD --from 2026-01-01 --to 2027-01-01 --split 31d --json --out year.json',
  ]

  static override flags = {
    ...settlementFlags(),
    ...fanOutFlags(),
    out: outFlag('Save the report (CSV with --csv, otherwise JSON) to this file, atomically.'),
    output: outputFormatFlag(false),
  }

  async run() {
    const client = await this.client()
    const f = await withOnlyCurrency(this.flags, asksForRange(this.flags), client, await this.settings())
    const { query, parts } = settlementSelection(f, new Date())
    announceParts(parts, f.split)
    const timeoutMs = idleTimeoutMs(this.flags)
    const fanned = await this.fanOut(settlementEntryView, async function* (_id, call) {
      yield* (await reportDocument(checkedJsonReport(await client.transactions.settlement.report(query, 'json-stream', call), timeoutMs))).entries
    })
    if (fanned !== undefined) return fanned
    const stream = await reportStream(client, query, parts, this.flags.csv ? 'csv' : 'json', timeoutMs)
    if (this.flags.csv || this.flags.json || this.flags.out) return deliver(stream, this.flags.out, { binary: false, what: 'The settlement report' })
    if (this.flags.jsonl) return this.showAll(settlementEntryView, reportEntries(stream))
    return this.table(await reportDocument(stream))
  }

  private async table(document: { entries: Array<Record<string, unknown>>; rest: unknown }): Promise<unknown> {
    const { summary } = reportParts(document.rest)
    await this.showAll(settlementEntryView, document.entries)
    // --columns names columns of the entries; the summary is then left out.
    if (summary && !this.flags.columns) {
      process.stdout.write('\n')
      await this.show(settlementSummaryView, summary)
    }
    return document
  }
}
