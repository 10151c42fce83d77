import { ApiCommand } from '../../cli/base-command.js'
import { dataFlag, idArg } from '../../cli/flags/index.js'
import { merchantFieldFlags } from '../../cli/flags/merchants.js'
import { readDataObject } from '../../cli/files/input.js'
import { businessProfileEnvelope } from '../../cli/requests/merchants.js'
import { merchantDetailView } from '../../output/views/merchants.js'

export default class MerchantsUpdateProfile extends ApiCommand<typeof MerchantsUpdateProfile> {
  static override summary = "Update a merchant's business profile (UpdateMerchantBusinessProfile)."
  static override description =
    "Sends PATCH /merchants/{merchantId} with UpdateMerchantBusinessProfile. The contract does not show its fields: --data is sent as given, and the field flags (the emulator's names in brackets) override it."

  static override examples = [
    `<%= config.bin %> merchants update-profile mcht_ZqCNoNcm_22WeZ-j --data '{"tradingHours":"9-5"}'`,
    '<%= config.bin %> merchants update-profile mcht_ZqCNoNcm_22WeZ-j --website https://shop.example.com --wallet-domain shop.example.com',
    '<%= config.bin %> merchants update-profile mcht_ZqCNoNcm_22WeZ-j --data @profile.json --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
  }

  static override flags = {
    ...merchantFieldFlags(),
    data: dataFlag('Business profile fields as JSON: text, @file, or - for stdin.'),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { envelope, warnings } = businessProfileEnvelope(this.flags, data)
    for (const line of warnings) process.stderr.write(`${line}\n`)
    const client = await this.client()
    return this.show(merchantDetailView, await client.merchants.update(this.args.merchantId, envelope))
  }
}
