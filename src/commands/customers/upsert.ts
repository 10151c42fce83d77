import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { fromFile } from '../../cli/bulk/index.js'
import { metadataFlag } from '../../cli/flags/index.js'
import { bulkFlags } from '../../cli/flags/bulk.js'
import { readDataObject } from '../../cli/files/input.js'
import { customerEnvelope } from '../../cli/requests/customers.js'
import { customerUpsertedView } from '../../output/views/customers.js'

export default class CustomersUpsert extends ApiCommand<typeof CustomersUpsert> {
  static override summary = 'Add or update a consumer or organisation customer.'
  static override description =
    "Sends UpsertConsumerCustomer, keyed by --email (an existing customer with that address is updated), or with --organisation UpsertOrganisationCustomer, keyed by --reference (referenceCustomerId). With --plugin it registers the consumer as the service's shop plug-in does (RegisterPluginConsumerCustomer: e-mail, reference, given and family name). --data gives the whole body or envelope; field flags beside it override its fields. Previous-generation names in --data (firstName, email, …) are refused."

  static override examples = [
    '<%= config.bin %> customers upsert --email jo@example.com --given-name Jo --family-name Citizen --phone +61401234567',
    '<%= config.bin %> customers upsert --email jo@example.com --reference crm-42 --verified --metadata tier=gold',
    '<%= config.bin %> customers upsert --organisation --reference acme-01 --name "Acme Pty Ltd"',
    '<%= config.bin %> customers upsert --plugin --email jo@example.com --reference 17 --given-name Jo --family-name Citizen',
    '<%= config.bin %> customers upsert --data @customer.json --json',
    '<%= config.bin %> customers upsert --from-file crm-export.csv --out results.csv',
  ]

  static override flags = {
    organisation: Flags.boolean({ description: 'Upsert an organisation customer (UpsertOrganisationCustomer), keyed by --reference.' }),
    plugin: Flags.boolean({ description: "Register a consumer as the service's shop plug-in does (RegisterPluginConsumerCustomer), keyed by --email." }),
    email: Flags.string({ description: "E-mail address: a consumer's business key (emailAddress)." }),
    'given-name': Flags.string({ description: 'Given name (consumers).' }),
    'middle-name': Flags.string({ description: 'Middle name (consumers).' }),
    'family-name': Flags.string({ description: 'Family name (consumers).' }),
    phone: Flags.string({ description: 'Phone number, E.164 (+61401234567).' }),
    reference: Flags.string({ description: "Your own id of the customer (referenceCustomerId): an organisation's business key." }),
    verified: Flags.boolean({ description: 'Mark the consumer as verified (isVerified); --no-verified to clear it.', allowNo: true }),
    name: Flags.string({ description: "The organisation's name (organisationName; with --organisation)." }),
    metadata: metadataFlag('Customer metadata as key=value (repeatable).'),
    data: Flags.string({ description: 'The body or the whole envelope as JSON: text, @file, or - for stdin.' }),
    ...bulkFlags(),
  }

  async run() {
    if (this.flags['from-file']) return fromFile(this.bulkHost())
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const envelope = customerEnvelope(this.flags, data)
    const client = await this.client()
    return this.show(customerUpsertedView, await client.customers.upsert(envelope))
  }
}
