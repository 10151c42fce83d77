import { join } from 'node:path'

import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../cli/base-command.js'
import { liveKeyOnDisk } from '../cli/diagnose/checks.js'
import { checkCredential, whoamiRows } from '../cli/diagnose/whoami.js'
import { settingView } from '../output/views/diagnostics.js'

export default class Whoami extends ApiCommand<typeof Whoami> {
  static override summary = 'Show the profile, environment, base URL and credential (masked) in use, and where each came from.'
  static override description =
    'Nothing is sent to the service unless --check. Each setting names the source that won: a flag, an environment variable, the profile chosen, or the built-in local profile. --check asks the service whether the credential works (one GET /merchants?limit=1) and adds a check row: accepted (exit 0) or refused (exit 4).'

  static override examples = [
    '<%= config.bin %> whoami',
    '<%= config.bin %> whoami --check',
    '<%= config.bin %> whoami --profile sandbox',
    '<%= config.bin %> whoami --json',
  ]

  static override flags = {
    check: Flags.boolean({ description: 'Ask the service whether the credential works (one cheap read); exit 4 when it is refused.' }),
  }

  async run() {
    const { maskCredential, resolveConfigDir } = await import('../config/index.js')
    const settings = await this.settings()
    const warning = liveKeyOnDisk(settings, join(resolveConfigDir(), 'profiles.json'))
    if (warning)
      process.stderr.write(`${warning}
`)
    const rows = whoamiRows(settings, maskCredential)
    const check = this.flags.check ? await checkCredential(await this.client(), settings.baseUrl) : undefined
    await this.showAll(settingView, check ? [...rows, check.row] : rows)
    if (check?.refusal) throw check.refusal
    return rows
  }
}
