// The start-up guard: a command, and every module a command loads before it runs, imports no
// heavy dependency at the top level. Heavy ones (the validator, the profile store, the HTTP
// client, tables, CSV, prompts, the client's index) are imported inside the method that needs
// them, so that `--help` and a command that does not use them never pay for them. Checked twice:
// on the sources (the chain of static imports, which names the file to fix), and on what the
// bundle really loads (dist/bundle-meta.json, written by `npm run build`).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '../..')
const SRC = join(ROOT, 'src')

const HEAVY_PACKAGES =
  /^(zod|conf|ajv|undici|cli-table3|csv-stringify|exceljs|postgres|@modelcontextprotocol\/[a-z-]+|@inquirer\/prompts|@napi-rs\/keyring)(\/|$)/
const HEAVY_FILES = ['client/index.ts', 'client/client.ts', 'client/transport.ts', 'config/index.ts', 'config/store.ts', 'output/index.ts', 'output/render.ts']

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : []
  })
}

/** Static imports that stay at run time: not `import type`, not all-`type` specifiers, not `import()`. */
function runtimeImports(text: string): string[] {
  const found: string[] = []
  const pattern = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/g
  for (const m of text.matchAll(pattern)) {
    const [, typeOnly, clause, spec] = m
    if (typeOnly || !spec) continue
    const named = clause?.match(/^\{([^}]*)\}$/s)?.[1]
    if (
      named
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .every((s) => s.startsWith('type '))
    )
      continue
    found.push(spec)
  }
  return found
}

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined
  return resolve(dirname(from), spec.replace(/\.js$/, '.ts'))
}

/** The first chain of static imports from `file` to something heavy, or undefined. */
function heavyChain(file: string, seen = new Set<string>()): string[] | undefined {
  if (seen.has(file)) return undefined
  seen.add(file)
  const here = relative(SRC, file)
  if (HEAVY_FILES.includes(here)) return [here]
  for (const spec of runtimeImports(readFileSync(file, 'utf8'))) {
    const local = resolveLocal(file, spec)
    if (!local) {
      if (HEAVY_PACKAGES.test(spec)) return [here, spec]
      continue
    }
    const rest = heavyChain(local, seen)
    if (rest) return [here, ...rest]
  }
  return undefined
}

const commands = sourceFiles(join(SRC, 'commands'))
const startPath = ['cli/start/main.ts', 'cli/start/dispatch.ts', 'cli/start/help-pages.ts', 'cli/base-command.ts', 'cli/flags/index.ts'].map((f) =>
  join(SRC, f),
)

describe('the start-up path imports nothing heavy at the top level', () => {
  it('finds the commands', () => {
    expect(commands.length).toBeGreaterThan(50)
  })

  it('reads imports as the bundler keeps them', () => {
    const text =
      "import type { A } from 'zod'\nimport { type B, type C } from 'conf'\nimport { D } from 'undici'\nexport * from './x.js'\nconst later = () => import('ajv')\n"
    expect(runtimeImports(text)).toEqual(['undici', './x.js'])
  })

  for (const file of [...startPath, ...commands]) {
    it(`${relative(SRC, file)} loads no heavy module before it runs`, () => {
      const chain = heavyChain(file)
      expect(chain, chain && `import it inside the method that needs it: ${chain.join(' → ')}`).toBeUndefined()
    })
  }
})

describe('the bundle of each command loads nothing heavy before it runs', () => {
  const metaPath = join(ROOT, 'dist/bundle-meta.json')

  it('has the bundle description (run `npm run build`)', () => {
    expect(existsSync(metaPath)).toBe(true)
  })
  if (!existsSync(metaPath)) return

  interface Output {
    imports: Array<{ path: string; kind: string; external?: boolean }>
    inputs: Record<string, unknown>
  }
  const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { outputs: Record<string, Output> }
  const heavyInput =
    /node_modules\/(zod|conf|ajv|undici|cli-table3|csv-stringify|@inquirer\/prompts|@napi-rs\/keyring)\/|^src\/(client\/index|config\/store|output\/render)\.ts$/

  /** Inputs of every file loaded by static imports from `entry` (dynamic imports wait for use). */
  function staticInputs(entry: string): string[] {
    const seen = new Set<string>()
    const stack = [entry]
    while (stack.length) {
      const file = stack.pop() as string
      if (seen.has(file)) continue
      seen.add(file)
      for (const i of meta.outputs[file]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) stack.push(i.path)
    }
    return [...seen].flatMap((file) => Object.keys(meta.outputs[file]?.inputs ?? {}))
  }

  const entries = Object.keys(meta.outputs).filter((o) => o.startsWith('dist/bundle/commands/') && o.endsWith('.js'))

  it('has a bundled file per command', () => {
    expect(entries.length).toBe(commands.length)
  })

  it('follows what a command file imports (the description names the files as they are in dist/)', () => {
    // A command's own chunk holds only its class; the base command comes through its imports.
    expect(staticInputs('dist/bundle/commands/orders/get.js')).toContain('src/cli/base-command.ts')
  })

  for (const entry of entries) {
    it(`${entry} statically loads no heavy module`, () => {
      expect(staticInputs(entry).filter((input) => heavyInput.test(input))).toEqual([])
    })
  }
})
