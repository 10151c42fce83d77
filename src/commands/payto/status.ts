import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { checkPrefix, waitFlags } from '../../cli/flags/index.js'
import { statusResume, waitTimes, waitUntilActive } from '../../cli/flows/agreement.js'
import { agreementView } from '../../output/views/payto.js'

export default class PayToStatus extends ApiCommand<typeof PayToStatus> {
  static override summary = 'Show the status of a PayTo agreement by its token; --poll waits until it is Active.'
  static override description =
    'Sends GET /payto/agreement?token=. The agreement can be used to pay once its status is Active. With --poll it reads ' +
    'the status every --interval until Active (exit 0, the agreement printed), declined, cancelled, suspended or expired ' +
    '(exit 6), or until --timeout runs out (exit 8); Ctrl-C exits 130. On a terminal a spinner on stderr shows the status ' +
    'and the time waited; piped, stderr gets one line per change of status.'

  static override examples = [
    '<%= config.bin %> payto status ptagr_Ab12Cd34Ef56Gh78',
    '<%= config.bin %> payto status ptagr_Ab12Cd34Ef56Gh78 --json',
    '<%= config.bin %> payto status ptagr_Ab12Cd34Ef56Gh78 --poll --interval 5s --timeout 15m',
  ]

  static override args = {
    token: Args.string({
      description: 'The agreement token from `payto agree`.',
      required: true,
      parse: async (input) => checkPrefix(input, 'ptagr', 'The token'),
    }),
  }

  static override flags = {
    poll: Flags.boolean({ description: 'Wait until the agreement is Active, reading it every --interval up to --timeout.' }),
    ...waitFlags(),
  }

  async run() {
    const client = await this.client()
    if (!this.flags.poll) return this.show(agreementView, await client.payto.agreement(this.args.token))
    const resume = statusResume(this.config.bin, this.args.token, this.flags)
    return this.show(agreementView, await waitUntilActive(client, this.args.token, { ...waitTimes(this.flags), resume }))
  }
}
