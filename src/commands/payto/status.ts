import { Args } from '@oclif/core'

import { ApiCommand } from '../../cli/base-command.js'
import { checkNonEmpty } from '../../cli/validate.js'
import { agreementView } from '../../output/views/payto.js'

export default class PayToStatus extends ApiCommand<typeof PayToStatus> {
  static override summary = 'Show the status of a PayTo agreement by its token.'
  static override description = 'Sends GET /payto/agreement?token=. The agreement can be used to pay once its status is Active.'
  static override examples = [
    '<%= config.bin %> payto status ptagr_Ab12Cd34Ef56Gh78',
    '<%= config.bin %> payto status ptagr_Ab12Cd34Ef56Gh78 --json',
  ]

  static override args = {
    token: Args.string({ description: 'The agreement token from `payto agree`.', required: true, parse: async (input) => checkNonEmpty(input, 'The token').trim() }),
  }

  async run() {
    const client = await this.client()
    return this.show(agreementView, await client.payto.agreement(this.args.token))
  }
}
