import { PayfacCommand } from '../../cli/base-command.js'
import { profileRow } from '../../cli/terminal/credentials.js'
import { profileView } from '../../output/views/profiles.js'

export default class ProfilesList extends PayfacCommand<typeof ProfilesList> {
  static override summary = 'List profiles; credentials are masked.'
  static override description = 'Includes the built-in `local` profile (the emulator on 127.0.0.1:4010) unless a stored profile has that name.'
  static override examples = ['<%= config.bin %> profiles list', '<%= config.bin %> profiles list --json']

  async run() {
    const { BUILTIN_LOCAL_PROFILE, maskCredential } = await import('../../config/profiles.js')
    const store = new (await import('../../config/store.js')).ProfileStore()
    const active = store.activeName()
    const rows = store.list().map((p) => profileRow(p, p.name === active, 'stored', maskCredential))
    if (!rows.some((r) => r.name === BUILTIN_LOCAL_PROFILE.name)) {
      rows.push(profileRow(BUILTIN_LOCAL_PROFILE, active === undefined, 'built-in', maskCredential))
    }
    return this.showAll(profileView, rows)
  }
}
