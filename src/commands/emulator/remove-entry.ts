import { ApiCommand } from '../../cli/base-command.js'
import { CONTROL_PATH, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { idArg } from '../../cli/flags/index.js'
import { genericView } from '../../output/views/generic.js'

export default class EmulatorRemoveEntry extends ApiCommand<typeof EmulatorRemoveEntry> {
  static override summary = "Remove one settlement entry from the emulator's ledger, to test reconciliation."
  static override description =
    'No operation of the service does this: the entry simply disappears, as if the settlement had lost it. ' +
    '`payfac settlement reconcile` then reports the transaction it belonged to as not settled (exit 6).'

  static override examples = [
    '<%= config.bin %> emulator remove-entry stl_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> emulator remove-entry stl_ZqCNoNcm_22WeZ-j --namespace ci-42 --json',
  ]

  static override args = {
    settlementEntryId: idArg('stl', 'Settlement entry id (stl_…).'),
  }

  static override flags = {
    namespace: namespaceFlag,
  }

  async run() {
    const client = await this.client()
    const path = `${CONTROL_PATH}/settlement/${encodeURIComponent(this.args.settlementEntryId)}`
    const answer = await client.request({ method: 'DELETE', path, headers: controlHeaders(this.flags.namespace) })
    return this.show(genericView('removed entry'), (answer.body as { removed: unknown }).removed)
  }
}
