// Finding the command in the arguments: the small index that `npm run build` writes
// (dist/bundle/commands.json, see scripts/command-index.mjs) names every command id, so the id
// is found without loading oclif's help system (which oclif's `run` uses for that), and the help
// pages (help-pages.ts) know a command from a topic without reading the whole manifest.
// oclif's configuration then runs the command (runRoute). Whatever the index cannot answer (an
// unknown command or topic, a command from a plugin, a build whose index is missing or stale)
// is left to oclif's `run`: route() returns undefined.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

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
 * Runs the command found, the way oclif's own `run` does once it knows the id: oclif's
 * configuration, loaded from package.json and oclif.manifest.json, runs it (`Config.runCommand`,
 * which imports the bundled command file the manifest names). Only the look-up of the id in the
 * arguments is ours, from the index, so that oclif's help system is not loaded to find it.
 */
export async function runRoute(found: Route, binUrl: string): Promise<void> {
  const config = await configOf(fileURLToPath(new URL('..', binUrl)))
  await config.runCommand(found.id, found.argv)
}

/**
 * oclif's configuration of the installation at `root`, loaded once a process. A CLI process runs
 * one command; the in-process test runner runs many, and each command gets a configuration of its
 * own anyway (Command.run loads one from the configuration it is given).
 */
const configs = new Map<string, Promise<import('@oclif/core/config').Config>>()
function configOf(root: string): Promise<import('@oclif/core/config').Config> {
  let config = configs.get(root)
  if (!config) {
    config = (async () => {
      // oclif is CommonJS: bundled, it comes back as the default export.
      const loaded = (await import('@oclif/core/config')) as typeof import('@oclif/core/config') & { default?: typeof import('@oclif/core/config') }
      return (loaded.default ?? loaded).Config.load(root)
    })()
    configs.set(root, config)
    config.catch(() => configs.delete(root))
  }
  return config
}
