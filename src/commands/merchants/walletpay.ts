import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { genericView } from '../../output/views/generic.js'
import { walletPayView } from '../../output/views/merchants.js'

export default class MerchantsWalletpay extends ApiCommand<typeof MerchantsWalletpay> {
  static override summary = "List the domains registered for a merchant's mobile-wallet payments."
  static override description = 'Sends GET /merchants/{merchantId}/walletpay. Register domains with `merchants update-profile --wallet-domain`.'
  static override examples = [
    '<%= config.bin %> merchants walletpay mcht_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> merchants walletpay mcht_ZqCNoNcm_22WeZ-j --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
  }

  async run() {
    const client = await this.client()
    const answer = await client.merchants.walletpay(this.args.merchantId)
    // The answer's shape is not shown: a list of domains, or a record holding them.
    if (Array.isArray(answer)) return this.showAll(genericView('domain'), answer)
    return this.show(walletPayView, answer as Record<string, unknown>)
  }
}
