// Help without loading oclif: root, topic and command help rendered from oclif.manifest.json and
// package.json alone, so `payfac --help` answers in a few milliseconds. Anything this does not
// recognise (an unknown command, a flag it cannot place) returns undefined and oclif answers.
// Only node:* and JSON here: this module is on the start-up path.

import { wrapWords as wrap } from '../../output/terminal.js'
import { commandEnvironment, environmentHelp } from './environment-help.js'

export interface ManifestFlag {
  name: string
  type: 'boolean' | 'option'
  char?: string
  description?: string
  summary?: string
  helpGroup?: string
  multiple?: boolean
  options?: string[]
  required?: boolean
  default?: unknown
  allowNo?: boolean
  hidden?: boolean
}

export interface ManifestArg {
  name: string
  description?: string
  required?: boolean
  options?: string[]
}

export interface ManifestCommand {
  id: string
  summary?: string
  description?: string
  examples?: Array<string | { description?: string; command: string }>
  flags: Record<string, ManifestFlag>
  args: Record<string, ManifestArg>
  hidden?: boolean
  state?: string
}

export interface HelpSources {
  bin: string
  version: string
  description: string
  topics: Record<string, { description?: string; hidden?: boolean }>
  commands: Record<string, ManifestCommand>
  width: number
}

/** True when these arguments ask for help (and nothing after a `--`). */
export function wantsHelp(argv: string[]): boolean {
  if (argv.length === 0 || argv[0] === 'help') return true
  const end = argv.indexOf('--')
  const head = end === -1 ? argv : argv.slice(0, end)
  return head.includes('--help') || head.includes('-h')
}

/** The help text for these arguments, or undefined to let oclif decide. */
export function renderHelp(argv: string[], sources: HelpSources): string | undefined {
  const words = (argv[0] === 'help' ? argv.slice(1) : argv).filter((a) => !a.startsWith('-'))
  if (words.length === 0) return rootHelp(sources)
  if (argv[0] === 'help' && words.length === 1 && words[0] === 'environment') return environmentHelp(sources.bin, sources.width)
  for (let n = words.length; n > 0; n--) {
    const id = words.slice(0, n).join(':')
    const command = sources.commands[id]
    if (command && !command.hidden) return commandHelp(command, sources)
    if (isTopic(id, sources)) return n === words.length ? topicHelp(id, sources) : undefined
  }
  return undefined
}

export function isTopic(id: string, sources: Pick<HelpSources, 'commands'>): boolean {
  return Object.keys(sources.commands).some((c) => c.startsWith(`${id}:`))
}

function display(id: string): string {
  return id.split(':').join(' ')
}

function rootHelp(s: HelpSources): string {
  const topics = new Map<string, string>()
  const commands: Array<[string, string]> = []
  for (const command of Object.values(s.commands)) {
    if (command.hidden) continue
    const [first] = command.id.split(':') as [string]
    if (command.id.includes(':')) topics.set(first, s.topics[first]?.description ?? '')
    else if (!Object.keys(s.commands).some((c) => c.startsWith(`${first}:`))) commands.push([first, command.summary ?? ''])
    else topics.set(first, s.topics[first]?.description ?? command.summary ?? '')
  }
  const out = [
    s.description,
    '',
    section('VERSION', [`${s.bin}/${s.version} ${process.platform}-${process.arch} node-${process.version}`]),
    section('USAGE', [`$ ${s.bin} [COMMAND]`]),
  ]
  out.push(
    section(
      'TOPICS',
      table(
        [...topics].sort(([a], [b]) => a.localeCompare(b)),
        s.width - 2,
      ),
    ),
  )
  if (commands.length)
    out.push(
      section(
        'COMMANDS',
        table(
          commands.sort(([a], [b]) => a.localeCompare(b)),
          s.width - 2,
        ),
      ),
    )
  out.push(`Run \`${s.bin} TOPIC --help\` or \`${s.bin} TOPIC COMMAND --help\` for more; \`${s.bin} help environment\` for the environment variables.`)
  return `${out.join('\n')}\n`
}

function topicHelp(id: string, s: HelpSources): string {
  const depth = id.split(':').length
  const rows: Array<[string, string]> = []
  const subtopics = new Map<string, string>()
  for (const command of Object.values(s.commands)) {
    if (command.hidden || !command.id.startsWith(`${id}:`)) continue
    const parts = command.id.split(':')
    if (parts.length === depth + 1) rows.push([display(command.id), command.summary ?? ''])
    else {
      const sub = parts.slice(0, depth + 1).join(':')
      subtopics.set(display(sub), s.topics[sub]?.description ?? '')
    }
  }
  const self = s.commands[id]
  const out = [wrap(s.topics[id]?.description ?? self?.summary ?? '', s.width), '']
  out.push(section('USAGE', [`$ ${s.bin} ${display(id)} COMMAND`]))
  if (subtopics.size)
    out.push(
      section(
        'TOPICS',
        table(
          [...subtopics].sort(([a], [b]) => a.localeCompare(b)),
          s.width - 2,
        ),
      ),
    )
  if (rows.length)
    out.push(
      section(
        'COMMANDS',
        table(
          rows.sort(([a], [b]) => a.localeCompare(b)),
          s.width - 2,
        ),
      ),
    )
  return `${out.join('\n').trimEnd()}\n`
}

function commandHelp(c: ManifestCommand, s: HelpSources): string {
  const args = Object.values(c.args ?? {})
  const flags = Object.values(c.flags ?? {}).filter((f) => !f.hidden)
  const usage = [`$ ${s.bin} ${display(c.id)}`, ...args.map((a) => (a.required ? a.name.toUpperCase() : `[${a.name.toUpperCase()}]`))]
  if (flags.length) usage.push('[FLAGS]')
  const out: string[] = []
  if (c.summary) out.push(wrap(c.summary, s.width), '')
  out.push(section('USAGE', [usage.join(' ')]))
  if (args.length)
    out.push(
      section(
        'ARGUMENTS',
        table(
          args.map((a) => [a.name.toUpperCase(), a.description ?? '']),
          s.width - 2,
        ),
      ),
    )
  const groups = new Map<string, ManifestFlag[]>()
  for (const flag of flags.sort((a, b) => a.name.localeCompare(b.name))) {
    const group = flag.helpGroup ? `${flag.helpGroup} FLAGS` : 'FLAGS'
    groups.set(group, [...(groups.get(group) ?? []), flag])
  }
  const order = [...groups.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  for (const group of order) {
    const members = groups.get(group) ?? []
    const short = members.some((f) => f.char)
    out.push(
      section(
        group,
        table(
          members.map((f) => flagRow(f, short)),
          s.width - 2,
        ),
      ),
    )
  }
  const description = c.description && c.description !== c.summary ? c.description : undefined
  if (description)
    out.push(
      section(
        'DESCRIPTION',
        description.split('\n').map((line) => wrap(line, s.width - 2)),
      ),
    )
  if (c.examples?.length) {
    const lines = c.examples.flatMap((e, i) => {
      const text = typeof e === 'string' ? e : e.command
      const note = typeof e === 'string' ? [] : e.description ? [e.description] : []
      return [
        ...(i ? [''] : []),
        ...note,
        ...wrapCommand(`$ ${text.replace(/<%= config\.bin %>/g, s.bin).replace(/<%= command\.id %>/g, display(c.id))}`, s.width - 2),
      ]
    })
    out.push(section('EXAMPLES', lines))
  }
  const variables = commandEnvironment(c.id, Object.keys(c.flags ?? {}))
  if (variables.length) out.push(section('ENVIRONMENT', [wrap(`${variables.join(', ')} (what each does: ${s.bin} help environment)`, s.width - 2)]))
  return `${out.join('\n').trimEnd()}\n`
}

function rank(group: string): number {
  if (group === 'FLAGS') return 0
  if (group === 'GLOBAL FLAGS') return 2
  return 1
}

function flagRow(f: ManifestFlag, short: boolean): [string, string] {
  const name = `${f.char ? `-${f.char}, ` : short ? '    ' : ''}--${f.allowNo ? '[no-]' : ''}${f.name}`
  const value = f.type === 'option' ? `=${f.options?.length ? f.options.join('|') : '<value>'}${f.multiple ? '...' : ''}` : ''
  let text = f.summary ?? f.description ?? ''
  if (f.required) text = `(required) ${text}`
  if (f.default !== undefined && f.default !== false && typeof f.default !== 'object') text += ` [default: ${String(f.default)}]`
  return [`${name}${value}`, text]
}

function section(title: string, lines: string[]): string {
  const body = lines.flatMap((l) => l.split('\n')).map((l) => (l ? `  ${l}` : ''))
  return `${title}\n${body.join('\n')}\n`
}

/** Two columns, the second wrapped to the width left. */
function table(rows: Array<[string, string]>, width: number): string[] {
  const left = Math.min(Math.max(0, ...rows.map(([a]) => a.length)), 40)
  return rows.flatMap(([a, b]) => {
    const room = Math.max(20, width - left - 2)
    const wrapped = wrap(b, room).split('\n')
    if (a.length > left) return [a, ...wrapped.map((w) => `${' '.repeat(left + 2)}${w}`)]
    return wrapped.map((w, i) => (i === 0 ? `${a.padEnd(left)}  ${w}` : `${' '.repeat(left + 2)}${w}`).trimEnd())
  })
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
      : wrap(
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
