import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { ownerView } from '../../../output/views/merchants.js'

export default class MerchantsOwnersList extends ApiCommand<typeof MerchantsOwnersList> {
  static override summary = 'List all beneficial owners of a merchant.'
  static override description = 'Sends GET /merchants/{merchantId}/owners (not paginated: every owner at once).'
  static override examples = [
    '<%= config.bin %> merchants owners list mcht_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> merchants owners list mcht_ZqCNoNcm_22WeZ-j --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
  }

  async run() {
    const client = await this.client()
    return this.showAll(ownerView, await client.merchants.owners.list(this.args.merchantId))
  }
}
