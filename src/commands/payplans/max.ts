import { ApiCommand } from '../../cli/base-command.js'
import { dataFlag } from '../../cli/flags/index.js'
import { requireCustomerContext, warnPreviousGeneration } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { eligibilityView } from '../../output/views/payplans.js'

export default class PayPlansMax extends ApiCommand<typeof PayPlansMax> {
  static override summary = 'Show the largest loan the customer is currently eligible for.'
  static override description =
    'Sends POST /payplans/max for the customer of --customer-id (the Customer-Id header) or of a customer JWT; without one nothing is sent. The contract shows neither body nor answer: without --data the body is empty and the customer travels in the header; --data sends any body as given (the emulator takes {customerId}).'

  static override examples = [
    '<%= config.bin %> payplans max --customer-id cust_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> payplans max --customer-id cust_ZqCNoNcm_22WeZ-j --json',
    `<%= config.bin %> payplans max --data '{"customerId":"cust_ZqCNoNcm_22WeZ-j"}'`,
  ]

  static override flags = {
    data: dataFlag('The whole body as JSON: text, @file, or - for stdin.'),
  }

  async run() {
    const body = this.flags.data ? await readDataObject(this.flags.data) : {}
    warnPreviousGeneration(body)
    if (!this.flags.data) requireCustomerContext(await this.settings(), 'The pay plan maximum')
    const client = await this.client()
    return this.show(eligibilityView, await client.payplans.max(body))
  }
}
