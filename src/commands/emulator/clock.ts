import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { CONTROL_PATH, checkAdvance, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { genericView } from '../../output/views/generic.js'

export default class EmulatorClock extends ApiCommand<typeof EmulatorClock> {
  static override summary = "Show the emulator's time, or move it forward."
  static override description =
    'Emulator time drives PayTo agreement approval, token and session expiry, money becoming available and webhook ' +
    'retries. --advance moves it forward exactly as the AdvanceClock simulation does: agreement changes are reported ' +
    'and webhook retries that fall due are sent at once.'

  static override examples = [
    '<%= config.bin %> emulator clock',
    '<%= config.bin %> emulator clock --advance 90s',
    '<%= config.bin %> emulator clock --advance 2h --namespace ci-run-42 --json',
  ]

  static override flags = {
    namespace: namespaceFlag,
    advance: Flags.string({
      description: 'Move emulator time forward by this much: 500ms, 90s, 10m, 2h or 1d.',
      parse: async (input) => checkAdvance(input),
    }),
  }

  async run() {
    const client = await this.client()
    const headers = controlHeaders(this.flags.namespace)
    const path = `${CONTROL_PATH}/clock`
    const answer =
      this.flags.advance === undefined
        ? await client.request({ method: 'GET', path, headers })
        : await client.request({ method: 'POST', path, headers, body: { advance: this.flags.advance } })
    return this.show(genericView('clock'), answer.body)
  }
}
