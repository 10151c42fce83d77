// Dependencies through their front doors (docs/architecture.md, "What payfac assumes of its dependencies"): every package our sources and
// build scripts import, require or resolve is reached by a name its package.json offers (an entry
// of `exports`, or the package itself when it has no `exports`), never by a path into its files;
// and the build hands esbuild no plugin at all, so nothing loads other text than the file on disk.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
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
  const patterns = [
    /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g,
    /\b(?:import|require(?:\.resolve)?)\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const pattern of patterns)
    for (const m of text.matchAll(pattern)) if (m[1] && !m[1].startsWith('.') && !m[1].startsWith('node:') && !m[1].startsWith('/')) found.add(m[1])
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
        const offered = exported.some(
          (key) => key === `.${subpath}` || (key.includes('*') && new RegExp(`^${key.replace('.', '\\.').replace('*', '.+')}$`).test(`.${subpath}`)),
        )
        expect(offered, `${spec} is not among the entry points of ${name}'s package.json`).toBe(true)
      }
    })
  }

  it('bundles every file as it is written: the build gives esbuild no plugin', () => {
    // A plugin's onLoad can hand esbuild other text than the file on disk, a dependency's or ours;
    // the build has none, so what runs is what is written.
    const scripts = files(join(ROOT, 'scripts')).map((file) => [relative(ROOT, file), readFileSync(file, 'utf8')] as const)
    for (const [file, text] of scripts) expect(text, `${file} hands esbuild a plugin`).not.toMatch(/\bplugins\s*:|\bonLoad\s*\(|\bonResolve\s*\(/)
  })
})
