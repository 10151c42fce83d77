import { PayfacCommand } from '../../cli/base-command.js'
import { recordPortFlag } from '../../cli/flags/emulator.js'
import { backgroundEmulatorView } from '../../output/views/emulator.js'

export default class EmulatorStatus extends PayfacCommand<typeof EmulatorStatus> {
  static override summary = 'Show the emulators started in the background (emulator start --detach).'
  static override description =
    'One row per background emulator of this config folder: port, base URL, process, status (running, or not answering), ' +
    'namespace, start time and log file. Each is checked before it is shown: one whose process is gone, or whose process id ' +
    'now names another program, is not shown; its record is removed and stderr says so. With none running, stderr says so ' +
    '(and --json prints []). Exit 0 either way.'

  static override examples = [
    '<%= config.bin %> emulator status',
    '<%= config.bin %> emulator status --json',
    '<%= config.bin %> emulator status --port 4011 --columns port,status,logFile',
  ]

  static override flags = { port: recordPortFlag }

  async run() {
    const { backgroundRows } = await import('../../cli/detach/commands.js')
    const rows = await backgroundRows(this.flags.port)
    return this.showAll(backgroundEmulatorView, rows, 'table', () => 'No emulator started with --detach is running.')
  }
}
