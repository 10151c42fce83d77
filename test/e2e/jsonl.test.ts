// --jsonl (issue 22): one compact JSON object a line for a page, an --all walk, a report and
// bulk results; a walk as many lines as the list's Total-Record-Count; a walk stopped by Ctrl-C
// leaves only whole lines. payfac is spawned (bin/run.js) against an emulator in this process.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { BIN, spawnCli } from '../helpers/spawn-cli.js'

const ORDERS = 2600
const ENTRIES = 240
let ctx: EmulatorEnv
let files: string

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  files = mkdtempSync(join(tmpdir(), 'payfac-jsonl-'))
  const seeded = ctx.emulator.app.request('POST', '/__emulator/seed', { body: { orders: ORDERS, settlementEntries: ENTRIES } })
  expect(seeded.status, JSON.stringify(seeded.body)).toBe(200)
}, 60_000)

afterAll(async () => {
  await ctx?.close()
  rmSync(files, { recursive: true, force: true })
})

const payfac = (...args: string[]) => spawnCli(args, { env: ctx.env, timeoutMs: 30_000 })

/** Each line parsed on its own; the text must end with a newline (whole lines only). */
function lines(stdout: string): Array<Record<string, unknown>> {
  if (stdout === '') return []
  expect(stdout.endsWith('\n')).toBe(true)
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      expect(line.trim()).toBe(line)
      return JSON.parse(line) as Record<string, unknown>
    })
}

describe('--jsonl', () => {
  it('orders list --all --jsonl: as many lines as Total-Record-Count, each a whole order, the same records as --json', async () => {
    const total = Number(ctx.emulator.app.request('GET', '/orders?limit=1').headers['Total-Record-Count'])
    expect(total).toBeGreaterThanOrEqual(ORDERS)
    const result = await payfac('orders', 'list', '--all', '--jsonl')
    expect(result.code, result.stderr).toBe(0)
    const records = lines(result.stdout)
    expect(records).toHaveLength(total)
    expect(new Set(records.map((r) => r.orderId)).size).toBe(total)
    const json = await payfac('orders', 'list', '--all', '--json')
    expect(records).toEqual(JSON.parse(json.stdout))
  }, 60_000)

  it('one page: a line a record, the footer on stderr', async () => {
    const result = await payfac('orders', 'list', '--jsonl', '--limit', '7')
    expect(result.code, result.stderr).toBe(0)
    expect(lines(result.stdout)).toHaveLength(7)
    expect(result.stderr).toMatch(/^Page 1 of \d+/)
  })

  it('one record: one line', async () => {
    const [first] = lines((await payfac('orders', 'list', '--jsonl', '--limit', '1')).stdout)
    const result = await payfac('orders', 'get', String(first?.orderId), '--jsonl')
    expect(result.code, result.stderr).toBe(0)
    expect(lines(result.stdout)).toEqual([first])
  })

  it('the settlement report: its entries, a line each, streamed', async () => {
    const json = await payfac('settlement', 'report', '--currency', 'AUD', '--last', '1m', '--json')
    expect(json.code, json.stderr).toBe(0)
    const entries = (JSON.parse(json.stdout) as { entries: unknown[] }).entries
    expect(entries.length).toBeGreaterThan(0)
    const result = await payfac('settlement', 'report', '--currency', 'AUD', '--last', '1m', '--jsonl')
    expect(result.code, result.stderr).toBe(0)
    expect(lines(result.stdout)).toEqual(entries)
  })

  it('bulk results: a line a row', async () => {
    const file = join(files, 'orders.csv')
    writeFileSync(file, 'amount,currency,reference\n1.00,AUD,jsonl-1\n2.00,AUD,jsonl-2\n')
    const result = await payfac('orders', 'create', '--from-file', file, '--jsonl')
    expect(result.code, result.stderr).toBe(0)
    expect(lines(result.stdout).map((r) => [r.line, r.status])).toEqual([
      [2, 'done'],
      [3, 'done'],
    ])
  })

  it('is refused beside --json, --csv or --query (exit 2)', async () => {
    for (const other of [['--json'], ['--csv'], ['--query', '[].orderId']]) {
      const result = await payfac('orders', 'list', '--jsonl', ...other)
      expect(result.code).toBe(2)
      expect(result.stdout).toBe('')
    }
  })

  it('Ctrl-C (SIGINT) part way through an --all walk leaves only whole lines, exit 130', async () => {
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries({ ...process.env, ...ctx.env })) if (value !== undefined) env[key] = value
    const child = spawn(process.execPath, [BIN, 'orders', 'list', '--all', '--limit', '5', '--jsonl'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let sent = false
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
      if (!sent && stdout.includes('"orderId"')) {
        sent = true
        child.kill('SIGINT')
      }
    })
    child.stderr.resume()
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code).toBe(130)
    const records = lines(stdout)
    expect(records.length).toBeGreaterThan(0)
    expect(records.length).toBeLessThan(ORDERS)
  }, 40_000)
})
