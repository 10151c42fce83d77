import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { bankAccountFlags, merchantFieldFlags } from '../../cli/flags/merchants.js'
import { readDataObject } from '../../cli/files/input.js'
import { createMerchantBody } from '../../cli/requests/merchants.js'
import { createdMerchantView } from '../../output/views/merchants.js'

export default class MerchantsCreate extends ApiCommand<typeof MerchantsCreate> {
  static override summary = 'Create a sub-merchant inside the marketplace (marketplace API key).'
  static override description =
    "Sends POST /merchants with the marketplace API key (a merchant key is refused, exit 4). The contract does not show the body: the flags send the fields the emulator defines (names in brackets in the flag help), --data sends others, and flags override --data. An answer that carries the new merchant's secret key shows it only this once."

  static override examples = [
    '<%= config.bin %> merchants create --name "Harbour Cafe Pty Ltd" --industry 5812 --email accounts@harbour.example',
    '<%= config.bin %> merchants create --name "Acme Supplies" --industry "Industrial supplies" --supports-b2b --bsb 062-000 --account-number 12345678 --account-name "Acme Supplies" --json',
    '<%= config.bin %> merchants create --data @merchant.json',
  ]

  static override flags = {
    ...merchantFieldFlags(),
    currency: Flags.string({ description: 'Settlement currency, such as AUD (currency).' }),
    'manual-payouts': Flags.boolean({ description: 'Enable manual payouts (manualPayoutsEnabled).', allowNo: true }),
    ...bankAccountFlags(),
    data: Flags.string({ description: 'Merchant fields as JSON: text, @file, or - for stdin; flags override them.' }),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { body, warnings } = createMerchantBody(this.flags, data)
    for (const line of warnings) process.stderr.write(`${line}\n`)
    const client = await this.client()
    const merchant = await client.merchants.create(body)
    if (merchant.secretKey !== undefined) process.stderr.write("The merchant's secret key is shown only this once: store it now.\n")
    return this.show(createdMerchantView, merchant)
  }
}
