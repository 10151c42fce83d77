// docs/commands.md is generated from the commands (scripts/commands-doc.mjs over
// oclif.manifest.json and package.json); this fails when it is not current.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '../..')
const DOC = resolve(ROOT, 'docs/commands.md')

interface CommandsDocScript {
  renderCommandsDoc(manifest: unknown, pkg: unknown): string
  readSources(dir?: string): { manifest: { commands: Record<string, unknown> }; pkg: unknown }
}

async function script(): Promise<CommandsDocScript> {
  return (await import(pathToFileURL(resolve(ROOT, 'scripts/commands-doc.mjs')).href)) as CommandsDocScript
}

describe('docs/commands.md', () => {
  it('is current with the commands (run `node scripts/commands-doc.mjs` after `npm run build` to update it)', async () => {
    const { renderCommandsDoc, readSources } = await script()
    if (!existsSync(resolve(ROOT, 'oclif.manifest.json'))) throw new Error('oclif.manifest.json is missing: run `npm run build` first')
    const { manifest, pkg } = readSources(ROOT)
    const expected = renderCommandsDoc(manifest, pkg)
    const actual = existsSync(DOC) ? readFileSync(DOC, 'utf8') : ''
    if (actual !== expected) {
      expect.fail('docs/commands.md is not current: run `node scripts/commands-doc.mjs` (after `npm run build`) and commit the result')
    }
  })

  it('names every command, with its usage and examples', async () => {
    const { renderCommandsDoc, readSources } = await script()
    const { manifest, pkg } = readSources(ROOT)
    const text = renderCommandsDoc(manifest, pkg)
    for (const id of Object.keys(manifest.commands)) {
      expect(text).toContain(`### \`payfac ${id.split(':').join(' ')}\``)
    }
    expect(text).toContain('payfac webhooks create [FLAGS]')
    expect(text).toContain('payfac simulate AdvanceClock --seconds 60')
    expect(text).not.toContain('<%= config.bin %>')
  })

  it('renders a small manifest the same way every time', async () => {
    const { renderCommandsDoc } = await script()
    const manifest = {
      commands: {
        'things:list': {
          id: 'things:list',
          summary: 'List things.',
          examples: ['<%= config.bin %> things list'],
          args: {},
          flags: { all: { name: 'all', type: 'boolean', description: 'Every page.' } },
        },
        'things:get': {
          id: 'things:get',
          summary: 'Show a thing.',
          examples: [],
          args: { id: { name: 'id', required: true, description: 'Thing id.' } },
          flags: {
            json: { name: 'json', type: 'boolean', helpGroup: 'GLOBAL', description: 'Print JSON.' },
            mode: { name: 'mode', type: 'option', options: ['a', 'b'], description: 'A | B.' },
          },
        },
      },
    }
    const pkg = { name: 'x', oclif: { bin: 'x', topics: { things: { description: 'Things.' } } } }
    const text = renderCommandsDoc(manifest, pkg)
    expect(text).toBe(renderCommandsDoc(manifest, pkg))
    expect(text.indexOf('### `x things get`')).toBeLessThan(text.indexOf('### `x things list`'))
    expect(text).toContain('x things get ID [FLAGS]')
    expect(text).toContain('| `--mode=<value>` | A \\| B. (one of: a, b) |')
    expect(text).toContain('| `--json` | Print JSON. |')
    expect(text).toContain('| [things](#things) | Things. | 2 |')
  })
})
