import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { CONTROL_PATH, checkFault, checkProbability, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { genericView } from '../../output/views/generic.js'

export default class EmulatorFaults extends ApiCommand<typeof EmulatorFaults> {
  static override summary = "List, add or clear the emulator's standing fault rules."
  static override description =
    'A standing rule applies a fault to every request whose method and path match, with a probability drawn from the ' +
    "emulator's seeded random numbers (emulator start --seed), so a run can be repeated. The faults are those of the " +
    'Emulator-Fault header: 503, 500, 429;retry-after=<s>, latency=<ms>, reset (drop the connection before anything is ' +
    'applied) and drop-after-commit (apply the operation, then drop the connection: the case that tempts a client to ' +
    'pay twice), and commit-then-status=<500|502|503|504> (apply the operation, then answer that status). Path patterns take * for one segment, such as /orders/*/pay.'

  static override examples = [
    '<%= config.bin %> emulator faults',
    '<%= config.bin %> emulator faults --add drop-after-commit --method POST --path "/orders/*/pay"',
    '<%= config.bin %> emulator faults --add "429;retry-after=2" --path "/transactions" --probability 0.25 --namespace ci-run-42',
    '<%= config.bin %> emulator faults --add commit-then-status=503 --method PATCH --path "/transactions/*"',
    '<%= config.bin %> emulator faults --clear',
  ]

  static override flags = {
    namespace: namespaceFlag,
    add: Flags.string({ description: 'Add a rule with this fault.', exclusive: ['clear'], dependsOn: ['path'], parse: async (input) => checkFault(input) }),
    path: Flags.string({ description: 'Path pattern of the rule (with --add), such as /orders/*/pay.', dependsOn: ['add'] }),
    method: Flags.string({ description: 'Only requests of this method (with --add).', options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], dependsOn: ['add'] }),
    probability: Flags.string({
      description: 'Chance from 0 to 1 that a matching request gets the fault (with --add); default 1.',
      dependsOn: ['add'],
      parse: async (input) => checkProbability(input),
    }),
    clear: Flags.boolean({ description: 'Remove every rule.', exclusive: ['add'] }),
  }

  async run() {
    const { add, path, method, probability, clear, namespace } = this.flags
    const client = await this.client()
    const request = { path: `${CONTROL_PATH}/faults`, headers: controlHeaders(namespace) }
    if (clear) return this.show(genericView('cleared'), (await client.request({ ...request, method: 'DELETE' })).body)
    if (add) {
      const body = { fault: add, pathPattern: path, ...(method ? { method } : {}), ...(probability ? { probability: Number(probability) } : {}) }
      return this.show(genericView('fault rule'), (await client.request({ ...request, method: 'POST', body })).body)
    }
    const listed = (await client.request({ ...request, method: 'GET' })).body as { rules: unknown[] }
    return this.showAll(genericView('fault rule'), listed.rules)
  }
}
