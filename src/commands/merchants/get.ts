import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { checkPrefix } from '../../cli/flags/index.js'
import { merchantInContext } from '../../cli/requests/merchant-defaults.js'
import { merchantDetailView } from '../../output/views/merchants.js'

export default class MerchantsGet extends ApiCommand<typeof MerchantsGet> {
  static override summary = 'Show a merchant, with its bank accounts and public key.'
  static override description = 'Sends GET /merchants/{merchantId}. Tables mask bank account numbers to their last four digits; --json prints them whole.'
  static override examples = [
    '<%= config.bin %> merchants get',
    '<%= config.bin %> merchants get mcht_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> merchants get mcht_ZqCNoNcm_22WeZ-j --json',
  ]

  static override args = {
    merchantId: Args.string({
      description: 'Merchant id (mcht_…); default: the merchant in context (profile, --merchant-id, or the one a merchant credential sees).',
      parse: async (input) => checkPrefix(input, 'mcht', 'Merchant id'),
    }),
  }

  async run() {
    const client = await this.client()
    const merchantId = this.args.merchantId ?? (await merchantInContext(client, await this.settings()))
    return this.show(merchantDetailView, await client.merchants.get(merchantId))
  }
}
