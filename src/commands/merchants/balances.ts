import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags.js'
import { balancesView } from '../../output/views/merchants.js'

export default class MerchantsBalances extends ApiCommand<typeof MerchantsBalances> {
  static override summary = "Show a merchant's balances per currency: available and pending."
  static override description =
    'Sends GET /merchants/{merchantId}/balances. Tables show each amount as money (12.50 AUD); --json prints the answer as the service sent it (minor units).'

  static override examples = [
    '<%= config.bin %> merchants balances mcht_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> merchants balances mcht_ZqCNoNcm_22WeZ-j --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
  }

  async run() {
    const client = await this.client()
    return this.show(balancesView, await client.merchants.balances(this.args.merchantId))
  }
}
