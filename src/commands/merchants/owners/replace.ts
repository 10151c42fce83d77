import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { ownerFieldFlags, ownerIdArg } from '../../../cli/flags/merchants.js'
import { readDataObject } from '../../../cli/files/input.js'
import { ownerBody } from '../../../cli/requests/merchants.js'
import { ownerDetailView } from '../../../output/views/merchants.js'

export default class MerchantsOwnersReplace extends ApiCommand<typeof MerchantsOwnersReplace> {
  static override summary = 'Overwrite a beneficial owner with a whole new record (PUT).'
  static override description =
    'Sends PUT /merchants/{merchantId}/owners/{ownerId}: every field not given is cleared, so give the whole owner (flags, --data, or both; flags override --data).'

  static override examples = [
    '<%= config.bin %> merchants owners replace mcht_ZqCNoNcm_22WeZ-j owner_Pq3x8sK1mZ0aB2cD --given-name Ada --family-name Lovelace --role Director --ownership 75',
    '<%= config.bin %> merchants owners replace mcht_ZqCNoNcm_22WeZ-j owner_Pq3x8sK1mZ0aB2cD --data @owner.json --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
    ownerId: ownerIdArg(),
  }

  static override flags = ownerFieldFlags()

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { body, warnings } = ownerBody(this.flags, data)
    for (const line of warnings) process.stderr.write(`${line}\n`)
    const client = await this.client()
    return this.show(ownerDetailView, await client.merchants.owners.replace(this.args.merchantId, this.args.ownerId, body))
  }
}
