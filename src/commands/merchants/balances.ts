import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { UsageError } from '../../cli/errors/index.js'
import { checkPrefix } from '../../cli/flags/index.js'
import { fanOutFlags } from '../../cli/flags/range.js'
import { balancesWithDecimals, merchantInContext } from '../../cli/requests/merchant-defaults.js'
import { balancesView } from '../../output/views/merchants.js'

export default class MerchantsBalances extends ApiCommand<typeof MerchantsBalances> {
  static override summary = "Show a merchant's balances per currency: available and pending."
  static override description =
    'Sends GET /merchants/{merchantId}/balances. Without the merchant argument, the merchant in context: the profile\'s or --merchant-id (PAYFAC_MERCHANT_ID), or the one merchant a merchant credential sees. Tables show each amount as money (12.50 AUD); --json prints the answer as the service sent it, each amount with its decimal beside the minor units ({"minorCurrencyUnits": 1250, "currency": "AUD", "decimal": "12.50"}). With a marketplace credential, --each-merchant (or --merchants) shows one row per merchant of the marketplace instead of the merchant argument.'

  static override examples = [
    '<%= config.bin %> merchants balances',
    '<%= config.bin %> merchants balances mcht_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> merchants balances --each-merchant --csv',
    '<%= config.bin %> merchants balances --merchants mcht_LocalMerchant001,mcht_LocalSubMerch001 --concurrency 2',
  ]

  static override args = {
    merchantId: Args.string({
      description: 'Merchant id (mcht_…); default: the merchant in context. Not with --each-merchant or --merchants.',
      parse: async (input) => checkPrefix(input, 'mcht', 'Merchant id'),
    }),
  }

  static override flags = { ...fanOutFlags() }

  async run() {
    if (this.args.merchantId && (this.flags['each-merchant'] || this.flags.merchants))
      throw new UsageError('Give the merchant id, or --each-merchant/--merchants, not both')
    const client = await this.client()
    const fanned = await this.fanOut(balancesView, async (merchantId, call) => balancesWithDecimals(await client.merchants.balances(merchantId, call)))
    if (fanned !== undefined) return fanned
    const merchantId = this.args.merchantId ?? (await merchantInContext(client, await this.settings()))
    return this.show(balancesView, balancesWithDecimals(await client.merchants.balances(merchantId)))
  }
}
