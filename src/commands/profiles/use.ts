import * as Args from '@oclif/core/args'

import { PayfacCommand } from '../../cli/base-command.js'

export default class ProfilesUse extends PayfacCommand<typeof ProfilesUse> {
  static override summary = 'Make a profile the active one.'
  static override description = 'Commands use the active profile unless --profile or PAYFAC_PROFILE says otherwise.'
  static override examples = ['<%= config.bin %> profiles use sandbox', '<%= config.bin %> profiles use production']

  static override args = { name: Args.string({ description: 'Profile name.', required: true }) }

  async run() {
    const { ProfileStore } = await import('../../config/index.js')
    await new ProfileStore().use(this.args.name)
    process.stderr.write(`Active profile: ${this.args.name}\n`)
    if (this.flags.json) process.stdout.write(`${JSON.stringify({ active: this.args.name })}\n`)
    return { active: this.args.name }
  }
}
