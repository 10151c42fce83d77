import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { dateFlag } from '../../../cli/flags/index.js'
import { readDataObject } from '../../../cli/files/input.js'
import { updateServiceTokenEnvelope } from '../../../cli/requests/auth.js'
import { checkIdText } from '../../../cli/validate/index.js'
import { serviceTokenDetailView } from '../../../output/views/auth.js'

export default class AuthTokensUpdate extends ApiCommand<typeof AuthTokensUpdate> {
  static override summary = 'Change or revoke a service token (UpdateServiceToken).'
  static override description =
    'Sends PATCH /auth/servicetokens/{id} with UpdateServiceToken. --revoke sets status Revoked: the token stops working at once and cannot be reactivated. --data gives fields of the body; flags override them.'

  static override examples = [
    '<%= config.bin %> auth tokens update stkn_ZqCNoNcm_22WeZ-j --revoke',
    '<%= config.bin %> auth tokens update stkn_ZqCNoNcm_22WeZ-j --description "CI (rotated)" --expires-at 2027-01-31',
    `<%= config.bin %> auth tokens update stkn_ZqCNoNcm_22WeZ-j --data '{"status":"Revoked"}' --json`,
  ]

  static override args = {
    serviceTokenId: Args.string({ description: 'Service token id.', required: true, parse: async (input) => checkIdText(input, 'The service token id') }),
  }

  static override flags = {
    revoke: Flags.boolean({ description: 'Revoke the token (status Revoked).' }),
    description: Flags.string({ description: 'New description.' }),
    'expires-at': dateFlag('New expiry time'),
    data: Flags.string({ description: 'Fields of the UpdateServiceToken body as JSON: text, @file, or - for stdin.' }),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { envelope, warnings } = updateServiceTokenEnvelope(this.flags, data)
    for (const line of warnings) process.stderr.write(`${line}\n`)
    const client = await this.client()
    return this.show(serviceTokenDetailView, await client.auth.serviceTokens.update(this.args.serviceTokenId, envelope))
  }
}
