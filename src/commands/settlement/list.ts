import { ApiCommand } from '../../cli/base-command.js'
import { fanOutFlags } from '../../cli/flags-range.js'
import { paginationFlags } from '../../cli/flags.js'
import { settlementFlags } from '../../cli/flags-transactions.js'
import { settlementQuery } from '../../cli/requests/money.js'
import { settlementEntryView } from '../../output/views/money.js'

export default class SettlementList extends ApiCommand<typeof SettlementList> {
  static override summary = 'List settlement entries of a payout, or of a currency and date range.'
  static override description =
    'Give --payout, or all of --currency, --from and --to (otherwise nothing is sent, exit 2). One page by default; --all streams every page. For the whole list at once, with a summary or as CSV, use `payfac settlement report`.'

  static override examples = [
    '<%= config.bin %> settlement list --currency AUD --from 2026-11-01 --to 2026-12-01',
    '<%= config.bin %> settlement list --payout payout_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> settlement list --currency AUD --from 2026-11-01 --to 2026-12-01 --all --csv > entries.csv',
  ]

  static override flags = {
    ...paginationFlags(),
    ...fanOutFlags(),
    ...settlementFlags(),
  }

  async run() {
    const query = settlementQuery(this.flags)
    const client = await this.client()
    return this.showList(settlementEntryView, client.transactions.settlement, query)
  }
}
