import { ApiCommand } from '../../cli/base-command.js'
import { asksForRange, withOnlyCurrency } from '../../cli/requests/merchant-defaults.js'
import { fanOutFlags } from '../../cli/flags/range.js'
import { paginationFlags } from '../../cli/flags/index.js'
import { settlementFlags } from '../../cli/flags/transactions.js'
import { entriesInParts } from '../../cli/range/settlement.js'
import { announceParts } from '../../cli/range/parts.js'
import { settlementSelection } from '../../cli/requests/money.js'
import { settlementEntryView } from '../../output/views/money.js'

export default class SettlementList extends ApiCommand<typeof SettlementList> {
  static override summary = 'List settlement entries of a payout, or of a currency and date range.'
  static override description =
    'Give --payout, or --currency with --from and --to (dates or timestamps) or with --last (24h, 7d, 1m); otherwise nothing is sent (exit 2), as for an impossible date or a reversed range. One page by default; --all streams every page. --split 7d asks for the range in parts, walked in order with no entry twice. For the whole list at once, with a summary or as CSV, use `payfac settlement report`.'

  static override examples = [
    '<%= config.bin %> settlement list --currency AUD --from 2026-11-01 --to 2026-12-01',
    '<%= config.bin %> settlement list --currency AUD --last 7d --all --json',
    '<%= config.bin %> settlement list --payout payout_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> settlement list --currency AUD --from 2026-01-01 --to 2027-01-01 --split 31d --csv > entries.csv',
    '<%= config.bin %> settlement list --currency AUD --last 30d --each-merchant --csv',
  ]

  static override flags = {
    ...paginationFlags(),
    ...fanOutFlags(),
    ...settlementFlags(),
  }

  async run() {
    const client = await this.client()
    const f = await withOnlyCurrency(this.flags, asksForRange(this.flags), client, await this.settings())
    const { query, parts } = settlementSelection(f, new Date())
    announceParts(parts, f.split)
    if (parts.length > 1) {
      const each = await this.fanOut(settlementEntryView, (_merchantId, call) => entriesInParts(client, query, parts, this.flags, call))
      return each ?? this.showAll(settlementEntryView, entriesInParts(client, query, parts, this.flags))
    }
    return this.showList(settlementEntryView, client.transactions.settlement, query)
  }
}
