import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../cli/base-command.js'
import { dataFlag } from '../cli/flags/index.js'
import { readDataObject } from '../cli/files/input.js'
import { previousGenerationWarnings } from '../cli/requests/cards.js'
import { actionName, simulationEnvelope } from '../cli/requests/simulate.js'
import { simulationActionsHelp } from '../cli/validate/known-names.js'
import { ConfigError } from '../config/errors.js'
import { rawView } from '../output/views/generic.js'

export default class Simulate extends ApiCommand<typeof Simulate> {
  static override summary = 'Simulate an external event on a sandbox or the emulator (POST /simulation).'
  static override description =
    'Sends the action as a single-key envelope: `{"<Action>": <fields>}`, the fields from --data (and --seconds for ' +
    'AdvanceClock). The action may be written AdvanceClock or advance-clock. Refused on a production profile before anything is sent (exit 3). ' +
    'The actions the emulator knows (docs/emulator.md, "Simulation"; a sandbox may know others):\n\n' +
    simulationActionsHelp()

  static override examples = [
    '<%= config.bin %> simulate AdvanceClock --seconds 60',
    `<%= config.bin %> simulate AdvanceClock --data '{"seconds":60}'`,
    `<%= config.bin %> simulate set-pay-to-agreement-status --data '{"token":"ptagr_Ab12Cd34Ef56Gh78","status":"Suspended"}'`,
    `<%= config.bin %> simulate open-dispute --data '{"transactionId":"tran_Ab12Cd34Ef56Gh78"}'`,
    `<%= config.bin %> simulate SettlePayout --data '{"payoutId":"payout_Ab12Cd34Ef56Gh78"}'`,
    `<%= config.bin %> simulate IncomingBankTransfer --data '{"merchantId":"mcht_LocalMerchant001","amount":{"minorCurrencyUnits":50000,"currency":"AUD"}}' --json`,
  ]

  static override args = {
    action: Args.string({
      description:
        'The event to simulate: AdvanceClock, SetPayToAgreementStatus, IncomingBankTransfer, OpenDispute, ResolveDispute, SettlePayout, RunScheduledPayouts, SetMerchantManualPayouts or RaiseBlockedCardEvent (or advance-clock …).',
      required: true,
      parse: async (input) => actionName(input),
    }),
  }

  static override flags = {
    data: dataFlag("The action's fields as a JSON object: text, @file, or - for stdin."),
    seconds: Flags.integer({ description: 'AdvanceClock: seconds to move the clock forward.', min: 1 }),
  }

  async run() {
    const settings = await this.settings()
    if (settings.environment === 'production') {
      throw new ConfigError('Simulation is for a sandbox or the emulator; the profile in use is production.', {
        reason: 'production-guard',
        hint: 'Use a sandbox or local profile (--profile), or PAYFAC_BASE_URL of a sandbox with a sandbox key.',
      })
    }
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    for (const line of data ? previousGenerationWarnings(data) : []) process.stderr.write(`${line}\n`)
    const client = await this.client()
    return this.show(rawView, await client.simulation.run(simulationEnvelope(this.args.action, data, this.flags.seconds)))
  }
}
