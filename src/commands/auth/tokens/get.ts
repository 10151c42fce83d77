import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../../cli/base-command.js'
import { checkIdText } from '../../../cli/validate/index.js'
import { serviceTokenDetailView } from '../../../output/views/auth.js'

export default class AuthTokensGet extends ApiCommand<typeof AuthTokensGet> {
  static override summary = 'Show a service token (never its secret).'
  static override examples = ['<%= config.bin %> auth tokens get stkn_ZqCNoNcm_22WeZ-j', '<%= config.bin %> auth tokens get stkn_ZqCNoNcm_22WeZ-j --json']

  static override args = {
    serviceTokenId: Args.string({ description: 'Service token id.', required: true, parse: async (input) => checkIdText(input, 'The service token id') }),
  }

  async run() {
    const client = await this.client()
    return this.show(serviceTokenDetailView, await client.auth.serviceTokens.get(this.args.serviceTokenId))
  }
}
