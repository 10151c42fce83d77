import * as Args from '@oclif/core/args'

import { PayfacCommand } from '../../cli/base-command.js'
import { profileRow } from '../../cli/terminal/credentials.js'
import { profileView } from '../../output/views/profiles.js'

export default class ProfilesShow extends PayfacCommand<typeof ProfilesShow> {
  static override summary = 'Show a profile (the active one by default); the credential is masked.'
  static override examples = ['<%= config.bin %> profiles show', '<%= config.bin %> profiles show sandbox --json']

  static override args = { name: Args.string({ description: 'Profile name; the active profile when omitted.', ignoreStdin: true }) }

  async run() {
    const { BUILTIN_LOCAL_PROFILE, maskCredential } = await import('../../config/profiles.js')
    const { ConfigError } = await import('../../config/errors.js')
    const store = new (await import('../../config/store.js')).ProfileStore()
    const active = store.activeName()
    const name = this.args.name ?? active ?? BUILTIN_LOCAL_PROFILE.name
    const stored = store.get(name)
    if (!stored && name !== BUILTIN_LOCAL_PROFILE.name) {
      throw new ConfigError(`No profile named "${name}"`, 'See `payfac profiles list`.')
    }
    const row = stored
      ? profileRow(stored, name === active, 'stored', maskCredential)
      : profileRow(BUILTIN_LOCAL_PROFILE, active === undefined, 'built-in', maskCredential)
    return this.show(profileView, row)
  }
}
