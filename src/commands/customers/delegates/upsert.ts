import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { dataFlag, idFlag } from '../../../cli/flags/index.js'
import { readDataObject } from '../../../cli/files/input.js'
import { delegateBody } from '../../../cli/requests/customers.js'
import { delegateDetailView } from '../../../output/views/customers.js'

export default class CustomersDelegatesUpsert extends ApiCommand<typeof CustomersDelegatesUpsert> {
  static override summary = 'Add or update a delegate: a person acting for an organisation customer.'
  static override description =
    'Sends POST /customers/delegates. The contract does not show the body: the flags send customerId (the organisation), emailAddress, givenName, familyName and phoneNumber; --data gives other fields, and flags override it. To move a delegate to another customer use `customers delegates link`.'

  static override examples = [
    '<%= config.bin %> customers delegates upsert --customer cust_ZqCNoNcm_22WeZ-j --email jo@acme.example --given-name Jo --family-name Citizen',
    '<%= config.bin %> customers delegates upsert --customer cust_ZqCNoNcm_22WeZ-j --email jo@acme.example --phone +61401234567 --json',
    '<%= config.bin %> customers delegates upsert --data @delegate.json',
  ]

  static override flags = {
    customer: idFlag('cust', 'The organisation customer the delegate acts for (cust_…).'),
    email: Flags.string({ description: "The delegate's e-mail address." }),
    'given-name': Flags.string({ description: 'Given name.' }),
    'family-name': Flags.string({ description: 'Family name.' }),
    phone: Flags.string({ description: 'Phone number, E.164 (+61401234567).' }),
    data: dataFlag('The delegate body as JSON: text, @file, or - for stdin.'),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { body, warnings } = delegateBody(this.flags, data)
    for (const line of warnings) process.stderr.write(`${line}\n`)
    const client = await this.client()
    return this.show(delegateDetailView, await client.customers.delegates.upsert(body))
  }
}
