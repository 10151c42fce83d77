import { ApiCommand } from '../../cli/base-command.js'
import { outputFormatFlag } from '../../cli/flags/index.js'
import { asksForRange, withOnlyCurrency } from '../../cli/requests/merchant-defaults.js'
import { idleTimeoutMs } from '../../cli/files/download.js'
import { reportOutFlag } from '../../cli/flags/out.js'
import { fanOutFlags } from '../../cli/flags/range.js'
import { settlementFlags } from '../../cli/flags/transactions.js'
import { reportOutput } from '../../cli/range/report-output.js'
import { type ReportRun, announceSaved, deliverReport, merchantEntries, saveMerchantReport, savedView } from '../../cli/range/report-run.js'
import { announceParts } from '../../cli/range/parts.js'
import { settlementSelection } from '../../cli/requests/money.js'
import { settlementEntryView } from '../../output/views/money.js'

export default class SettlementReport extends ApiCommand<typeof SettlementReport> {
  static override summary = 'The settlement report: every entry of a payout, or of a currency and date range, with a summary.'
  static override description =
    "Give --payout, or --currency with --from and --to (dates or timestamps) or with --last (24h, 7d, 1m); otherwise nothing is sent (exit 2), as for an impossible date or a reversed range. The report is not paginated and streams whatever its size: --csv asks for text/csv, read and written again as it comes (its header checked for the columns of the report, formula cells defused as in the CSV payfac writes itself); --json for the JSON report (entries and summary), passed on as it comes. An answer that is not the report (HTML, JSON for CSV, binary, empty), that breaks off, or that brings less than 1 KiB within --timeout is exit 7; --out FILE saves the report atomically (nothing under FILE unless complete) and says \"Saved N bytes to FILE\" on stderr. --split 7d asks for the range in parts (at least 1m, at most 1,000 parts, their number said on stderr; a range the service refuses as too large is halved by itself): entries come in order, each once, and the JSON summary is added up over the parts. A table prints the entries, then the summary (left out when --columns picks entry columns). With --each-merchant or --merchants: each merchant's entries are rows with a merchantId (on stdout, or with --out FILE in one file); --out 'settlement-{merchantId}.csv' or --out FOLDER saves one report per merchant instead, each the report --merchant-id would save. A combination that cannot be honoured (--query or --ids with --out, a per-merchant --out without the fan-out, --columns with the service's CSV) is exit 2 before anything is sent."

  static override examples = [
    '<%= config.bin %> settlement report --currency AUD --from 2026-11-01 --to 2026-12-01',
    '<%= config.bin %> settlement report --payout payout_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> settlement report --currency AUD --last-month --csv --out settlement.csv',
    "<%= config.bin %> settlement report --currency AUD --last-month --csv --each-merchant --out 'settlement-{merchantId}.csv'",
    '<%= config.bin %> settlement report --currency AUD --from 2026-01-01 --to 2027-01-01 --split 31d --json --out year.json',
  ]

  static override flags = {
    ...settlementFlags(),
    ...fanOutFlags(),
    out: reportOutFlag(
      "Save the report (CSV with --csv, otherwise JSON) to this file, atomically. With the fan-out: one file for every merchant's rows, or a name with {merchantId} (or a folder) for a report per merchant.",
    ),
    output: outputFormatFlag(false),
  }

  async run() {
    const output = reportOutput(this.flags)
    const client = await this.client()
    const f = await withOnlyCurrency(this.flags, asksForRange(this.flags), client, await this.settings())
    const { query, parts } = settlementSelection(f, new Date())
    announceParts(parts, f.split)
    const run: ReportRun = { client, query, parts, format: this.flags.csv ? 'csv' : 'json', timeoutMs: idleTimeoutMs(this.flags) }
    if (output.kind === 'each') return this.fanOut(savedView, saveMerchantReport(run, output.pathOf), announceSaved)
    const rows = (_id: string, call: Parameters<typeof merchantEntries>[1]) => merchantEntries(run, call)
    const fanned = await this.fanOut(settlementEntryView, rows, output.kind === 'combined' ? (v, r) => this.saveAll(v, r, output.path) : undefined)
    return fanned ?? deliverReport(run, output, this.flags, { show: (v, r) => this.show(v, r), showAll: (v, r) => this.showAll(v, r) })
  }
}
