import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { checkPrefix, dataFlag } from '../../cli/flags/index.js'
import { requireCustomerContext, warnPreviousGeneration } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { sourceEnvelope } from '../../cli/requests/sources.js'
import { paymentSourceView } from '../../output/views/sources.js'

export default class SourcesCreate extends ApiCommand<typeof SourcesCreate> {
  static override summary = 'Save a payment source for a customer: a PayTo open agreement, or a card with --data.'
  static override description =
    'Sends CreateSavedPaymentSource with sourceMethod {PayToMethod: {agreementToken}} for an Active open agreement. The source belongs to the customer of --customer-id (the Customer-Id header) or of a customer JWT; without one nothing is sent. --data sends a whole body instead: a CreateCardPaymentSource envelope for raw card details (PCI-certified integrators only; its fields are not shown by the contract).'

  static override examples = [
    '<%= config.bin %> sources create --customer-id cust_ZqCNoNcm_22WeZ-j --agreement ptagr_Pq3x8sK1mZ0aB2cD',
    '<%= config.bin %> sources create --customer-id cust_ZqCNoNcm_22WeZ-j --agreement ptagr_Pq3x8sK1mZ0aB2cD --usage-scope ScopeOrganisation',
    `<%= config.bin %> sources create --customer-id cust_ZqCNoNcm_22WeZ-j --data '{"CreateCardPaymentSource":{"cardNumber":"4242424242424242","expiryMonth":12,"expiryYear":2030,"cvc":"123"}}'`,
  ]

  static override flags = {
    agreement: Flags.string({
      description: 'Token of an Active PayTo open agreement (from sending the agreement).',
      parse: async (input) => checkPrefix(input, 'ptagr', '--agreement'),
    }),
    'usage-scope': Flags.string({ description: 'Who may use the source (usageScope).', options: ['ScopeOrganisation'] }),
    data: dataFlag('The whole body as JSON (a CreateSavedPaymentSource body, or any envelope of POST /sources): text, @file, or - for stdin.', [
      'agreement',
      'usage-scope',
    ]),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { envelope, shown } = sourceEnvelope(data, this.flags)
    if (!shown) warnPreviousGeneration(envelope)
    requireCustomerContext(await this.settings(), 'Saving a payment source')
    const client = await this.client()
    return this.show(paymentSourceView, await client.sources.create(envelope))
  }
}
