import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { metadataFlag } from '../../../cli/flags/index.js'
import { readDataObject } from '../../../cli/files/input.js'
import { marketplaceCustomerBody } from '../../../cli/requests/merchants.js'
import { marketplaceCustomerView } from '../../../output/views/marketplaces.js'

export default class MarketplacesCustomersUpsert extends ApiCommand<typeof MarketplacesCustomersUpsert> {
  static override summary = 'Add or update a marketplace customer, onboarded once for all sub-merchants (marketplace API key).'
  static override description =
    'Sends POST /marketplaces/customer with the marketplace API key. The contract does not show the body: the flags send consumer-style fields keyed by --email, --data sends others, and flags override --data. Payments still need a merchant customer: `payfac customers upsert --merchant-id <mcht_…>`.'

  static override examples = [
    '<%= config.bin %> marketplaces customers upsert --email jo@example.com --given-name Jo --family-name Citizen',
    '<%= config.bin %> marketplaces customers upsert --email jo@example.com --phone +61401234567 --reference crm-42 --json',
    '<%= config.bin %> marketplaces customers upsert --data @customer.json',
  ]

  static override flags = {
    email: Flags.string({ description: "The customer's e-mail address: the business key (emailAddress)." }),
    'given-name': Flags.string({ description: 'Given name (givenName).' }),
    'middle-name': Flags.string({ description: 'Middle name (middleName).' }),
    'family-name': Flags.string({ description: 'Family name (familyName).' }),
    phone: Flags.string({ description: 'Phone number, E.164 (phoneNumber).' }),
    reference: Flags.string({ description: 'Your own id of the customer (referenceCustomerId).' }),
    metadata: metadataFlag('Customer metadata as key=value (repeatable).'),
    data: Flags.string({ description: 'Customer fields as JSON: text, @file, or - for stdin; flags override them.' }),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { body, warnings } = marketplaceCustomerBody(this.flags, data)
    for (const line of warnings) process.stderr.write(`${line}\n`)
    const client = await this.client()
    return this.show(marketplaceCustomerView, await client.marketplaces.upsertCustomer(body))
  }
}
