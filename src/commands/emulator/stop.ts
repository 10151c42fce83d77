import * as Flags from '@oclif/core/flags'

import { PayfacCommand } from '../../cli/base-command.js'
import { recordPortFlag } from '../../cli/flags/emulator.js'
import { waitMs } from '../../cli/validate/durations.js'
import { checkedBy } from '../../cli/flags/checked.js'

export default class EmulatorStop extends PayfacCommand<typeof EmulatorStop> {
  static override summary = 'Stop an emulator started in the background (emulator start --detach).'
  static override description =
    'Asks the emulator to stop (it closes every connection, saves its --state file and exits), waits until its process is ' +
    'gone and removes its record; stderr names its log. A process that does not stop in time gets SIGTERM, then SIGKILL, ' +
    'but only once it is proven to be that emulator (its command line here is that run’s; on Windows, it answers with the proof of its run); ' +
    'a process id that now names another program is never signalled. With no emulator to stop: exit 6 (a record whose ' +
    'process is gone is removed and said). With several, give --port.'

  static override examples = ['<%= config.bin %> emulator stop', '<%= config.bin %> emulator stop --port 4011', '<%= config.bin %> emulator stop --json']

  static override flags = {
    port: recordPortFlag,
    timeout: Flags.string({
      description: 'How long to wait for it to stop before a signal, such as 10s.',
      default: '10s',
      parse: checkedBy((input) => waitMs(input, '--timeout')),
    }),
  }

  async run() {
    const { stopBackground } = await import('../../cli/detach/commands.js')
    const stopped = await stopBackground(this.flags.port, waitMs(this.flags.timeout, '--timeout'))
    if (this.flags.json) process.stdout.write(`${JSON.stringify(stopped)}\n`)
    return stopped
  }
}
