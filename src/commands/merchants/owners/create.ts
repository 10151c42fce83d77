import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { ownerFieldFlags } from '../../../cli/flags/merchants.js'
import { readDataObject } from '../../../cli/files/input.js'
import { ownerBody } from '../../../cli/requests/merchants.js'
import { ownerDetailView } from '../../../output/views/merchants.js'

export default class MerchantsOwnersCreate extends ApiCommand<typeof MerchantsOwnersCreate> {
  static override summary = 'Add a beneficial owner to a merchant.'
  static override description =
    'Sends POST /merchants/{merchantId}/owners. The contract does not show the body: the flags send the fields the emulator defines (names in brackets), --data sends others, and flags override --data.'

  static override examples = [
    '<%= config.bin %> merchants owners create mcht_ZqCNoNcm_22WeZ-j --given-name Ada --family-name Lovelace --role Director --ownership 60',
    '<%= config.bin %> merchants owners create mcht_ZqCNoNcm_22WeZ-j --given-name Sam --family-name Lee --date-of-birth 1985-02-14 --address "1 Market St|Sydney|NSW|2000|AU" --json',
    '<%= config.bin %> merchants owners create mcht_ZqCNoNcm_22WeZ-j --data @owner.json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
  }

  static override flags = ownerFieldFlags()

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { body, warnings } = ownerBody(this.flags, data)
    for (const line of warnings) process.stderr.write(`${line}\n`)
    const client = await this.client()
    return this.show(ownerDetailView, await client.merchants.owners.create(this.args.merchantId, body))
  }
}
