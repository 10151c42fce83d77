import * as Args from '@oclif/core/args'
import { Command } from '@oclif/core/command'

export default class Help extends Command {
  static override summary = 'Show help for payfac, a topic or a command.'
  static override description =
    'The same page as `payfac TOPIC COMMAND --help`. `payfac help environment` lists every environment variable payfac reads and what it does.'

  static override examples = ['<%= config.bin %> help orders', '<%= config.bin %> help orders create', '<%= config.bin %> help environment']

  // The words of a topic or command as typed, however many.
  static override strict = false
  static override args = { words: Args.string({ description: 'The topic or command, as typed (orders create).', required: false }) }

  async run() {
    await this.parse(Help)
    // oclif's help (with payfac's help class), shown as for `payfac WORDS --help`.
    // oclif is CommonJS: bundled, its exports come as the default export.
    const loaded = (await import('@oclif/core/help')) as typeof import('@oclif/core/help') & { default?: typeof import('@oclif/core/help') }
    const HelpClass = await (loaded.default ?? loaded).loadHelpClass(this.config)
    await new HelpClass(this.config, this.config.pjson.oclif.helpOptions).showHelp([...this.argv, '--help'])
  }
}
