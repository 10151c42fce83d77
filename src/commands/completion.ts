import * as Args from '@oclif/core/args'

import { PayfacCommand } from '../cli/base-command.js'
import { SHELLS, completionFlags, completionScript, type Shell } from '../cli/terminal/completion.js'

export default class Completion extends PayfacCommand<typeof Completion> {
  static override summary = 'Print the shell completion script for bash, zsh or fish.'
  static override hiddenAliases = ['autocomplete']
  static override description =
    'Completes topics, commands, flags and the values of flags where they are known (choices, currency codes, profile names); a flag already typed is not offered again. Load it in your shell start-up file: bash `source <(payfac completion bash)` in ~/.bashrc; zsh `source <(payfac completion zsh)` in ~/.zshrc after compinit; fish `payfac completion fish > ~/.config/fish/completions/payfac.fish`.'

  static override examples = [
    '<%= config.bin %> completion bash >> ~/.bashrc',
    'source <(<%= config.bin %> completion zsh)',
    '<%= config.bin %> completion fish > ~/.config/fish/completions/payfac.fish',
  ]

  static override args = { shell: Args.string({ description: 'The shell: bash, zsh or fish.', required: true, options: [...SHELLS] }) }

  async run() {
    const { currencyCodes } = await import('../client/money.js')
    const commands = this.config.commands
      .filter((command) => !command.hidden)
      .map((command) => ({ id: command.id, summary: command.summary, flags: completionFlags(command.flags) }))
    process.stdout.write(completionScript(this.args.shell as Shell, this.config.bin, commands, currencyCodes()))
  }
}
