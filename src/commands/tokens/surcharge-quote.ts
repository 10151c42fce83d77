import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { dataFlag, idArg, moneyFlags } from '../../cli/flags/index.js'
import { warnPreviousGeneration } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { SURCHARGE_METHODS, surchargeQuoteBody } from '../../cli/requests/tokens.js'
import { surchargeQuoteView } from '../../output/views/tokens.js'

export default class TokensSurchargeQuote extends ApiCommand<typeof TokensSurchargeQuote> {
  static override summary = 'Calculate the surcharge a merchant adds for a payment type.'
  static override description =
    'Sends POST /tokens/{merchantId}/surchargequote. The contract shows neither body nor answer: the flags build the body the emulator defines ({amount, paymentMethodType}); --data sends any body as given.'

  static override examples = [
    '<%= config.bin %> tokens surcharge-quote mcht_LocalMerchant001 --amount 100 --currency AUD --payment-method Card',
    `<%= config.bin %> tokens surcharge-quote mcht_LocalMerchant001 --data '{"amount":{"minorCurrencyUnits":10000,"currency":"AUD"},"paymentMethodType":"PayTo"}' --json`,
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
  }

  static override flags = {
    ...moneyFlags(),
    'payment-method': Flags.string({ description: 'The payment type to quote for.', options: [...SURCHARGE_METHODS] }),
    data: dataFlag('The whole body as JSON: text, @file, or - for stdin.', ['amount', 'currency', 'payment-method']),
  }

  async run() {
    const body = this.flags.data ? await readDataObject(this.flags.data) : surchargeQuoteBody(this.flags)
    warnPreviousGeneration(body)
    const client = await this.client()
    return this.show(surchargeQuoteView, await client.tokens.surchargeQuote(this.args.merchantId, body))
  }
}
