import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { againFlag } from '../../cli/flags/safety.js'
import { checkPrefix, dataFlag, idFlag, moneyFlags } from '../../cli/flags/index.js'
import { warnPreviousGeneration } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { tokenEnvelope } from '../../cli/requests/tokens.js'
import { tokenOperation } from '../../cli/safety/creation-ops.js'
import { tokenResultView } from '../../output/views/tokens.js'

export default class TokensCreate extends ApiCommand<typeof TokensCreate> {
  static override summary = 'Make a single-use payment token: from a PayTo agreement, a saved source, or any variant with --data.'
  static override description =
    'Exactly one way: --payto --agreement (CreatePayToToken; the agreement must be Active, and a one-off agreement only pays its own amount), --saved-source (CreateSavedPaymentSourceToken), or --data with a whole envelope of any variant (CardPaymentSourceId, CreateApplePayToken …). The token pays one order of the same amount and currency. A signed-in customer makes tokens only for themselves; other callers choose the customer with --customer-id or a customer-specific source.'

  static override examples = [
    '<%= config.bin %> tokens create --payto --agreement ptagr_Pq3x8sK1mZ0aB2cD --amount 12.50 --currency AUD',
    '<%= config.bin %> tokens create --saved-source psrc_ZqCNoNcm_22WeZ-j --amount 40 --currency AUD --json',
    `<%= config.bin %> tokens create --data '{"CardPaymentSourceId":{"paymentSourceId":"psrc_ZqCNoNcm_22WeZ-j","amount":{"minorCurrencyUnits":1250,"currency":"AUD"}}}'`,
  ]

  static override flags = {
    payto: Flags.boolean({ description: 'Make a PayTo token (CreatePayToToken) from --agreement.' }),
    agreement: Flags.string({
      description: 'Token of an Active PayTo agreement (with --payto).',
      parse: async (input) => checkPrefix(input, 'ptagr', '--agreement'),
    }),
    'saved-source': idFlag('psrc', 'Make the token from this saved payment source (psrc_…).'),
    ...moneyFlags(),
    data: dataFlag('A whole token envelope as JSON, {"<Variant>": {...}}: text, @file, or - for stdin.', [
      'payto',
      'agreement',
      'saved-source',
      'amount',
      'currency',
    ]),
    again: againFlag,
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { envelope, shown } = tokenEnvelope(data, this.flags)
    if (!shown) warnPreviousGeneration(envelope)
    const token = await tokenOperation(await this.safety(), await this.client(), envelope)
    return this.show(tokenResultView, token)
  }
}
