// payfac's help: oclif's help class (package.json oclif.helpClass), changed only through the
// methods oclif's Help and CommandHelp offer for it. It renders every help page: live at a
// terminal, and at build time into dist/help.json (scripts/help-pages.mjs), which a command line
// without a terminal prints as it is (../start/help-pages.ts). What payfac changes:
// - the usage line names the arguments and ends in [FLAGS], instead of listing every flag;
// - examples are cut between words into lines ending in ` \`, so that a terminal never breaks one
//   inside a word (oclif prints them as they are);
// - a command's help ends with the environment variables it reads, and `payfac help environment`
//   explains them all (./environment-help.ts);
// - the root help's version is payfac's own (`payfac --version` prints the platform and Node), and
//   it ends with where to look next.
import { type Command, CommandHelp, Help } from '@oclif/core'

import { wrapWords } from '../../output/terminal.js'
import { commandEnvironment, environmentHelp } from './environment-help.js'

/** The help topic that is not a command: `payfac help environment`. */
export const ENVIRONMENT_TOPIC = 'environment'

class PayfacCommandHelp extends CommandHelp {
  protected override defaultUsage(): string {
    const args = Object.values(this.command.args ?? {}).filter((a) => !a.hidden)
    const names = args.map((a) => (a.required ? a.name.toUpperCase() : `[${a.name.toUpperCase()}]`))
    const flags = Object.values(this.command.flags ?? {}).some((f) => !f.hidden)
    return [...names, ...(flags ? ['[FLAGS]'] : [])].join(' ')
  }

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

  protected override sections(): ReturnType<CommandHelp['sections']> {
    const variables = commandEnvironment(this.command.id, Object.keys(this.command.flags ?? {}))
    if (variables.length === 0) return super.sections()
    return [
      ...super.sections(),
      { header: 'ENVIRONMENT', generate: () => this.wrap(`${variables.join(', ')} (what each does: ${this.config.bin} help ${ENVIRONMENT_TOPIC})`) },
    ]
  }
}

export default class PayfacHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    const words = argv.filter((a) => !a.startsWith('-'))
    if (words.length === 1 && words[0] === ENVIRONMENT_TOPIC && !this.config.findCommand(ENVIRONMENT_TOPIC)) {
      this.log(environmentHelp(this.config.bin, this.opts.maxWidth).trimEnd())
      return
    }
    await super.showHelp(argv)
  }

  override formatRoot(): string {
    // oclif's VERSION line is the user agent (platform and Node): the same on every machine here.
    return super.formatRoot().replace(this.config.userAgent, `${this.config.name}/${this.config.version}`)
  }

  protected override async showRootHelp(): Promise<void> {
    await super.showRootHelp()
    const { bin } = this.config
    this.log(
      this.wrap(`Run \`${bin} TOPIC --help\` or \`${bin} TOPIC COMMAND --help\` for more; \`${bin} help ${ENVIRONMENT_TOPIC}\` for the environment variables.`),
    )
  }

  protected override getCommandHelpClass(command: Command.Loadable): CommandHelp {
    return new PayfacCommandHelp(command, this.config, this.opts)
  }
}

/**
 * A shell command that fits `width`: cut between words (never inside a quoted word) into lines
 * ending in ` \`, the next ones indented, so a terminal never breaks a word and the text still
 * runs when pasted. A trailing `# comment` goes on its own lines, above the command.
 */
export function wrapCommand(line: string, width: number): string[] {
  if (line.length <= width) return [line]
  const words = line.match(/(?:'[^']*'|"(?:\\.|[^"\\])*"|[^\s'"])+/g) ?? [line]
  const hash = words.findIndex((w) => w.startsWith('#'))
  const comment =
    hash === -1
      ? []
      : wrapWords(
          words
            .slice(hash)
            .join(' ')
            .replace(/^#+\s*/, ''),
          width - 2,
        )
          .split('\n')
          .map((l) => `# ${l}`)
  const lines: string[] = []
  let current = ''
  for (const word of hash === -1 ? words : words.slice(0, hash)) {
    if (current && current.length + 1 + word.length + 2 > width) {
      lines.push(`${current} \\`)
      current = `    ${word}`
    } else current = current ? `${current} ${word}` : word
  }
  return [...comment, ...lines, current]
}
