// docs/architecture.md's "who may import whom", checked on the source, plus a check for import cycles.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(__dirname, '../../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : []
  })
}

interface Import {
  spec: string
  typeOnly: boolean
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8')
  const found: Import[] = []
  const pattern = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g
  for (const m of text.matchAll(pattern)) {
    const spec = m[3] ?? m[4]
    if (spec) found.push({ spec, typeOnly: Boolean(m[2]) })
  }
  return found
}

/** The room a source file is in: its first folder under src (or the file itself at the top). */
function roomOf(path: string): string {
  return relative(SRC, path).split('/')[0]!.replace(/\.ts$/, '')
}

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined
  return resolve(dirname(from), spec.replace(/\.js$/, '.ts'))
}

const files = sourceFiles(SRC)

/** The folders of src/cli by level, from the top; see the test that uses it. */
const CLI_LEVELS: string[][] = [
  ['start'],
  ['base-command'],
  ['bulk', 'fan-out', 'diagnose', 'detach', 'journal'],
  ['flows'],
  ['requests'],
  ['reconcile'],
  ['range'],
  ['safety'],
  ['flags'],
  ['terminal'],
  ['files'],
  ['validate'],
  ['errors'],
  ['runtime'],
]

/** The folder of a file of src/cli (a file at its top is its own "folder", by name). */
function cliFolderOf(path: string): string {
  return relative(join(SRC, 'cli'), path).split('/')[0]!.replace(/\.ts$/, '')
}

function cliLevelOf(path: string): number {
  const folder = cliFolderOf(path)
  const level = CLI_LEVELS.findIndex((names) => names.includes(folder))
  if (level === -1) throw new Error(`src/cli/${folder} has no place in CLI_LEVELS (test/contract/imports.test.ts)`)
  return level
}

// For each room: the rooms and packages it must never import (at run time).
const forbidden: Record<string, { rooms: string[]; packages: RegExp[] }> = {
  client: { rooms: ['cli', 'commands', 'config', 'output', 'emulator'], packages: [/^@oclif/, /^conf$/, /^cli-table3$/, /^csv-stringify/, /^@inquirer/] },
  output: { rooms: ['cli', 'commands', 'config', 'emulator'], packages: [/^@oclif/, /^conf$/, /^undici$/] },
  config: { rooms: ['cli', 'commands', 'output', 'emulator'], packages: [/^@oclif/, /^undici$/] },
  cli: { rooms: ['commands', 'emulator'], packages: [] },
  emulator: { rooms: ['cli', 'commands', 'output', 'config'], packages: [/^@oclif/, /^conf$/, /^undici$/] },
  // The MCP server (payfac mcp) uses the client, config, output and cli; it runs commands through
  // the CLI's entry point, never a command file.
  mcp: { rooms: ['commands', 'emulator'], packages: [/^@oclif/] },
}
// No room but the CLI's rooms imports the MCP SDK, and only `payfac mcp` itself imports the MCP room.
const MCP_SDK = /^@modelcontextprotocol\//

// Files of the client that other rooms may import at run time: pure modules with no transport.
const CLIENT_PURE = /\/client\/(errors|money|envelope|webhook-signature|redact|fast-check|key-prefix|schemas\/[\w-]+|openapi\/[\w-]+)\.ts$/

describe('who may import whom (docs/architecture.md)', () => {
  it('finds the source', () => {
    expect(files.length).toBeGreaterThan(10)
  })

  for (const file of files) {
    const room = roomOf(file)
    const rules = forbidden[room]
    if (!rules) continue
    it(`${relative(SRC, file)} keeps to its room`, () => {
      for (const { spec, typeOnly } of importsOf(file)) {
        if (typeOnly) continue
        const target = resolveLocal(file, spec)
        if (target) {
          const targetRoom = roomOf(target)
          expect(rules.rooms, `${spec} is in ${targetRoom}`).not.toContain(targetRoom)
          if ((room === 'output' || room === 'emulator' || room === 'config') && targetRoom === 'client') {
            expect(target, `${room} may only import the client's pure modules, not ${spec}`).toMatch(CLIENT_PURE)
          }
        } else {
          for (const pkg of rules.packages) expect(spec, `${room} must not import ${spec}`).not.toMatch(pkg)
        }
      }
    })
  }

  it('commands never import other commands or emulator internals (emulator start excepted)', () => {
    for (const file of files.filter((f) => roomOf(f) === 'commands')) {
      for (const { spec } of importsOf(file)) {
        const target = resolveLocal(file, spec)
        if (!target) continue
        expect(roomOf(target), `${relative(SRC, file)} imports ${spec}`).not.toBe('commands')
        if (!file.endsWith('/emulator/start.ts') && roomOf(target) === 'emulator') {
          throw new Error(`${relative(SRC, file)} imports emulator internals (${spec})`)
        }
      }
    }
  })

  it('only src/commands/mcp.ts imports the MCP room, and only the MCP room imports the MCP SDK', () => {
    for (const file of files) {
      for (const { spec } of importsOf(file)) {
        const target = resolveLocal(file, spec)
        if (target && roomOf(target) === 'mcp' && roomOf(file) !== 'mcp') expect(relative(SRC, file), `imports ${spec}`).toBe('commands/mcp.ts')
        if (!target && MCP_SDK.test(spec)) expect(roomOf(file), `${relative(SRC, file)} imports ${spec}`).toBe('mcp')
      }
    }
  })

  it('every folder of src/cli has its place in the order of folders', () => {
    const folders = readdirSync(join(SRC, 'cli'), { withFileTypes: true }).map((e) => (e.isDirectory() ? e.name : e.name.replace(/\.ts$/, '')))
    for (const folder of folders)
      expect(
        CLI_LEVELS.some((level) => level.includes(folder)),
        `src/cli/${folder} is in CLI_LEVELS`,
      ).toBe(true)
  })

  // The folders of src/cli from the top (the road from bin/run.js) down; a file may import from its
  // own folder or from a folder of a lower level, never from its own level or above (runtime
  // imports; a type-only import says nothing about what runs first). docs/architecture.md, "Inside cli/".
  for (const file of files.filter((f) => roomOf(f) === 'cli')) {
    const level = cliLevelOf(file)
    it(`${relative(SRC, file)} imports only from the folders below its own in src/cli`, () => {
      for (const { spec, typeOnly } of importsOf(file)) {
        const target = typeOnly ? undefined : resolveLocal(file, spec)
        if (!target || roomOf(target) !== 'cli' || cliFolderOf(target) === cliFolderOf(file)) continue
        expect(cliLevelOf(target), `${relative(SRC, file)} imports ${spec}, which is not below it (docs/architecture.md)`).toBeGreaterThan(level)
      }
    })
  }

  it('the client touches no process globals', () => {
    for (const file of files.filter((f) => roomOf(f) === 'client')) {
      expect(readFileSync(file, 'utf8'), relative(SRC, file)).not.toMatch(/process\.(env|stdout|stderr|exit)/)
    }
  })

  it('has no import cycles, type imports included', () => {
    const graph = new Map<string, string[]>()
    for (const file of files) {
      graph.set(
        file,
        importsOf(file)
          .map((i) => resolveLocal(file, i.spec))
          .filter((t): t is string => Boolean(t)),
      )
    }
    const state = new Map<string, 'open' | 'done'>()
    const cycles: string[] = []
    const visit = (node: string, trail: string[]) => {
      if (state.get(node) === 'done') return
      if (state.get(node) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(node)), node].map((f) => relative(SRC, f)).join(' -> '))
        return
      }
      state.set(node, 'open')
      for (const next of graph.get(node) ?? []) visit(next, [...trail, node])
      state.set(node, 'done')
    }
    for (const file of files) visit(file, [])
    expect(cycles).toEqual([])
  })
})
