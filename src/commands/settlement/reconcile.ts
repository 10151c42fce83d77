import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { asksForRange, withOnlyCurrency } from '../../cli/requests/merchant-defaults.js'
import { fanOutFlags, rangeFlags } from '../../cli/flags/range.js'
import { settlementFlags } from '../../cli/flags/transactions.js'
import type { Reconciler } from '../../cli/reconcile/engine.js'
import { allMatched, differenceView, reconcileRun, reconcileScope, reconcileVerdict } from '../../cli/reconcile/command.js'

const { split: _split, ...range } = rangeFlags('Transactions, refunds, payouts and entries')

export default class SettlementReconcile extends ApiCommand<typeof SettlementReconcile> {
  static override summary = 'Prove the month: every payment, refund and fee settled exactly once, and every payout adding up.'
  static override description =
    "Joins the settlement entries of a payout, or of a currency and range, with the transactions, refunds and payouts they refer to. Checks that each paid transaction has one Payment entry of its amount and one ServiceFee entry of its fees, each refund one Refund entry, each payout's entries (with what it brought and carried forward) add up to it, and no entry is left unexplained. --ledger compares your own ledger too. Prints the differences (kind, reference, expected, found) as a table, --csv or --json, and one summary line on stderr. Exit 0: everything matched; 6: any difference; 2: bad flags, nothing sent."

  static override examples = [
    '<%= config.bin %> settlement reconcile --currency AUD --last 30d',
    '<%= config.bin %> settlement reconcile --currency AUD --from 2026-11-01 --to 2026-12-01 --csv > differences.csv',
    '<%= config.bin %> settlement reconcile --payout payout_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> settlement reconcile --currency AUD --last 1m --ledger books.csv --ledger-columns reference=Ref,amount=Total,currency=Ccy,date=Day',
    '<%= config.bin %> settlement reconcile --currency AUD --last 30d --each-merchant --concurrency 2',
  ]

  static override flags = {
    payout: settlementFlags().payout,
    currency: settlementFlags().currency,
    ...range,
    ledger: Flags.string({ description: 'Your ledger as CSV with a header line; each line a payment (or a refund, negative) by reference.' }),
    'ledger-columns': Flags.string({
      description: 'Which ledger columns hold reference, amount and currency (and optionally date): reference=Ref,amount=Total,currency=Ccy,date=Day.',
    }),
    'ledger-amounts': Flags.string({
      description: 'Ledger amounts are decimals (12.50) or minor units (1250).',
      options: ['decimal', 'minor'],
      default: 'decimal',
    }),
    ...fanOutFlags(),
  }

  async run() {
    const client = await this.client()
    const f = await withOnlyCurrency(this.flags, asksForRange(this.flags), client, await this.settings())
    const scope = await reconcileScope(f, new Date())
    const engines: Reconciler[] = []
    const count =
      (await this.fanOut(differenceView, (_merchantId, call) => reconcileRun(client, scope, engines, call))) ??
      (await this.showAll(differenceView, reconcileRun(client, scope, engines), 'table', () => allMatched(engines)))
    reconcileVerdict(engines)
    return count
  }
}
