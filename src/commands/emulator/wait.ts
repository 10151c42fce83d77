import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { namespaceFlag, recordPortFlag } from '../../cli/flags/emulator.js'
import { waitMs } from '../../cli/validate/durations.js'
import { checkedBy } from '../../cli/flags/checked.js'

export default class EmulatorWait extends ApiCommand<typeof EmulatorWait> {
  static override summary = 'Wait until an emulator answers (for CI: after emulator start --detach or start &).'
  static override description =
    'Waits for the emulator started with --detach (the one on --port, or the only one) until it answers with the proof of ' +
    'its run, and prints its base URL. Without such an emulator it waits until one answers at the base URL of the profile ' +
    '(PAYFAC_BASE_URL, --base-url; the built-in local profile: http://127.0.0.1:4010), for an emulator started some other way. ' +
    'Exit 7 when the time runs out, or at once when the background emulator has stopped (stderr names its log).'

  static override examples = [
    '<%= config.bin %> emulator wait',
    '<%= config.bin %> emulator wait --timeout 2m',
    '<%= config.bin %> emulator wait --port 4011',
    'PAYFAC_BASE_URL=http://emulator:4010 <%= config.bin %> emulator wait --namespace ci-run-42',
  ]

  static override flags = {
    port: recordPortFlag,
    namespace: namespaceFlag,
    timeout: Flags.string({
      description: 'Give up (exit 7) after this long, such as 60s or 2m.',
      default: '60s',
      parse: checkedBy((input) => waitMs(input, '--timeout')),
    }),
  }

  async run() {
    const { waitBackground } = await import('../../cli/detach/commands.js')
    const waited = await waitBackground({
      port: this.flags.port,
      namespace: this.flags.namespace,
      timeoutMs: waitMs(this.flags.timeout, '--timeout'),
      baseUrl: async () => (await this.settings()).baseUrl,
    })
    process.stdout.write(this.flags.json ? `${JSON.stringify(waited)}\n` : `${waited.baseUrl}\n`)
    process.stderr.write(`The emulator at ${waited.baseUrl} answers.\n`)
    return waited
  }
}
