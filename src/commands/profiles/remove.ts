import { Args } from '@oclif/core'

import { PayfacCommand } from '../../cli/base-command.js'

export default class ProfilesRemove extends PayfacCommand<typeof ProfilesRemove> {
  static override summary = 'Remove a profile and its stored credential.'
  static override examples = ['<%= config.bin %> profiles remove old-sandbox', '<%= config.bin %> profiles remove staging --json']

  static override args = { name: Args.string({ description: 'Profile name.', required: true }) }

  async run() {
    const { ProfileStore } = await import('../../config/index.js')
    new ProfileStore().remove(this.args.name)
    process.stderr.write(`Removed profile "${this.args.name}".\n`)
    if (this.flags.json) process.stdout.write(`${JSON.stringify({ removed: this.args.name })}\n`)
    return { removed: this.args.name }
  }
}
