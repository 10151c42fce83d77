import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { dataFlag, moneyFlags } from '../../cli/flags/index.js'
import { requireCustomerContext } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { checkVariant, offerBody } from '../../cli/requests/payplans.js'
import { payPlanOfferView } from '../../output/views/payplans.js'

export default class PayPlansOffer extends ApiCommand<typeof PayPlansOffer> {
  static override summary = 'Ask for a pay plan offer for a registered, KYC-verified customer.'
  static override description =
    'Sends POST /payplans/offer with amount, initialPayment (minor units) and payPlanVariant. The customer is the one of --customer-id (the Customer-Id header) or of a customer JWT; without one nothing is sent. An offer is valid for 10 minutes: create the pay plan from it with `payfac payplans create --offer`.'

  static override examples = [
    '<%= config.bin %> payplans offer --customer-id cust_ZqCNoNcm_22WeZ-j --amount 400 --currency AUD --variant payplan_4_weekly_payments',
    '<%= config.bin %> payplans offer --customer-id cust_ZqCNoNcm_22WeZ-j --amount 1200 --currency AUD --initial-payment 200 --variant payplan_6_monthly_payments --json',
  ]

  static override flags = {
    ...moneyFlags(),
    'initial-payment': Flags.string({ description: 'Paid up front, in major units like --amount (default 0).', dependsOn: ['amount'] }),
    variant: Flags.string({
      description: 'The pay plan variant, such as payplan_4_weekly_payments or payplan_6_monthly_payments (N from 2 to 12).',
      parse: async (input) => checkVariant(input),
    }),
    data: dataFlag('The whole offer body as JSON: text, @file, or - for stdin.', ['amount', 'currency', 'initial-payment', 'variant']),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const body = offerBody(data, this.flags)
    requireCustomerContext(await this.settings(), 'A pay plan offer')
    const client = await this.client()
    return this.show(payPlanOfferView, await client.payplans.offer(body))
  }
}
