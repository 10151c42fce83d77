import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { PayfacCommand } from '../../cli/base-command.js'
import { confirmProfileRemoval } from '../../cli/safety/guard.js'

export default class ProfilesRemove extends PayfacCommand<typeof ProfilesRemove> {
  static override summary = 'Remove a profile and its stored credential (from the file or the OS keychain).'
  static override description = 'A production profile is removed only after a confirmation on a terminal, or with --yes (exit 3 otherwise).'
  static override examples = [
    '<%= config.bin %> profiles remove old-sandbox',
    '<%= config.bin %> profiles remove staging --json',
    '<%= config.bin %> profiles remove prod --yes',
  ]

  static override args = { name: Args.string({ description: 'Profile name.', required: true }) }

  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'Remove a production profile without asking.' }),
    'dry-run': Flags.boolean({ description: 'Say which profile would be removed, and remove nothing.' }),
  }

  async run() {
    const { ProfileStore } = await import('../../config/index.js')
    const store = new ProfileStore()
    const profile = store.get(this.args.name)
    const shown = profile && { ...profile, credential: profile.credential ?? profile.credentialMasked ?? '' }
    if (!(await confirmProfileRemoval(shown, { yes: this.flags.yes, dryRun: this.flags['dry-run'], noInput: this.flags['no-input'] }))) {
      process.stdout.write(`${JSON.stringify({ dryRun: true, wouldRemove: this.args.name })}\n`)
      return { removed: null }
    }
    await store.remove(this.args.name)
    if (profile) await (await import('../../config/secrets.js')).forgetSecret(profile)
    process.stderr.write(`Removed profile "${this.args.name}".\n`)
    if (this.flags.json) process.stdout.write(`${JSON.stringify({ removed: this.args.name })}\n`)
    return { removed: this.args.name }
  }
}
