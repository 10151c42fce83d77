import { ApiCommand } from '../../cli/base-command.js'
import { idleTimeoutMs } from '../../cli/files/download.js'
import { reconcileFlags } from '../../cli/flags/reconcile.js'
import { asksForRange, withOnlyCurrency } from '../../cli/requests/merchant-defaults.js'
import { fanOutFlags, rangeFlags } from '../../cli/flags/range.js'
import { settlementFlags } from '../../cli/flags/transactions.js'
import { ReconcileSession, reconcileScope } from '../../cli/reconcile/command.js'
import { type Delivery, deliverRecords } from '../../cli/reconcile/deliver.js'
import { reconcileRecordView } from '../../cli/reconcile/records.js'

const { split: _split, ...range } = rangeFlags('Transactions, refunds, payouts and entries')

export default class SettlementReconcile extends ApiCommand<typeof SettlementReconcile> {
  static override summary = 'Prove the month: every payment, refund and fee settled exactly once, and every payout adding up.'
  static override description =
    "Joins the settlement entries of a payout, or of a currency and range, with the transactions, refunds and payouts they refer to. Checks that each paid transaction has one Payment entry of its amount and one ServiceFee entry of its fees, each refund one Refund entry, each payout's entries (with what it brought and carried forward) add up to it, and no entry is left unexplained. --ledger compares your own ledger too. A table shows the differences (kind, reference, expected, found); --csv, --json and --jsonl give every record for a spreadsheet or a script: each difference and matched entry, then the totals per currency and kind (what other holds too), the opening, movements and closing balances (opening + movements = closing checked) and one summary record, money in minor units with its currency and decimal. --xlsx FILE saves the same records as a workbook (Summary, Matched, Differences). One summary line goes to stderr. Exit 0: everything matched; 6: any difference; 2: bad flags, nothing sent."

  static override examples = [
    '<%= config.bin %> settlement reconcile --currency AUD --last 30d',
    '<%= config.bin %> settlement reconcile --currency AUD --from 2026-11-01 --to 2026-12-01 --csv > differences.csv',
    '<%= config.bin %> settlement reconcile --payout payout_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> settlement reconcile --currency AUD --last 1m --ledger books.csv --ledger-columns reference=Ref,amount=Total,currency=Ccy,date=Day',
    '<%= config.bin %> settlement reconcile --currency AUD --last 30d --each-merchant --concurrency 2',
    '<%= config.bin %> settlement reconcile --last-month --csv --xlsx month.xlsx > month.csv',
  ]

  static override flags = {
    payout: settlementFlags().payout,
    currency: settlementFlags().currency,
    ...range,
    ...reconcileFlags(),
    ...fanOutFlags(),
  }

  async run() {
    const client = await this.client()
    const settings = await this.settings()
    const f = await withOnlyCurrency(this.flags, asksForRange(this.flags), client, settings)
    const scope = await reconcileScope(f, new Date())
    const table = !(f.json || f.csv || f.jsonl || f.query !== undefined || f.ids)
    const session = new ReconcileSession(client, scope, settings, idleTimeoutMs(f), table || !process.stdout.isTTY)
    const to: Delivery = {
      table,
      isTTY: Boolean(process.stdout.isTTY),
      keepColumns: Boolean(f.columns || f.wide),
      xlsx: f.xlsx,
      session,
      showAll: (v, r, e) => this.showAll(v, r, 'table', e),
    }
    const count =
      (await this.fanOut(
        reconcileRecordView,
        (_id, call) => session.run(call),
        (_v, rows) => deliverRecords(rows, to),
      )) ?? (await deliverRecords(session.run(), to))
    session.verdict(table)
    return count
  }
}
