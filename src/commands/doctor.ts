import { join } from 'node:path'

import { ApiCommand } from '../cli/base-command.js'
import {
  checkCredentialStore,
  checkJournalPermissions,
  checkKeyPrefix,
  checkNode,
  checkService,
  checkSharedJournal,
  checkSettings,
  checkStorePermissions,
  concludeChecks,
} from '../cli/diagnose/checks.js'
import { checkView, type CheckRow } from '../output/views/diagnostics.js'

export default class Doctor extends ApiCommand<typeof Doctor> {
  static override summary =
    'Check the set-up: config store permissions, where the credential is kept, key against environment, the shared journal, service, credential, clock and Node.'
  static override description =
    'Each check passes or says how to fix it. Exit 0 only when every check passes; otherwise the exit code of the first failure (3 configuration, 4 credential refused, 7 service unreachable).'

  static override examples = ['<%= config.bin %> doctor', '<%= config.bin %> doctor --profile production', '<%= config.bin %> doctor --json']

  async run() {
    const { resolveConfigDir } = await import('../config/index.js')
    const rows: CheckRow[] = [checkStorePermissions(resolveConfigDir()), checkJournalPermissions(resolveConfigDir()), checkNode()]
    const { row, settings } = await checkSettings(() => this.settings())
    rows.push(row)
    if (settings)
      rows.push(
        checkCredentialStore(settings, join(resolveConfigDir(), 'profiles.json')),
        checkKeyPrefix(settings),
        ...(await checkSharedJournal(settings)),
        ...(await checkService(await this.client(), settings.baseUrl)),
      )
    await this.showAll(checkView, rows)
    concludeChecks(rows, this.flags)
    return rows
  }
}
