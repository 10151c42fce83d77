import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { againFlag } from '../../cli/flags/safety.js'
import { idArg, idFlag } from '../../cli/flags/index.js'
import { payEnvelope } from '../../cli/requests/orders.js'
import { payOperation } from '../../cli/safety/order-ops.js'
import { payResultView } from '../../output/views/transactions.js'

export default class OrdersPay extends ApiCommand<typeof OrdersPay> {
  static override summary = 'Pay an order with a payment token.'
  static override description =
    "Sends PayByPayTo by default, the one pay variant the contract shows: it pays any PayTo token, whether made on a one-off agreement or on a saved PayTo source. --method payment-token (PayByPaymentToken, seen in real use, not in the contract) pays any kind of token: pay plans, wallets, saved cards and sources. --method card (PayByCard, seen in real use) pays a card token and can --request-3ds. A card payment that needs a 3DS challenge is shown as ThreeDSAuthorisationRequired (exit 0), not as a failure. Refused (exit 6) when the order already has a payment. At most once: journaled, and a re-run after a lost answer (exit 7) looks for the order's payment before paying."

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
      description:
        "How the token pays: payto (PayByPayTo, the contract's variant: any PayTo token, saved sources' too), payment-token (PayByPaymentToken: any kind of token) or card (PayByCard: card tokens, with 3DS).",
      options: ['payto', 'payment-token', 'card'],
      default: 'payto',
    }),
    'request-3ds': Flags.boolean({ description: 'Ask for a 3DS challenge (card payments only).' }),
    again: againFlag,
  }

  async run() {
    const envelope = payEnvelope(this.flags.method, this.flags.token as string, this.flags['request-3ds'])
    const paid = await payOperation(await this.safety(), await this.client(), this.args.orderId, envelope)
    return this.show(payResultView, paid)
  }
}
