import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

import { spawnCli } from '../helpers/spawn-cli.js'

const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }

describe('the entry point', () => {
  it('answers --version with the package version', async () => {
    const result = await spawnCli(['--version'])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe(`payfac/${pkg.version} ${process.platform}-${process.arch} node-${process.version}`)
  })

  it('on a Node older than 22.19 says so in one line and exits 3, for --version and commands alike', async () => {
    const oldNode = resolve(__dirname, '../fixtures/probes/old-node.cjs')
    for (const args of [['--version'], ['orders', 'list']]) {
      const result = await spawnCli(args, { env: { NODE_OPTIONS: `--require ${oldNode}` } })
      expect(result.code).toBe(3)
      expect(result.stdout).toBe('')
      expect(result.stderr).toBe(
        'Error: payfac needs Node.js 22.19 or newer (22, 24 or 26); this is v20.20.2.\nHint: install a supported Node.js from https://nodejs.org and run payfac again.\n',
      )
    }
  })

  it('generates a manifest in step with the package version', () => {
    const manifest = JSON.parse(readFileSync(resolve(__dirname, '../../oclif.manifest.json'), 'utf8')) as { version: string; commands: object }
    expect(manifest.version).toBe(pkg.version)
    expect(Object.keys(manifest.commands)).toContain('orders:create')
  })

  it('lists the topics in --help', async () => {
    const result = await spawnCli(['--help'])
    expect(result.code).toBe(0)
    for (const topic of ['orders', 'profiles', 'api', 'emulator']) expect(result.stdout).toContain(topic)
  })

  it('shows a summary, every flag and examples in a command help', async () => {
    const result = await spawnCli(['orders', 'create', '--help'])
    expect(result.code).toBe(0)
    for (const text of ['Create an order', '--amount', '--currency', '--reference', '--item', '--billing-address', '--metadata', '--data', 'EXAMPLES']) {
      expect(result.stdout).toContain(text)
    }
  })

  it('shows a topic alone as help, but runs a command whose arguments look like words', async () => {
    const topic = await spawnCli(['orders'])
    expect(topic.code).toBe(0)
    expect(topic.stdout).toContain('orders create')
    const run = await spawnCli(['orders', 'get', 'ordr_lowercaseonlyabc'], {
      env: { PAYFAC_BASE_URL: 'http://127.0.0.1:9', PAYFAC_API_KEY: 'sandbox_sk_someKey0000000000000' },
    })
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/ECONNREFUSED|refused/)
    expect(run.code).toBe(7)
  })

  it('exits 2 for an unknown command without a stack trace', async () => {
    const result = await spawnCli(['nosuch'])
    expect(result.code).toBe(2)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})
