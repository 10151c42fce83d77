import { Flags } from '@oclif/core'

import { ApiCommand } from '../../cli/base-command.js'
import { idArg, idFlag } from '../../cli/flags.js'
import { payEnvelope } from '../../cli/requests/orders.js'
import { payResultView } from '../../output/views/transactions.js'

export default class OrdersPay extends ApiCommand<typeof OrdersPay> {
  static override summary = 'Pay an order with a payment token.'
  static override description =
    'Sends PayByPayTo by default (a PayTo token from `payfac tokens create --payto`); --method payment-token for pay plan, wallet and saved-source tokens, --method card for card tokens. A card payment that needs a 3DS challenge is shown as ThreeDSAuthorisationRequired (exit 0), not as a failure. Never retried automatically: if the outcome is unknown, check `payfac transactions list --order-id` before paying again.'

  static override examples = [
    '<%= config.bin %> orders pay ordr_ZqCNoNcm_22WeZ-j --token ptkn_Pq3x8sK1mZ0aB2cD',
    '<%= config.bin %> orders pay ordr_ZqCNoNcm_22WeZ-j --token ptkn_Pq3x8sK1mZ0aB2cD --method card --request-3ds',
    '<%= config.bin %> orders pay ordr_ZqCNoNcm_22WeZ-j --token ptkn_Pq3x8sK1mZ0aB2cD --json',
  ]

  static override args = {
    orderId: idArg('ordr', 'Order id (ordr_…).'),
  }

  static override flags = {
    token: idFlag('ptkn', 'The payment token (ptkn_…).', { required: true }),
    method: Flags.string({
      description: 'How the token pays: payto (PayByPayTo), payment-token (PayByPaymentToken) or card (PayByCard).',
      options: ['payto', 'payment-token', 'card'],
      default: 'payto',
    }),
    'request-3ds': Flags.boolean({ description: 'Ask for a 3DS challenge (card payments only).' }),
  }

  async run() {
    const envelope = payEnvelope(this.flags.method, this.flags.token as string, this.flags['request-3ds'])
    const client = await this.client()
    return this.show(payResultView, await client.orders.pay(this.args.orderId, envelope))
  }
}
