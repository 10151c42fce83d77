import { ApiCommand } from '../../cli/base-command.js'
import { dataFlag, idFlag } from '../../cli/flags/index.js'
import { readDataObject } from '../../cli/files/input.js'
import { kycBody } from '../../cli/requests/customers.js'
import { kycView } from '../../output/views/customers.js'

export default class CustomersKyc extends ApiCommand<typeof CustomersKyc> {
  static override summary = 'Run the KYC check on a consumer customer (experimental).'
  static override description =
    'Experimental: sends POST /customers/kyc, likely to change. The answer may say more details are needed; run the command again with them in --data. The customer is --customer, or the Customer-Id context. The body beyond customerId is not shown by the contract: --data is sent as given.'

  static override examples = [
    '<%= config.bin %> customers kyc --customer cust_ZqCNoNcm_22WeZ-j',
    `<%= config.bin %> customers kyc --customer cust_ZqCNoNcm_22WeZ-j --data '{"dateOfBirth":"1990-04-01"}'`,
    '<%= config.bin %> customers kyc --customer cust_ZqCNoNcm_22WeZ-j --data @kyc-details.json --json',
  ]

  static override flags = {
    customer: idFlag('cust', 'The consumer customer to check (customerId).'),
    data: dataFlag('KYC details as JSON: text, @file, or - for stdin.'),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { body, warnings } = kycBody(this.flags.customer, data)
    for (const line of warnings) process.stderr.write(`${line}\n`)
    const client = await this.client()
    return this.show(kycView, await client.customers.kyc(body))
  }
}
