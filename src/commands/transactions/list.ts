import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { fanOutFlags, monthFlags } from '../../cli/flags/range.js'
import { dateFlag, idsFlag, paginationFlags } from '../../cli/flags/index.js'
import { merchantFilterFlag, withoutContextFlags } from '../../cli/flags/filters.js'
import { amountFilterFlags } from '../../cli/flags/transactions.js'
import { TRANSACTION_STATUSES, transactionQuery } from '../../cli/requests/transactions.js'
import { transactionView } from '../../output/views/transactions.js'

export default class TransactionsList extends ApiCommand<typeof TransactionsList> {
  static override summary = 'List transactions, one page or all of them.'
  static override description =
    'Shows one page (20 by default) with a footer on stderr saying how to see more; --all streams every page with flat memory. Filters repeat where they take several values. --merchant is a filter (the merchantId query parameter), not the Merchant-Id context header, which comes from the profile or PAYFAC_MERCHANT_ID.'

  static override examples = [
    '<%= config.bin %> transactions list --status paid --status partially_refunded',
    '<%= config.bin %> transactions list --order-id ordr_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> transactions list --amount 12.50 --currency AUD --created-after 2026-11-01',
    '<%= config.bin %> transactions list --merchant mcht_LocalSubMerch001 --all --csv > transactions.csv',
  ]

  static override flags = {
    ...paginationFlags({ sortFields: ['createdAt', 'updatedAt', 'amount', 'status', 'paidOn'] }),
    ...fanOutFlags(),
    'order-id': idsFlag('ordr', 'Only transactions of these orders (repeatable).'),
    status: Flags.string({ description: 'Only transactions in this status (repeatable).', multiple: true, options: [...TRANSACTION_STATUSES] }),
    customer: idsFlag('cust', 'Only transactions of these customers (repeatable).'),
    merchant: merchantFilterFlag('Only transactions of these merchants (repeatable). A filter, not the Merchant-Id context header.'),
    'created-after': dateFlag('Only transactions created at or after'),
    'created-before': dateFlag('Only transactions created before'),
    ...monthFlags(),
    ...amountFilterFlags('transactions'),
  }

  // Without --merchant-id: it is still, for a release, the old name of --merchant here.
  static override baseFlags = withoutContextFlags('merchant-id')

  async run() {
    const query = transactionQuery(this.flags, this.flags.merchant)
    const client = await this.client()
    return this.showList(transactionView, client.transactions, query)
  }
}
