import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { CONTROL_PATH, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { genericView } from '../../output/views/generic.js'

interface StateDump {
  namespace: string
  now: string
  clockOffsetMs: number
  store: Record<string, unknown>
}

export default class EmulatorState extends ApiCommand<typeof EmulatorState> {
  static override summary = "Print a running emulator's whole state as JSON."
  static override description =
    'Every collection of the store (merchants, customers, agreements, orders, transactions, events, subscriptions …), ' +
    'with emulator time. --collection prints one collection only. The dump includes the emulator keys and webhook ' +
    'secrets: it is meant for a local emulator only.'

  static override examples = [
    '<%= config.bin %> emulator state > state.json',
    '<%= config.bin %> emulator state --collection orders',
    '<%= config.bin %> emulator state --namespace ci-run-42 --collection events',
  ]

  static override flags = {
    namespace: namespaceFlag,
    collection: Flags.string({ description: 'Print only this collection of the store, such as orders or events.' }),
  }

  async run() {
    const client = await this.client()
    const answer = await client.request<StateDump>({ method: 'GET', path: `${CONTROL_PATH}/state`, headers: controlHeaders(this.flags.namespace) })
    const dump = answer.body
    const chosen = this.flags.collection
    const record = chosen === undefined ? dump : { [chosen]: dump.store[chosen] ?? null }
    return this.show(genericView('state'), record, 'json')
  }
}
