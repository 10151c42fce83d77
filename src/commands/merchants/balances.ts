import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { UsageError } from '../../cli/errors/index.js'
import { checkPrefix } from '../../cli/flags/index.js'
import { fanOutFlags } from '../../cli/flags/range.js'
import { balancesView } from '../../output/views/merchants.js'

export default class MerchantsBalances extends ApiCommand<typeof MerchantsBalances> {
  static override summary = "Show a merchant's balances per currency: available and pending."
  static override description =
    'Sends GET /merchants/{merchantId}/balances. Tables show each amount as money (12.50 AUD); --json prints the answer as the service sent it (minor units). With a marketplace credential, --each-merchant (or --merchants) shows one row per merchant of the marketplace instead of the merchant argument.'

  static override examples = [
    '<%= config.bin %> merchants balances mcht_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> merchants balances mcht_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> merchants balances --each-merchant --csv',
    '<%= config.bin %> merchants balances --merchants mcht_LocalMerchant001,mcht_LocalSubMerch001 --concurrency 2',
  ]

  static override args = {
    merchantId: Args.string({ description: 'Merchant id (mcht_…); not with --each-merchant or --merchants.', parse: async (input) => checkPrefix(input, 'mcht', 'Merchant id') }),
  }

  static override flags = { ...fanOutFlags() }

  async run() {
    if (this.args.merchantId && (this.flags['each-merchant'] || this.flags.merchants)) throw new UsageError('Give the merchant id, or --each-merchant/--merchants, not both')
    const client = await this.client()
    const fanned = await this.fanOut(balancesView, (merchantId, call) => client.merchants.balances(merchantId, call))
    if (fanned !== undefined) return fanned
    if (!this.args.merchantId) throw new UsageError('Give the merchant id (mcht_…)', 'Or --each-merchant with a marketplace credential')
    return this.show(balancesView, await client.merchants.balances(this.args.merchantId))
  }
}
