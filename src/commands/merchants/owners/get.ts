import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { ownerIdArg } from '../../../cli/flags/merchants.js'
import { ownerDetailView } from '../../../output/views/merchants.js'

export default class MerchantsOwnersGet extends ApiCommand<typeof MerchantsOwnersGet> {
  static override summary = 'Show a beneficial owner of a merchant.'
  static override examples = [
    '<%= config.bin %> merchants owners get mcht_ZqCNoNcm_22WeZ-j owner_Pq3x8sK1mZ0aB2cD',
    '<%= config.bin %> merchants owners get mcht_ZqCNoNcm_22WeZ-j owner_Pq3x8sK1mZ0aB2cD --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
    ownerId: ownerIdArg(),
  }

  async run() {
    const client = await this.client()
    return this.show(ownerDetailView, await client.merchants.owners.get(this.args.merchantId, this.args.ownerId))
  }
}
