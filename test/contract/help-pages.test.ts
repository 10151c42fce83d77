// Help without a terminal is a page the build rendered with oclif's help and payfac's help class
// (scripts/help-pages.mjs, src/cli/start/help-pages.ts). Each page must be exactly what oclif
// prints live for the same arguments (OCLIF_COLUMNS=80 makes payfac ask oclif instead of reading
// the page), so that the pages are oclif's help and never a second rendering of it.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

import type { CommandIndex } from '../../src/cli/start/dispatch.js'
import { helpPageKey, wantsHelp } from '../../src/cli/start/help-pages.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const ROOT = resolve(__dirname, '../..')
const built = JSON.parse(readFileSync(resolve(ROOT, 'dist/help.json'), 'utf8')) as { pages: Record<string, string> }
const index = JSON.parse(readFileSync(resolve(ROOT, 'dist/bundle/commands.json'), 'utf8')) as CommandIndex

describe('which page the arguments ask for', () => {
  it('knows help from a command', () => {
    expect(wantsHelp([])).toBe(true)
    expect(wantsHelp(['help', 'orders'])).toBe(true)
    expect(wantsHelp(['orders', 'get', '--help'])).toBe(true)
    expect(wantsHelp(['orders', 'get', '-h'])).toBe(true)
    expect(wantsHelp(['api', 'GET', '/x', '--', '--help'])).toBe(false)
    expect(wantsHelp(['orders', 'get', 'ordr_1'])).toBe(false)
  })

  it('finds the root, a topic, a command (with its arguments) and the environment topic', () => {
    expect(helpPageKey(['--help'], index)).toBe('')
    expect(helpPageKey([], index)).toBe('')
    expect(helpPageKey(['orders'], index)).toBe('orders')
    expect(helpPageKey(['help', 'merchants', 'owners'], index)).toBe('merchants:owners')
    expect(helpPageKey(['orders', 'get', 'ordr_1', '--help'], index)).toBe('orders:get')
    expect(helpPageKey(['help', 'orders', 'get'], index)).toBe('orders:get')
    expect(helpPageKey(['help', 'environment'], index)).toBe('help environment')
  })

  it('leaves what it cannot place to oclif', () => {
    expect(helpPageKey(['orders', 'get', 'ordr_1'], index)).toBeUndefined()
    expect(helpPageKey(['nosuch', '--help'], index)).toBeUndefined()
    expect(helpPageKey(['orders', 'nosuch'], index)).toBeUndefined()
  })

  it('has a page for every visible command and topic', () => {
    const manifest = JSON.parse(readFileSync(resolve(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, { hidden?: boolean }> }
    const visible = Object.entries(manifest.commands).filter(([, command]) => !command.hidden)
    expect(visible.length).toBeGreaterThan(100)
    for (const [id] of visible) expect(built.pages[id], id).toBeTypeOf('string')
    expect(built.pages['merchants:owners']).toContain('merchants owners create')
    expect(built.pages['']).toContain('TOPICS')
  })
})

describe('each page is what oclif prints live', () => {
  const cases = [
    ['--help'],
    ['orders'],
    ['merchants', 'owners', '--help'],
    ['orders', 'get', '--help'],
    ['orders', 'create', '--help'],
    ['help', 'environment'],
  ]
  for (const argv of cases) {
    it(`payfac ${argv.join(' ')}`, async () => {
      const fromPage = await spawnCli(argv)
      const live = await spawnCli(argv, { env: { OCLIF_COLUMNS: '80' } })
      expect(fromPage.code).toBe(0)
      expect(live.code).toBe(0)
      expect(fromPage.stdout).toBe(built.pages[helpPageKey(argv, index) as string])
      expect(fromPage.stdout).toBe(live.stdout)
    })
  }
})
