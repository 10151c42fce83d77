import { ApiCommand } from '../../cli/base-command.js'
import { CONTROL_PATH, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { genericView } from '../../output/views/generic.js'

export default class EmulatorReset extends ApiCommand<typeof EmulatorReset> {
  static override summary = 'Put a running emulator back to its seed and fixtures.'
  static override description =
    'Empties the namespace (orders, transactions, agreements, subscriptions and everything else), then adds the ' +
    'well-known seed and the --fixtures of `emulator start` again. Fault rules, the request log and queued webhook ' +
    'deliveries are cleared too; emulator time keeps running forward. Other namespaces are left as they are.'

  static override examples = [
    '<%= config.bin %> emulator reset',
    '<%= config.bin %> emulator reset --namespace ci-run-42',
    '<%= config.bin %> emulator reset --base-url http://127.0.0.1:4011 --json',
  ]

  static override flags = {
    namespace: namespaceFlag,
  }

  async run() {
    const client = await this.client()
    const answer = await client.request({ method: 'POST', path: `${CONTROL_PATH}/reset`, headers: controlHeaders(this.flags.namespace) })
    return this.show(genericView('reset'), answer.body)
  }
}
