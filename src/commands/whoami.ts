import { join } from 'node:path'

import { ApiCommand } from '../cli/base-command.js'
import { liveKeyOnDisk } from '../cli/diagnose/checks.js'
import { whoamiRows } from '../cli/diagnose/whoami.js'
import { settingView } from '../output/views/diagnostics.js'

export default class Whoami extends ApiCommand<typeof Whoami> {
  static override summary = 'Show the profile, environment, base URL and credential (masked) in use, and where each came from.'
  static override description =
    'Nothing is sent to the service. Each setting names the source that won: a flag, an environment variable, the profile chosen, or the built-in local profile.'

  static override examples = ['<%= config.bin %> whoami', '<%= config.bin %> whoami --profile sandbox', '<%= config.bin %> whoami --json']

  async run() {
    const { maskCredential, resolveConfigDir } = await import('../config/index.js')
    const settings = await this.settings()
    const warning = liveKeyOnDisk(settings, join(resolveConfigDir(), 'profiles.json'))
    if (warning) process.stderr.write(`${warning}\n`)
    const rows = whoamiRows(settings, maskCredential)
    await this.showAll(settingView, rows)
    return rows
  }
}
