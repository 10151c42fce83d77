import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { paymentTokenView } from '../../output/views/tokens.js'

export default class TokensGet extends ApiCommand<typeof TokensGet> {
  static override summary = 'Show a payment token: amount, method, pay type and whether it was used.'
  static override examples = ['<%= config.bin %> tokens get ptkn_Pq3x8sK1mZ0aB2cD', '<%= config.bin %> tokens get ptkn_Pq3x8sK1mZ0aB2cD --json']

  static override args = {
    paymentTokenId: idArg('ptkn', 'Payment token id (ptkn_…).'),
  }

  async run() {
    const client = await this.client()
    return this.show(paymentTokenView, await client.tokens.get(this.args.paymentTokenId))
  }
}
