import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { fanOutFlags, monthFlags } from '../../cli/flags/range.js'
import { dateFlag, idsFlag, paginationFlags } from '../../cli/flags/index.js'
import { merchantFilterFlag, withoutContextFlags } from '../../cli/flags/filters.js'
import { amountFilterFlags } from '../../cli/flags/transactions.js'
import { refundQuery } from '../../cli/requests/money.js'
import { refundView } from '../../output/views/money.js'

export default class RefundsList extends ApiCommand<typeof RefundsList> {
  static override summary = 'List refunds across transactions, one page or all of them.'
  static override description =
    'Filters of the field notes; the service defaults to the last 30 days when --created-after and --created-before are not given. --merchant is a filter (the merchantId query parameter), not the Merchant-Id context header, which comes from the profile or PAYFAC_MERCHANT_ID.'

  static override examples = [
    '<%= config.bin %> refunds list',
    '<%= config.bin %> refunds list --transaction-id tran_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> refunds list --created-after 2026-10-01 --amount 5.00 --currency AUD --all --csv > refunds.csv',
  ]

  static override flags = {
    ...paginationFlags(),
    ...fanOutFlags(),
    'created-after': dateFlag('Only refunds created at or after'),
    'created-before': dateFlag('Only refunds created before'),
    ...monthFlags(),
    ...amountFilterFlags('refunds'),
    reference: Flags.string({ description: 'Only refunds of orders with this referenceOrderId.' }),
    'order-id': idsFlag('ordr', 'Only refunds of these orders (repeatable).'),
    customer: idsFlag('cust', 'Only refunds of these customers (repeatable).'),
    'transaction-id': idsFlag('tran', 'Only refunds of these transactions (repeatable).'),
    merchant: merchantFilterFlag('Only refunds of these merchants (repeatable). A filter, not the Merchant-Id context header.'),
  }

  // Without --merchant-id: it is still, for a release, the old name of --merchant here.
  static override baseFlags = withoutContextFlags('merchant-id')

  async run() {
    const query = refundQuery(this.flags, this.flags.merchant)
    const client = await this.client()
    return this.showList(refundView, client.transactions.refunds, query)
  }
}
