// Writes docs/commands.md, the map of every command, from oclif.manifest.json (made by
// `npm run build`) and the topics in package.json: each topic, each command with its summary,
// usage, flags and examples. Run `node scripts/commands-doc.mjs` after adding or changing a
// command; `--stdout` prints the map instead of writing it. test/contract/commands-doc.test.ts
// fails when docs/commands.md is not current.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** One line of table-safe text. */
function cell(text) {
  return String(text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim()
}

function anchor(text) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-')
}

function flagName(flag) {
  const long = flag.type === 'option' ? `--${flag.name}=<value>` : `--${flag.name}`
  return flag.char ? `-${flag.char}, ${long}` : long
}

function flagNotes(flag) {
  const notes = []
  if (flag.required) notes.push('required')
  if (flag.multiple && !/repeatable/i.test(flag.description ?? '')) notes.push('repeatable')
  if (flag.options?.length) notes.push(`one of: ${flag.options.join(', ')}`)
  if (flag.default !== undefined && flag.default !== false) notes.push(`default: ${flag.default}`)
  if (flag.exclusive?.length) notes.push(`not with: ${flag.exclusive.map((name) => `--${name}`).join(', ')}`)
  if (flag.dependsOn?.length) notes.push(`needs: ${flag.dependsOn.map((name) => `--${name}`).join(', ')}`)
  return notes.length ? `(${notes.join('; ')})` : ''
}

function usage(bin, command) {
  const args = Object.values(command.args ?? {}).map((arg) => (arg.required ? arg.name.toUpperCase() : `[${arg.name.toUpperCase()}]`))
  const hasFlags = Object.values(command.flags ?? {}).some((flag) => !flag.hidden)
  return [bin, ...command.id.split(':'), ...args, ...(hasFlags ? ['[FLAGS]'] : [])].join(' ')
}

function exampleText(bin, example) {
  const text = typeof example === 'string' ? example : example.command
  return text.replace(/<%= config\.bin %>/g, bin)
}

function commandSection(bin, command, globals) {
  const lines = [`### \`${bin} ${command.id.split(':').join(' ')}\``, '']
  if (command.summary) lines.push(cell(command.summary), '')
  if (command.description) lines.push(command.description.trim(), '')
  lines.push('```', usage(bin, command), '```', '')
  const args = Object.values(command.args ?? {})
  if (args.length) {
    lines.push('| Argument | Description |', '| --- | --- |')
    for (const arg of args) lines.push(`| \`${arg.name.toUpperCase()}\` | ${cell(arg.description)}${arg.required ? '' : ' (optional)'} |`)
    lines.push('')
  }
  const flags = Object.values(command.flags ?? {}).filter((flag) => !flag.hidden && !(flag.helpGroup === 'GLOBAL' && globals.has(flag.name)))
  if (flags.length) {
    lines.push('| Flag | Description |', '| --- | --- |')
    for (const flag of flags) {
      const notes = flagNotes(flag)
      lines.push(`| \`${flagName(flag)}\` | ${cell(flag.summary ?? flag.description)}${notes ? ` ${cell(notes)}` : ''} |`)
    }
    lines.push('')
  }
  const usesGlobals = Object.values(command.flags ?? {}).some((flag) => flag.helpGroup === 'GLOBAL')
  if (usesGlobals) {
    const names = Object.values(command.flags ?? {})
      .filter((flag) => flag.helpGroup === 'GLOBAL' && globals.has(flag.name))
      .map((flag) => `\`--${flag.name}\``)
    lines.push(`Global flags: ${names.join(', ')} (see [Global flags](#global-flags)).`, '')
  }
  if (command.examples?.length) {
    lines.push('Examples:', '', '```sh', ...command.examples.map((example) => exampleText(bin, example)), '```', '')
  }
  return lines
}

/** The whole Markdown map from a manifest and package.json. */
export function renderCommandsDoc(manifest, pkg) {
  const bin = pkg.oclif?.bin ?? pkg.name
  const topics = pkg.oclif?.topics ?? {}
  const commands = Object.values(manifest.commands)
    .filter((command) => !command.hidden)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

  // Global flags: those in the GLOBAL help group, described once (the first description seen).
  const globals = new Map()
  for (const command of commands) {
    for (const flag of Object.values(command.flags ?? {})) {
      if (flag.helpGroup === 'GLOBAL' && !globals.has(flag.name)) globals.set(flag.name, flag)
    }
  }

  const groups = new Map()
  for (const command of commands) {
    const topic = command.id.split(':')[0]
    if (!groups.has(topic)) groups.set(topic, [])
    groups.get(topic).push(command)
  }

  const lines = [
    '# Commands',
    '',
    `Every command of \`${bin}\`, by topic. This file is generated from the commands by`,
    '`node scripts/commands-doc.mjs` (after `npm run build`); do not edit it by hand.',
    '',
    '## Topics',
    '',
    '| Topic | Description | Commands |',
    '| --- | --- | --- |',
  ]
  for (const [topic, members] of groups) {
    lines.push(`| [${topic}](#${anchor(topic)}) | ${cell(topics[topic]?.description)} | ${members.length} |`)
  }
  lines.push('', '## Global flags', '', 'Flags every command that calls the service takes (output flags: every command).', '')
  lines.push('| Flag | Description |', '| --- | --- |')
  for (const flag of [...globals.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    lines.push(`| \`${flagName(flag)}\` | ${cell(flag.summary ?? flag.description)} |`)
  }
  lines.push('')

  for (const [topic, members] of groups) {
    lines.push(`## ${topic}`, '')
    if (topics[topic]?.description) lines.push(cell(topics[topic].description), '')
    const nested = Object.keys(topics)
      .filter((name) => name.startsWith(`${topic}:`))
      .sort()
    if (nested.length) {
      for (const name of nested) lines.push(`- \`${bin} ${name.split(':').join(' ')}\`: ${cell(topics[name].description)}`)
      lines.push('')
    }
    for (const command of members) lines.push(...commandSection(bin, command, globals))
  }
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`
}

export function readSources(dir = root) {
  const manifest = JSON.parse(readFileSync(join(dir, 'oclif.manifest.json'), 'utf8'))
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  return { manifest, pkg }
}

export const OUTPUT = join(root, 'docs', 'commands.md')

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let sources
  try {
    sources = readSources()
  } catch (error) {
    console.error(`commands-doc: cannot read oclif.manifest.json or package.json (${error.message}); run \`npm run build\` first`)
    process.exit(1)
  }
  const text = renderCommandsDoc(sources.manifest, sources.pkg)
  if (process.argv.includes('--stdout')) process.stdout.write(text)
  else {
    writeFileSync(OUTPUT, text)
    console.error(`commands-doc: wrote ${OUTPUT}`)
  }
}
