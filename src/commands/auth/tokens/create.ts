import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { checkDate } from '../../../cli/flags/index.js'
import { readDataObject } from '../../../cli/files/input.js'
import { createServiceTokenEnvelope, expiresInSeconds } from '../../../cli/requests/auth.js'
import { createdServiceTokenView } from '../../../output/views/auth.js'
import { checkedBy } from '../../../cli/flags/checked.js'

export default class AuthTokensCreate extends ApiCommand<typeof AuthTokensCreate> {
  static override summary = 'Create a service token: a new secret credential of a merchant or a marketplace.'
  static override description =
    'Sends CreateServiceToken. Without --owner the token belongs to the merchant in context (the credential\'s own, or --merchant-id), or to the marketplace of a marketplace API key. The secret is in the answer\'s "token" field and is shown only this once: store it now. --data gives fields of the body; flags override them.'

  static override examples = [
    '<%= config.bin %> auth tokens create --description "CI pipeline" --expires-in 90d',
    '<%= config.bin %> auth tokens create --owner mcht_ZqCNoNcm_22WeZ-j --expires-at 2027-06-30 --json',
    `<%= config.bin %> auth tokens create --data '{"description":"reporting","expiresInSeconds":86400}'`,
  ]

  static override flags = {
    owner: Flags.string({ description: 'Whose token: a merchant (mcht_…, body merchantId) or a marketplace (mktp_…, body marketplaceId).' }),
    description: Flags.string({ description: 'What the token is for.' }),
    'expires-at': Flags.string({
      description: 'When the token expires (YYYY-MM-DD or an ISO 8601 timestamp).',
      exclusive: ['expires-in'],
      parse: async (input) => checkDate(input, '--expires-at'),
    }),
    'expires-in': Flags.string({
      description: 'Lifetime, such as 90d, 12h or 30m (sent as expiresInSeconds).',
      exclusive: ['expires-at'],
      parse: checkedBy(expiresInSeconds),
    }),
    data: Flags.string({ description: 'Fields of the CreateServiceToken body as JSON: text, @file, or - for stdin.' }),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { envelope, warnings } = createServiceTokenEnvelope(this.flags, data)
    for (const line of warnings) process.stderr.write(`${line}\n`)
    const client = await this.client()
    const token = await client.auth.serviceTokens.create(envelope)
    if (token.token !== undefined) process.stderr.write('The token is shown only this once: store it now.\n')
    return this.show(createdServiceTokenView, token)
  }
}
