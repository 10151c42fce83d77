import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { ALIAS_TYPES, type AliasType, aliasQuery } from '../../cli/requests/payto.js'
import { aliasView } from '../../output/views/payto.js'

export default class PayToAlias extends ApiCommand<typeof PayToAlias> {
  static override summary = 'Look up the display name of a PayTo account alias.'
  static override description =
    'Sends GET /payto/alias with aliasType and value. The value is checked by its type before anything is sent: ' +
    'Phone in E.164 form, Email an e-mail address, ABN/ACN/ARBN/ARSN by their check digits, OrgId without spaces.'

  static override examples = [
    '<%= config.bin %> payto alias +61412345678 --type Phone',
    '<%= config.bin %> payto alias "51 824 753 556" --type ABN --json',
    '<%= config.bin %> payto alias jo@example.com --type Email',
  ]

  static override args = {
    value: Args.string({ description: 'The alias: a phone number, e-mail address, business number or organisation id.', required: true }),
  }

  static override flags = {
    type: Flags.string({ description: 'Kind of alias.', options: [...ALIAS_TYPES], required: true }),
  }

  async run() {
    const query = aliasQuery(this.flags.type as AliasType, this.args.value)
    const client = await this.client()
    return this.show(aliasView, await client.payto.alias(query))
  }
}
