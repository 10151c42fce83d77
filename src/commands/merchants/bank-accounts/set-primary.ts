import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { checkNonEmpty } from '../../../cli/validate/index.js'
import { merchantDetailView } from '../../../output/views/merchants.js'

export default class MerchantsBankAccountsSetPrimary extends ApiCommand<typeof MerchantsBankAccountsSetPrimary> {
  static override summary = "Choose a merchant's primary payout bank account (SetMerchantPrimaryBankAccount)."
  static override description =
    'Sends PATCH /merchants/{merchantId} with SetMerchantPrimaryBankAccount {bankAccountId}. The ids of the accounts are shown by `merchants get`.'

  static override examples = [
    '<%= config.bin %> merchants bank-accounts set-primary mcht_ZqCNoNcm_22WeZ-j --bank-account bank_Pq3x8sK1mZ0aB2cD',
    '<%= config.bin %> merchants bank-accounts set-primary mcht_ZqCNoNcm_22WeZ-j --bank-account bank_Pq3x8sK1mZ0aB2cD --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
  }

  static override flags = {
    'bank-account': Flags.string({
      description: 'Id of the bank account to make primary (bankAccountId).',
      required: true,
      parse: async (input) => checkNonEmpty(input, '--bank-account').trim(),
    }),
  }

  async run() {
    const envelope = { SetMerchantPrimaryBankAccount: { bankAccountId: this.flags['bank-account'] } }
    const client = await this.client()
    return this.show(merchantDetailView, await client.merchants.update(this.args.merchantId, envelope))
  }
}
