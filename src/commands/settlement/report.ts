import { Readable } from 'node:stream'

import { ApiCommand } from '../../cli/base-command.js'
import { saveStream, streamToStdout } from '../../cli/download.js'
import { outFlag } from '../../cli/flags-out.js'
import { settlementFlags } from '../../cli/flags-transactions.js'
import { reportParts, settlementQuery } from '../../cli/requests/money.js'
import { rawView } from '../../output/views/generic.js'
import { settlementEntryView, settlementSummaryView } from '../../output/views/money.js'

export default class SettlementReport extends ApiCommand<typeof SettlementReport> {
  static override summary = 'The settlement report: every entry of a payout, or of a currency and date range, with a summary.'
  static override description =
    'Give --payout, or all of --currency, --from and --to (otherwise nothing is sent, exit 2). The report is not paginated. A table prints the entries, then the summary (left out when --columns picks entry columns); --json prints the report as the service sent it (entries and summary); --csv asks the service for text/csv and streams it as it comes. --out FILE saves the CSV (with --csv) or the JSON atomically and says "Saved N bytes to FILE" on stderr.'

  static override examples = [
    '<%= config.bin %> settlement report --currency AUD --from 2026-11-01 --to 2026-12-01',
    '<%= config.bin %> settlement report --payout payout_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> settlement report --currency AUD --from 2026-11-01 --to 2026-12-01 --csv --out settlement.csv',
  ]

  static override flags = {
    ...settlementFlags(),
    out: outFlag('Save the report (CSV with --csv, otherwise JSON) to this file, atomically.'),
  }

  async run() {
    const query = settlementQuery(this.flags)
    const client = await this.client()
    if (this.flags.csv) return this.deliver(await client.transactions.settlement.report(query, 'csv'))
    const report = await client.transactions.settlement.report(query)
    if (this.flags.out) return this.deliver(Readable.from([`${JSON.stringify(report, null, 2)}\n`]))
    if (this.flags.json) return this.show(rawView, report, 'json')
    return this.table(report)
  }

  /** The CSV (or JSON text) to --out, or the CSV to stdout. */
  private async deliver(stream: Readable): Promise<void> {
    const out = this.flags.out
    if (!out) return streamToStdout(stream, { binary: false, what: 'The settlement report' })
    const bytes = await saveStream(stream, out)
    process.stderr.write(`Saved ${bytes} bytes to ${out}\n`)
  }

  private async table(report: unknown): Promise<unknown> {
    const { entries, summary } = reportParts(report)
    await this.showAll(settlementEntryView, entries as Array<Record<string, unknown>>)
    // --columns names columns of the entries; the summary is then left out.
    if (summary && !this.flags.columns) {
      process.stdout.write('\n')
      await this.show(settlementSummaryView, summary)
    }
    return report
  }
}
