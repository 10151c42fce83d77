// Dependencies through their front doors (DESIGN.md, Dependencies): every package our sources and
// build scripts import, require or resolve is reached by a name its package.json offers (an entry
// of `exports`, or the package itself when it has no `exports`), never by a path into its files;
// and the build hands esbuild no plugin that loads a dependency's file in place of what is on disk.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '../..')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.(ts|mts|mjs|cjs|js)$/.test(name) ? [path] : []
  })
}

const SOURCES = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'scripts')), join(ROOT, 'bin/run.js')]

/** Every bare specifier of an import, export … from, import(), require() or require.resolve(). */
function bareSpecifiers(text: string): string[] {
  const found = new Set<string>()
  const patterns = [/(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g, /\b(?:import|require(?:\.resolve)?)\(\s*['"]([^'"]+)['"]\s*\)/g]
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) if (m[1] && !m[1].startsWith('.') && !m[1].startsWith('node:') && !m[1].startsWith('/')) found.add(m[1])
  return [...found]
}

function split(spec: string): { name: string; subpath: string } {
  const parts = spec.split('/')
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
  return { name, subpath: spec.slice(name.length) }
}

const BUILTINS = new Set(['fs', 'path', 'url', 'os', 'module', 'child_process', 'crypto', 'stream', 'util', 'events', 'http', 'net', 'tty', 'zlib'])

describe('dependencies through their front doors', () => {
  for (const file of SOURCES) {
    it(`${relative(ROOT, file)} imports only what packages offer`, () => {
      const text = readFileSync(file, 'utf8')
      expect(text, 'a path into undici or @oclif/core').not.toMatch(/undici\/lib\/|@oclif\/core\/lib\//)
      for (const spec of bareSpecifiers(text)) {
        const { name, subpath } = split(spec)
        if (BUILTINS.has(name)) continue
        const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { exports?: unknown }
        if (subpath === '') continue
        const exported = pkg.exports && typeof pkg.exports === 'object' ? Object.keys(pkg.exports as object) : []
        const offered = exported.some((key) => key === `.${subpath}` || (key.includes('*') && new RegExp(`^${key.replace('.', '\\.').replace('*', '.+')}$`).test(`.${subpath}`)))
        expect(offered, `${spec} is not among the entry points of ${name}'s package.json`).toBe(true)
      }
    })
  }

  it('gives esbuild no plugin that loads a file of node_modules in place of its own text', async () => {
    // Every plugin factory of scripts/bundle/, set up against a recorder of what it asks esbuild for.
    const filters: Array<{ file: string; filter: RegExp }> = []
    for (const file of files(join(ROOT, 'scripts/bundle'))) {
      const loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>
      for (const make of Object.values(loaded)) {
        if (typeof make !== 'function') continue
        let setup: unknown
        try {
          setup = ((make as (root: string) => { setup?: unknown } | undefined)(ROOT))?.setup
        } catch {
          continue // not a plugin factory (a helper that wants other arguments)
        }
        if (typeof setup !== 'function') continue
        const plugin = { setup: setup as (build: unknown) => void }
        plugin.setup({ onLoad: ({ filter }: { filter: RegExp }) => filters.push({ file, filter }), onResolve: () => {} })
      }
    }
    expect(filters.length, 'the schemas plugin is found').toBeGreaterThan(0)
    // esbuild's own inline plugins in the build script only redirect `zod` to the lazy loader.
    expect(readFileSync(join(ROOT, 'scripts/build.mjs'), 'utf8')).not.toMatch(/onLoad\(/)
    const dependencyFiles = ['node_modules/undici/index.js', 'node_modules/undici/lib/dispatcher/client.js', 'node_modules/@oclif/core/lib/command.js', 'node_modules/zod/v4/classic/external.js', 'node_modules/zod/v4/locales/index.js'].map((f) => join(ROOT, f))
    for (const { file, filter } of filters) {
      for (const dependency of dependencyFiles) expect(filter.test(dependency), `${relative(ROOT, file)}: ${filter} loads ${relative(ROOT, dependency)}`).toBe(false)
    }
  })
})
