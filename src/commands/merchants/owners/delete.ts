import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { ownerIdArg } from '../../../cli/flags/merchants.js'
import { rawView } from '../../../output/views/generic.js'

export default class MerchantsOwnersDelete extends ApiCommand<typeof MerchantsOwnersDelete> {
  static override summary = 'Delete a beneficial owner of a merchant.'
  static override examples = [
    '<%= config.bin %> merchants owners delete mcht_ZqCNoNcm_22WeZ-j owner_Pq3x8sK1mZ0aB2cD',
    '<%= config.bin %> merchants owners delete mcht_ZqCNoNcm_22WeZ-j owner_Pq3x8sK1mZ0aB2cD --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
    ownerId: ownerIdArg(),
  }

  async run() {
    const client = await this.client()
    const answer = await client.merchants.owners.delete(this.args.merchantId, this.args.ownerId)
    // The answer is not shown by the contract: print it when there is one.
    if (answer !== undefined && answer !== null && answer !== '') return this.show(rawView, answer)
    process.stderr.write(`Deleted ${this.args.ownerId}.\n`)
    return answer
  }
}
