// The command index behind the fast start of a command (src/cli/start/dispatch.ts reads it): every
// command id (and alias) with its bundled file, so that the start-up help tells a topic from a
// command without parsing the manifest. A few kilobytes, where oclif.manifest.json is about half a
// megabyte.
//
// payfac only runs commands itself when that is exactly what oclif's `run` would do:
// `fast` is false when a plugin may be installed at run time or when a hook would run around a
// command (init, prerun, postrun, preparse, finally), and oclif then answers everything.
// Hooks that only concern unknown commands or plugin installs do not matter here.

const COMMAND_HOOKS = new Set(['init', 'prerun', 'postrun', 'preparse', 'finally'])

/**
 * @param {{version: string, commands: Record<string, {id: string, relativePath: string[], aliases?: string[], hiddenAliases?: string[]}>}} manifest
 *   oclif.manifest.json, its relativePath already pointing at the bundled commands
 * @param {{version: string, oclif?: {hooks?: object, plugins?: string[]}}} pjson package.json
 * @param {(name: string) => {oclif?: {hooks?: object}}} readPlugin a plugin's package.json
 */
export function commandIndex(manifest, pjson, readPlugin) {
  const oclif = pjson.oclif ?? {}
  const plugins = oclif.plugins ?? []
  const hooks = [oclif.hooks, ...plugins.map((name) => readPlugin(name).oclif?.hooks)].flatMap((h) => Object.keys(h ?? {}))
  const runtimePlugins = plugins.includes('@oclif/plugin-plugins')
  const commands = {}
  for (const command of Object.values(manifest.commands)) {
    const file = command.relativePath.slice(2).join('/')
    if (!command.relativePath.join('/').startsWith('dist/bundle/')) throw new Error(`command-index: ${command.id} is not bundled`)
    const entry = { file }
    for (const id of [command.id, ...(command.aliases ?? []), ...(command.hiddenAliases ?? [])]) commands[id] = entry
  }
  return {
    version: manifest.version,
    fast: !runtimePlugins && !hooks.some((name) => COMMAND_HOOKS.has(name)),
    commands,
  }
}
