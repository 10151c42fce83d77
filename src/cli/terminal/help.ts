// oclif's help, for what the fast help (../start/fast-help.ts) leaves to it (plugin commands, a
// manifest of another version, bin/dev.js): oclif wraps text between words, but prints examples
// as they are, so a terminal broke long ones inside a word. Here each long example is cut
// between words into lines ending in ` \`, as the fast help does (package.json oclif.helpClass).
import { type Command, CommandHelp, Help } from '@oclif/core'

import { wrapCommand } from '../start/fast-help.js'

class PayfacCommandHelp extends CommandHelp {
  protected override examples(examples: Command.Example[] | string | undefined): string | undefined {
    const text = super.examples(examples)
    if (text === undefined) return undefined
    // The section indents its body by two columns more.
    const width = this.opts.maxWidth - 2
    return text
      .split('\n')
      .flatMap((line) => {
        const indent = /^\s*/.exec(line)?.[0] ?? ''
        return wrapCommand(line.slice(indent.length), width - indent.length).map((part) => `${indent}${part}`)
      })
      .join('\n')
  }
}

export default class PayfacHelp extends Help {
  protected override getCommandHelpClass(command: Command.Loadable): CommandHelp {
    return new PayfacCommandHelp(command, this.config, this.opts)
  }
}
