import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { againFlag } from '../../cli/flags/safety.js'
import { agreementAccountFlags, approveFlag } from '../../cli/flags/payto.js'
import { checkPrefix, idFlag, waitFlags } from '../../cli/flags/index.js'
import { waitTimes } from '../../cli/flows/agreement.js'
import { runPayToSave } from '../../cli/flows/payto-save.js'
import { agreementBodyFromFlags } from '../../cli/requests/payto.js'
import { paymentSourceView } from '../../output/views/sources.js'

export default class PayToSave extends ApiCommand<typeof PayToSave> {
  static override summary = "Save a PayTo open agreement as a customer's payment source, from sending it to the saved psrc_ source."
  static override description =
    'Sends an open agreement (--name and one account identifier), or takes one already sent (--agreement), waits until the ' +
    'customer approves it (Active), then saves it for --customer (POST /sources CreateSavedPaymentSource, with the Customer-Id ' +
    'header). Steps on stderr, the payment source on stdout. Exit 6 when the agreement is declined, cancelled, suspended or ' +
    'expired; 8 when --timeout runs out and 130 on Ctrl-C, both printing the command that carries on with the same agreement.'

  static override examples = [
    '<%= config.bin %> payto save --name "Jo Citizen" --phone +61412345678 --purpose "Monthly subscription" --customer cust_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> payto save --agreement ptagr_Ab12Cd34Ef56Gh78 --customer cust_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> payto save --name "Harbour Trading Pty Ltd" --abn "51 824 753 556" --customer cust_ZqCNoNcm_22WeZ-j --usage-scope ScopeOrganisation --approve',
  ]

  static override flags = {
    ...agreementAccountFlags({ nameRequired: false, exclusiveWith: ['agreement'] }),
    purpose: Flags.string({ description: 'What the agreement is for, shown to the customer.', exclusive: ['agreement'] }),
    agreement: Flags.string({
      description: 'Token of an open agreement already sent, instead of sending one.',
      parse: async (input) => checkPrefix(input, 'ptagr', '--agreement'),
    }),
    customer: idFlag('cust', 'The customer the source is saved for (cust_…), sent as the Customer-Id header.', { required: true }),
    'usage-scope': Flags.string({ description: 'Who may use the source (usageScope).', options: ['ScopeOrganisation'] }),
    approve: approveFlag,
    ...waitFlags(),
    again: againFlag,
  }

  async run() {
    const f = this.flags
    const agreement = f.agreement ? undefined : agreementBodyFromFlags({ ...f, open: true })
    const request = {
      agreement,
      agreementToken: f.agreement?.trim(),
      customerId: f.customer as string,
      usageScope: f['usage-scope'],
      approve: f.approve,
      ...waitTimes(f),
    }
    const context = {
      client: await this.client(),
      environment: (await this.settings()).environment,
      bin: this.config.bin,
      flags: f,
      safety: await this.safety(),
    }
    return this.show(paymentSourceView, await runPayToSave(request, context))
  }
}
