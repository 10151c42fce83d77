import { describe, expect, it } from 'vitest'

import { type HelpSources, renderHelp, wantsHelp } from '../../src/cli/start/fast-help.js'

const sources: HelpSources = {
  bin: 'payfac',
  version: '1.2.3',
  description: 'The tool.',
  topics: { orders: { description: 'Orders of customers.' }, 'merchants:owners': { description: 'Owners.' } },
  width: 80,
  commands: {
    api: { id: 'api', summary: 'Call anything.', flags: {}, args: {} },
    'orders:get': {
      id: 'orders:get',
      summary: 'Show an order.',
      description: 'Show an order.\nFetched fresh.',
      examples: ['<%= config.bin %> orders get ordr_1', '<%= config.bin %> orders get ordr_1 --json'],
      args: { orderId: { name: 'orderId', description: 'Order id.', required: true } },
      flags: {
        json: { name: 'json', type: 'boolean', description: 'Print JSON.', helpGroup: 'GLOBAL' },
        limit: { name: 'limit', type: 'option', description: 'Page size.', default: 20 },
        method: { name: 'method', type: 'option', options: ['a', 'b'], required: true, description: 'How.' },
        secret: { name: 'secret', type: 'boolean', hidden: true },
      },
    },
    'merchants:owners:list': { id: 'merchants:owners:list', summary: 'List owners.', flags: {}, args: {} },
  },
}

describe('help from the manifest', () => {
  it('knows when help is asked for', () => {
    expect(wantsHelp([])).toBe(true)
    expect(wantsHelp(['help', 'orders'])).toBe(true)
    expect(wantsHelp(['orders', 'get', '--help'])).toBe(true)
    expect(wantsHelp(['orders', 'get', '-h'])).toBe(true)
    expect(wantsHelp(['api', 'GET', '/x', '--', '--help'])).toBe(false)
    expect(wantsHelp(['orders', 'get', 'ordr_1'])).toBe(false)
  })

  it('lists topics and top-level commands at the root', () => {
    const text = renderHelp(['--help'], sources) as string
    expect(text).toContain('payfac/1.2.3')
    expect(text).toMatch(/TOPICS\n {2}merchants\s+\n? {2}orders\s+Orders of customers\./)
    expect(text).toMatch(/COMMANDS\n {2}api\s+Call anything\./)
  })

  it('lists the commands and subtopics of a topic', () => {
    expect(renderHelp(['orders', '--help'], sources)).toMatch(/orders get\s+Show an order\./)
    expect(renderHelp(['merchants', '--help'], sources)).toMatch(/TOPICS\n {2}merchants owners\s+Owners\./)
  })

  it('renders a command with usage, arguments, grouped flags, description and examples', () => {
    const text = renderHelp(['orders', 'get', 'ordr_1', '--help'], sources) as string
    expect(text).toContain('$ payfac orders get ORDERID [FLAGS]')
    expect(text).toMatch(/ARGUMENTS\n {2}ORDERID {2}Order id\./)
    expect(text).toMatch(/FLAGS\n {2}--limit=<value>\s+Page size\. \[default: 20\]\n {2}--method=a\|b\s+\(required\) How\./)
    expect(text).toMatch(/GLOBAL FLAGS\n {2}--json\s+Print JSON\./)
    expect(text).not.toContain('--secret')
    expect(text).toContain('DESCRIPTION\n  Show an order.\n  Fetched fresh.')
    expect(text).toContain('EXAMPLES\n  $ payfac orders get ordr_1\n\n  $ payfac orders get ordr_1 --json')
  })

  it('leaves what it does not know to oclif', () => {
    expect(renderHelp(['nosuch', '--help'], sources)).toBeUndefined()
    expect(renderHelp(['orders', 'nosuch', '--help'], sources)).toBeUndefined()
  })
})
