// Running a command: the small index that `npm run build` writes (dist/bundle/commands.json, see
// scripts/command-index.mjs) says whether payfac may run commands itself (no hooks, no plugins
// installed at run time) and lets the help pages (help-pages.ts) tell a topic from a command
// without reading the whole manifest. oclif does the rest through its documented entry points:
// its configuration (`Config.load`, from package.json and oclif.manifest.json), its own look-up
// of the command id in the arguments (`normalizeArgv` of `@oclif/core/help`, which `run` uses),
// and `Config.runCommand`. What is not a command (an unknown word, a topic alone) goes to oclif's
// `run`, given the configuration already loaded.
//
// Why not oclif's `run` for everything: it loads its help class and the root plugin's hooks, and
// help without a terminal is a page the build rendered, printed before oclif is loaded
// (help-pages.ts). The id look-up adds about a
// millisecond, not measurable in a whole run: in the bundle, oclif's configuration already brings
// the module that holds it (importing `@oclif/core/help` before the configuration costs ~17 ms).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export interface IndexEntry {
  /** The bundled command file, relative to dist/bundle/. */
  file: string
}

export interface CommandIndex {
  version: string
  /** False when hooks or run-time plugins mean that only oclif may run commands. */
  fast: boolean
  commands: Record<string, IndexEntry>
}

type Config = import('@oclif/core/config').Config

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
 * Whether `words` (plain words, no flags) name a topic and no command, as the index knows them:
 * false means they surely do not (so the manifest need not be read to find out).
 */
export function mayNameTopic(index: CommandIndex, words: string[]): boolean {
  const id = words.join(':')
  return !Object.hasOwn(index.commands, id) && Object.keys(index.commands).some((c) => c.startsWith(`${id}:`))
}

/** The command id oclif finds in `argv`, and the arguments after it (oclif's `normalizeArgv`). */
export async function findCommand(config: Config, argv: string[]): Promise<{ id: string; argv: string[] } | undefined> {
  const { normalizeArgv } = await oclifModule<typeof import('@oclif/core/help')>(import('@oclif/core/help'))
  const [id, ...rest] = normalizeArgv(config, [...argv])
  return id !== undefined && config.findCommand(id) ? { id, argv: rest } : undefined
}

/**
 * Runs what `argv` asks for with oclif's configuration of the installation at the bin's folder:
 * a command as oclif's `run` would (`Config.runCommand`), anything else by oclif's `run` itself.
 */
export async function runArgv(argv: string[], binUrl: string): Promise<void> {
  const config = await configOf(fileURLToPath(new URL('..', binUrl)))
  const found = await findCommand(config, argv)
  if (found) {
    await config.runCommand(found.id, found.argv)
    return
  }
  const { run } = await oclifModule<typeof import('@oclif/core/run')>(import('@oclif/core/run'))
  await run(argv, config)
}

/** oclif is CommonJS: bundled, a module of it comes back as the default export. */
async function oclifModule<T>(loading: Promise<T>): Promise<T> {
  const loaded = (await loading) as T & { default?: T }
  return loaded.default ?? loaded
}

/**
 * oclif's configuration of the installation at `root`, loaded once a process. A CLI process runs
 * one command; the in-process test runner runs many, and each command gets a configuration of its
 * own anyway (Command.run loads one from the configuration it is given).
 */
const configs = new Map<string, Promise<Config>>()
export function configOf(root: string): Promise<Config> {
  let config = configs.get(root)
  if (!config) {
    config = (async () => (await oclifModule<typeof import('@oclif/core/config')>(import('@oclif/core/config'))).Config.load(root))()
    configs.set(root, config)
    config.catch(() => configs.delete(root))
  }
  return config
}
