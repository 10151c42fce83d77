// The fast start of a command: find it in the small index that `npm run build` writes
// (dist/bundle/commands.json, see scripts/command-index.mjs), import its bundled file and run it,
// without loading oclif's configuration, which reads every plugin and parses the whole manifest.
// Whatever the index cannot answer (an unknown command or topic, a command from a plugin, a
// build whose index is missing or stale) is left to oclif: route() returns undefined.
// Only node:* and JSON here: this module is on the start-up path.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import type { Command, Config } from '@oclif/core'

export interface IndexEntry {
  /** The bundled command file, relative to dist/bundle/. */
  file: string
  /** True when the command takes positional arguments (so no further word can be part of its id). */
  args: boolean
}

export interface CommandIndex {
  version: string
  /** False when hooks or run-time plugins mean that only oclif may run commands. */
  fast: boolean
  commands: Record<string, IndexEntry>
}

export interface Route {
  id: string
  entry: IndexEntry
  /** The arguments after the command id. */
  argv: string[]
}

interface PackageJson {
  name: string
  version: string
  oclif: { bin: string; dirname?: string; topics?: Record<string, { description?: string; hidden?: boolean }> }
}

/** The index next to the bundle, or undefined when it is missing, unreadable or from another version. */
export function readIndex(binUrl: string, version: string): CommandIndex | undefined {
  try {
    const index = JSON.parse(readFileSync(new URL('../dist/bundle/commands.json', binUrl), 'utf8')) as CommandIndex
    return index.version === version && index.fast && typeof index.commands === 'object' ? index : undefined
  } catch {
    return undefined
  }
}

/**
 * Where the command id ends in the arguments, as oclif finds it when topics are separated by
 * spaces: words are taken while they extend a known id or topic; an unknown word ends the id at
 * a flag, a `key=value`, or after a command that takes arguments, and otherwise joins it (so that
 * oclif reports it as an unknown command). undefined unless the id found is a command of the index.
 */
export function route(index: CommandIndex, argv: string[]): Route | undefined {
  const [first] = argv
  if (first === undefined) return undefined
  if (first.includes(':')) return found(index, first, argv.slice(1))
  if (argv.length === 1) return found(index, first, [])
  const words: string[] = []
  for (const arg of argv) {
    const id = [...words, arg].join(':')
    if (isUsable(index, id)) words.push(arg)
    else if (arg.startsWith('-') || arg.includes('=') || takesArgs(index, words.join(':'))) break
    else words.push(arg)
  }
  const id = words.join(':')
  return id ? found(index, id, argv.slice(words.length)) : undefined
}

function found(index: CommandIndex, id: string, argv: string[]): Route | undefined {
  const entry = Object.hasOwn(index.commands, id) ? index.commands[id] : undefined
  return entry ? { id, entry, argv } : undefined
}

/** A command id, or the topic of one. */
function isUsable(index: CommandIndex, id: string): boolean {
  return Object.hasOwn(index.commands, id) || Object.keys(index.commands).some((c) => c.startsWith(`${id}:`))
}

function takesArgs(index: CommandIndex, id: string): boolean {
  return id !== '' && Object.hasOwn(index.commands, id) && (index.commands[id]?.args ?? false)
}

/**
 * Imports the command's bundled file and runs it as oclif's runCommand would (construct, then
 * `_run`), with a configuration holding what a command reads from it.
 */
export async function runRoute(found: Route, index: CommandIndex, pkg: PackageJson, binUrl: string): Promise<void> {
  const url = new URL(`../dist/bundle/${found.entry.file}`, binUrl)
  const { default: CommandClass } = (await import(url.href)) as { default: (new (argv: string[], config: Config) => Command) & { id?: string } }
  // oclif gives each command class its id when it loads it.
  CommandClass.id = found.id
  const command = new CommandClass(found.argv, lightConfig(index, pkg, binUrl)) as unknown as {
    debug: (...args: unknown[]) => void
    _run(): Promise<unknown>
  }
  // oclif's debug log prints only when DEBUG names it; without DEBUG there is no need to load
  // the logging package just to say nothing.
  if (!process.env.DEBUG) command.debug = () => {}
  await command._run()
}

/**
 * The parts of oclif's Config that a command and oclif's Command base use while running: names,
 * version, the environment variable scope, the command ids (to recognise the command again),
 * hooks, of which there are none when the index answers (see scripts/command-index.mjs), and,
 * read from the manifest only when a command asks (`payfac completion`), the commands and topics
 * as oclif lists them. A command that needs more of oclif's configuration adds it here.
 */
export function lightConfig(index: CommandIndex, pkg: PackageJson, binUrl: string): Config {
  const bin = pkg.oclif.bin
  const scoped = (key: string) => [bin, key].map((part) => part.replaceAll('@', '').replaceAll(/[-/]/g, '_').toUpperCase()).join('_')
  const config = {
    name: pkg.name,
    version: pkg.version,
    bin,
    dirname: pkg.oclif.dirname ?? bin,
    pjson: pkg,
    root: fileURLToPath(new URL('..', binUrl)).replace(/[\\/]$/, ''),
    platform: process.platform,
    arch: process.arch,
    windows: process.platform === 'win32',
    topicSeparator: ' ',
    userAgent: `${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}`,
    commandIDs: Object.keys(index.commands),
    // oclif looks a command up again only to know whether it takes arguments (normalizeArgv).
    findCommand: (name: string) => (Object.hasOwn(index.commands, name) ? { id: name, args: index.commands[name]?.args ? { argument: {} } : {}, strict: true } : undefined),
    scopedEnvVarKey: scoped,
    scopedEnvVarKeys: (key: string) => [scoped(key)],
    scopedEnvVar: (key: string) => process.env[scoped(key)],
    scopedEnvVarTrue: (key: string) => ['true', '1'].includes(process.env[scoped(key)] ?? ''),
    runHook: async () => ({ successes: [], failures: [] }),
    theme: undefined,
    get commands() {
      return manifestCommands(binUrl)
    },
    get topics() {
      return manifestTopics(binUrl, pkg)
    },
  }
  return config as unknown as Config
}

interface ManifestEntry {
  id: string
  summary?: string
  description?: string
  hidden?: boolean
  aliases?: string[]
  hiddenAliases?: string[]
}

/** Every command of the manifest and every alias of one, as oclif's `config.commands` lists them. */
function manifestCommands(binUrl: string): ManifestEntry[] {
  const manifest = JSON.parse(readFileSync(new URL('../oclif.manifest.json', binUrl), 'utf8')) as { commands: Record<string, ManifestEntry> }
  return Object.values(manifest.commands).flatMap((command) => [
    command,
    ...(command.aliases ?? []).map((alias) => ({ ...command, id: alias })),
    ...(command.hiddenAliases ?? []).map((alias) => ({ ...command, hidden: true, id: alias })),
  ])
}

/** The topics of package.json, and every prefix of a visible command's id, as oclif lists them. */
function manifestTopics(binUrl: string, pkg: PackageJson): Array<{ name: string; description?: string; hidden?: boolean }> {
  const topics = new Map(Object.entries(pkg.oclif.topics ?? {}).map(([name, topic]) => [name, { name, ...topic }]))
  for (const command of manifestCommands(binUrl)) {
    if (command.hidden) continue
    const parts = command.id.split(':')
    for (let n = parts.length; n > 0; n--) {
      const name = parts.slice(0, n).join(':')
      if (!topics.has(name)) topics.set(name, { name, description: command.summary || command.description })
    }
  }
  return [...topics.values()]
}
