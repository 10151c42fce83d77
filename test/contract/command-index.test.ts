// The command index (dist/bundle/commands.json, written by `npm run build`) and the way payfac runs
// a command without oclif's `run`: the index holds every command of the manifest, tells a topic
// from a command for the start-up help, and anything that would make running a command ourselves
// differ from oclif (hooks, plugins installed at run time) turns it off; the command id is found
// by oclif's own look-up, with oclif's configuration of this package, so every command is reached
// and a word that is not a command is left to oclif's `run`.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

import { type CommandIndex, configOf, findCommand, mayNameTopic, readIndex } from '../../src/cli/start/dispatch.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const ROOT = resolve(__dirname, '../..')
const BIN_URL = pathToFileURL(resolve(ROOT, 'bin/run.js')).href

interface ManifestCommand {
  id: string
  aliases?: string[]
  hiddenAliases?: string[]
  relativePath: string[]
  args: Record<string, unknown>
  strict?: boolean
}
const manifest = JSON.parse(readFileSync(resolve(ROOT, 'oclif.manifest.json'), 'utf8')) as { version: string; commands: Record<string, ManifestCommand> }
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string; name: string; oclif: { bin: string } }
const index = readIndex(BIN_URL, pkg.version) as CommandIndex

type CommandIndexScript = {
  commandIndex: (m: unknown, p: unknown, readPlugin: (name: string) => unknown) => CommandIndex
}
const script = async () => (await import(pathToFileURL(resolve(ROOT, 'scripts/command-index.mjs')).href)) as CommandIndexScript

describe('the command index', () => {
  it('is written by the build for this version, and answers', () => {
    expect(index).toBeDefined()
    expect(index.version).toBe(manifest.version)
    expect(index.fast).toBe(true)
  })

  it('holds exactly the commands of the manifest and their aliases, each with its bundled file', () => {
    const ids = Object.values(manifest.commands).flatMap((c) => [c.id, ...(c.aliases ?? []), ...(c.hiddenAliases ?? [])])
    expect(Object.keys(index.commands).sort()).toEqual(ids.sort())
    for (const command of Object.values(manifest.commands)) {
      for (const id of [command.id, ...(command.aliases ?? []), ...(command.hiddenAliases ?? [])]) {
        expect(`dist/bundle/${index.commands[id]?.file}`).toBe(command.relativePath.join('/'))
      }
    }
  })

  it('tells the start-up help, without the manifest, which words may name a topic alone', () => {
    expect(mayNameTopic(index, ['orders'])).toBe(true)
    expect(mayNameTopic(index, ['customers', 'delegates'])).toBe(true)
    expect(mayNameTopic(index, ['orders', 'list'])).toBe(false)
    expect(mayNameTopic(index, ['orders', 'get', 'ordr_1'])).toBe(false)
    expect(mayNameTopic(index, ['nosuch'])).toBe(false)
  })

  it('is not used for a stale build, or when hooks or run-time plugins are configured', async () => {
    expect(readIndex(BIN_URL, '0.0.0-other')).toBeUndefined()
    const { commandIndex } = await script()
    const bundled = { version: '1.0.0', commands: { 'a:b': { id: 'a:b', relativePath: ['dist', 'bundle', 'commands', 'a', 'b.js'], args: {} } } }
    const none = () => ({})
    expect(commandIndex(bundled, { version: '1.0.0', oclif: {} }, none).fast).toBe(true)
    expect(commandIndex(bundled, { version: '1.0.0', oclif: { hooks: { command_not_found: './x.js' } } }, none).fast).toBe(true)
    expect(commandIndex(bundled, { version: '1.0.0', oclif: { hooks: { prerun: './x.js' } } }, none).fast).toBe(false)
    expect(commandIndex(bundled, { version: '1.0.0', oclif: { plugins: ['@oclif/plugin-plugins'] } }, none).fast).toBe(false)
    const withInitHook = () => ({ oclif: { hooks: { init: './lib/init.js' } } })
    expect(commandIndex(bundled, { version: '1.0.0', oclif: { plugins: ['some-plugin'] } }, withInitHook).fast).toBe(false)
  })
})

describe("the command id, found by oclif's own look-up (normalizeArgv of @oclif/core/help)", () => {
  const config = configOf(ROOT)

  for (const command of Object.values(manifest.commands)) {
    const words = command.id.split(':')
    it(`reaches ${words.join(' ')}, with the arguments after it left to the command`, async () => {
      const takesArgs = command.strict === false || Object.keys(command.args).length > 0
      const tail = takesArgs ? ['some_value', '--json'] : ['--json']
      expect(await findCommand(await config, [...words, ...tail])).toEqual({ id: command.id, argv: tail })
      expect(await findCommand(await config, [command.id, ...tail])).toEqual({ id: command.id, argv: tail })
    })
  }

  it('finds nothing where there is no command: unknown words, a topic alone, nothing at all', async () => {
    for (const argv of [
      ['nosuch'],
      ['orders', 'nosuch'],
      ['ordrs', 'get', 'ordr_1'],
      ['orders', 'list', 'extra'],
      ['orders'],
      ['orders:nosuch'],
      ['--json'],
      [],
    ]) {
      expect(await findCommand(await config, argv), argv.join(' ')).toBeUndefined()
    }
  })

  it('ends the id at a flag, a key=value, or after a command that takes arguments', async () => {
    expect(await findCommand(await config, ['orders', 'get', 'list'])).toEqual({ id: 'orders:get', argv: ['list'] })
    expect(await findCommand(await config, ['api', 'GET', '/orders'])).toEqual({ id: 'api', argv: ['GET', '/orders'] })
    expect(await findCommand(await config, ['orders', 'list', '--limit=5'])).toEqual({ id: 'orders:list', argv: ['--limit=5'] })
  })
})

describe('oclif behind the index', () => {
  it('still reports an unknown command under a known topic (exit 2, no stack trace)', async () => {
    const result = await spawnCli(['orders', 'nosuch'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/orders nosuch|not found/)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  it('runs a known command the same way when the index is not used', async () => {
    const main = (await import(pathToFileURL(resolve(ROOT, 'dist/bundle/cli/start/main.js')).href)) as {
      runCommandLine: (argv: string[], binUrl: string, options?: { index?: boolean }) => Promise<void>
    }
    for (const useIndex of [true, false]) {
      const err: string[] = []
      const write = process.stderr.write.bind(process.stderr)
      process.stderr.write = ((chunk: string | Uint8Array) => {
        err.push(String(chunk))
        return true
      }) as typeof process.stderr.write
      const saved = process.exitCode
      try {
        await main.runCommandLine(['orders', 'get', 'nope_1'], BIN_URL, { index: useIndex })
        expect(process.exitCode).toBe(2)
      } finally {
        process.stderr.write = write
        process.exitCode = saved
      }
      expect(err.join('')).toContain('must start with "ordr_"')
    }
  })
})
