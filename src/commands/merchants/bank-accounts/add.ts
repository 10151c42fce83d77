import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { addBankAccountEnvelope } from '../../../cli/requests/merchants.js'
import { merchantDetailView } from '../../../output/views/merchants.js'

export default class MerchantsBankAccountsAdd extends ApiCommand<typeof MerchantsBankAccountsAdd> {
  static override summary = 'Add a payout bank account to a merchant (AddMerchantBankAccount).'
  static override description =
    'Sends PATCH /merchants/{merchantId} with AddMerchantBankAccount {bsb, accountNumber, accountName, isPrimary?}. The BSB (six digits) and the account number (5 to 9 digits) are checked before sending. Prints the merchant with its bank accounts.'

  static override examples = [
    '<%= config.bin %> merchants bank-accounts add mcht_ZqCNoNcm_22WeZ-j --bsb 062-000 --account-number 12345678 --account-name "Harbour Cafe Pty Ltd"',
    '<%= config.bin %> merchants bank-accounts add mcht_ZqCNoNcm_22WeZ-j --bsb 083004 --account-number 87654321 --account-name "Harbour Cafe" --primary --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
  }

  static override flags = {
    bsb: Flags.string({ description: 'BSB, six digits (062-000).', required: true }),
    'account-number': Flags.string({ description: 'Account number, 5 to 9 digits.', required: true }),
    'account-name': Flags.string({ description: 'Name on the account.', required: true }),
    primary: Flags.boolean({ description: 'Make it the primary account for payouts at once.' }),
  }

  async run() {
    const envelope = addBankAccountEnvelope(this.flags)
    const client = await this.client()
    return this.show(merchantDetailView, await client.merchants.update(this.args.merchantId, envelope))
  }
}
