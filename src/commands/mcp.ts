import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../cli/base-command.js'
import { UsageError } from '../cli/errors/index.js'

export default class Mcp extends ApiCommand<typeof Mcp> {
  static override summary = "Serve the service's operations to an AI assistant as an MCP server on stdio, with every money guard kept."
  static override description =
    'Reads (every get and list, pages walked up to a cap the assistant can raise) answer at once. Every change is two calls: a preview (the payfac command with --dry-run: nothing is sent) that returns a one-time confirmation token bound to that exact call, then the same call with the token, which runs the payfac command itself: journal, locks, repeat checks and unknown outcomes as on the command line. On a production profile no change is offered unless you start it with --allow-writes production. Text from the service is returned marked as data. The profile is the active one (or --profile), fixed while it runs. See docs/mcp.md for adding it to an MCP client.'

  static override examples = [
    '<%= config.bin %> mcp',
    '<%= config.bin %> mcp --profile sandbox',
    '<%= config.bin %> mcp --profile prod --read-only',
    '<%= config.bin %> mcp --profile prod --allow-writes production',
  ]

  static override flags = {
    'allow-writes': Flags.string({
      description: 'Offer changes on a production profile too (each still needs its preview token). Without it, production is read-only.',
      options: ['production'],
    }),
    'read-only': Flags.boolean({ description: 'Offer no change at all, whatever the profile.', exclusive: ['allow-writes'] }),
  }

  async run() {
    if (this.flags['dry-run'] || this.flags.yes) {
      throw new UsageError(
        'payfac mcp takes neither --dry-run nor --yes',
        'Every change is previewed by the assistant first; --read-only offers no change at all',
      )
    }
    const { startMcp } = await import('../mcp/start.js')
    await startMcp({ flags: this.flags, settings: await this.settings(), client: await this.client(), root: this.config.root, version: this.config.version })
  }
}
