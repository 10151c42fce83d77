import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { checkPrefix } from '../../cli/flags/index.js'
import { CONTROL_PATH, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { genericView } from '../../output/views/generic.js'

export default class EmulatorReplay extends ApiCommand<typeof EmulatorReplay> {
  static override summary = 'Send a logged webhook delivery again.'
  static override description =
    'The same payload goes to the subscription again as a new delivery (a new dlv_ id, attempts from 1, signed ' +
    'afresh with the current secret), retried like any other. The delivery must still be in the delivery log ' +
    '(the last 2000 attempts); find ids with `payfac emulator deliveries`.'

  static override examples = [
    '<%= config.bin %> emulator replay dlv_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> emulator replay dlv_ZqCNoNcm_22WeZ-j --namespace ci-run-42 --json',
  ]

  static override args = {
    deliveryId: Args.string({ description: 'Delivery id (dlv_…).', required: true, parse: async (input) => checkPrefix(input, 'dlv', 'The delivery id') }),
  }

  static override flags = {
    namespace: namespaceFlag,
  }

  async run() {
    const client = await this.client()
    const path = `${CONTROL_PATH}/deliveries/${encodeURIComponent(this.args.deliveryId)}/replay`
    const answer = await client.request({ method: 'POST', path, headers: controlHeaders(this.flags.namespace) })
    return this.show(genericView('replay'), answer.body)
  }
}
