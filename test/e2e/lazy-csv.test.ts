// csv-stringify is loaded only when CSV is printed. The probe (test/fixtures/probes/csv-loaded.mjs)
// names on stderr every bundle file a run loads; dist/bundle-meta.json (written by `npm run
// build`) says which of them hold csv-stringify's code.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const PROBE = resolve(__dirname, '../fixtures/probes/csv-loaded.mjs')
const META = resolve(__dirname, '../../dist/bundle-meta.json')

/** Bundle files that hold csv-stringify. */
function csvFiles(): string[] {
  const meta = JSON.parse(readFileSync(META, 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> }
  return Object.entries(meta.outputs)
    .filter(([, output]) => Object.keys(output.inputs).some((input) => input.includes('node_modules/csv-stringify/')))
    .map(([file]) => file)
}

/** The bundle files of csv-stringify that a run loaded. */
function csvLoaded(stderr: string): string[] {
  const loaded = new Set([...stderr.matchAll(/^bundle-probe: (.+)$/gm)].map((m) => m[1]))
  return csvFiles().filter((file) => loaded.has(file))
}

let ctx: EmulatorEnv

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  const created = await spawnCli(['orders', 'create', '--amount', '12.34', '--currency', 'AUD', '--reference', 'lazy-csv-1', '--json'], { env: ctx.env })
  expect(created.code, created.stderr).toBe(0)
})

afterAll(async () => {
  await ctx?.close()
})

const probed = (args: string[]) => spawnCli(args, { env: { ...ctx.env, NODE_OPTIONS: `--import ${PROBE}` } })

describe.concurrent('csv-stringify in the CLI bundle', () => {
  it('is loaded to print a list as CSV, and the CSV is there', async () => {
    const result = await probed(['orders', 'list', '--limit', '5', '--csv'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.split('\n')[0]).toContain('orderId')
    expect(result.stdout).toContain('lazy-csv-1')
    expect(csvFiles().length).toBeGreaterThan(0)
    expect(csvLoaded(result.stderr).length).toBeGreaterThan(0)
  })

  it.each([
    ['--json', ['orders', 'list', '--limit', '5', '--json']],
    ['a table', ['orders', 'list', '--limit', '5']],
    ['--version', ['--version']],
    ['--help', ['--help']],
  ])('is not loaded for %s', async (_name, args) => {
    const result = await probed(args)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.length).toBeGreaterThan(0)
    expect(csvLoaded(result.stderr)).toEqual([])
  })
})
