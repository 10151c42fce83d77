import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { dataFlag } from '../../cli/flags/index.js'
import { requireCustomerContext, warnPreviousGeneration } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { payPlanBody } from '../../cli/requests/payplans.js'
import { payPlanView } from '../../output/views/payplans.js'

export default class PayPlansCreate extends ApiCommand<typeof PayPlansCreate> {
  static override summary = 'Create a pay plan, and its payment token, from a successful offer.'
  static override description =
    "Sends POST /payplans for the customer of --customer-id (the Customer-Id header) or of a customer JWT; without one nothing is sent. The contract does not show the body: --offer sends {offerId} (the emulator's field); --data sends any body as given. An offer older than 10 minutes is refused by the service (exit 6). Pay the order of the same amount with the plan's token: `payfac orders pay <order> --token <ptkn_…> --method payment-token`."

  static override examples = [
    '<%= config.bin %> payplans create --customer-id cust_ZqCNoNcm_22WeZ-j --offer offer_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> payplans create --customer-id cust_ZqCNoNcm_22WeZ-j --data @payplan.json --json',
  ]

  static override flags = {
    offer: Flags.string({ description: 'Id of the offer to take up.' }),
    data: dataFlag('The whole body as JSON: text, @file, or - for stdin.', ['offer']),
  }

  async run() {
    const body = this.flags.data ? await readDataObject(this.flags.data) : payPlanBody(this.flags.offer)
    warnPreviousGeneration(body)
    requireCustomerContext(await this.settings(), 'A pay plan')
    const client = await this.client()
    return this.show(payPlanView, await client.payplans.create(body))
  }
}
