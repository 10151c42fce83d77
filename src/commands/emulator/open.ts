import { Flags } from '@oclif/core'

import { ApiCommand } from '../../cli/base-command.js'
import { namespaceFlag } from '../../cli/flags/emulator.js'
import { inspectorUrl, openUrl } from '../../cli/terminal/open-url.js'

export default class EmulatorOpen extends ApiCommand<typeof EmulatorOpen> {
  static override summary = "Open a running emulator's inspector in the default browser."
  static override description =
    'The inspector (/__emulator/ui on the emulator) shows the request log, webhook deliveries, the state by resource, ' +
    'the clock, fault rules and namespaces, updated live. The URL is printed on stdout; the browser is opened only on ' +
    'a terminal where there is one to open (a desktop session, macOS, Windows, or $BROWSER), so in CI or over SSH the URL is all.'

  static override examples = [
    '<%= config.bin %> emulator open',
    '<%= config.bin %> emulator open --namespace ci-run-42',
    '<%= config.bin %> emulator open --no-browser',
  ]

  static override flags = {
    namespace: namespaceFlag,
    browser: Flags.boolean({ description: 'Open the default browser (on a terminal that has one).', default: true, allowNo: true }),
  }

  async run() {
    const { baseUrl } = await this.settings()
    const url = inspectorUrl(baseUrl, this.flags.namespace)
    process.stdout.write(`${url}\n`)
    const opened = this.flags.browser && (await openUrl(url, Boolean(process.stdout.isTTY)))
    process.stderr.write(opened ? 'Opened the inspector in your default browser.\n' : 'Open the URL above in a browser to see the inspector.\n')
    return { url, opened }
  }
}
