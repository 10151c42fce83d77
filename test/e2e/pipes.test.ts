// `payfac orders list --all | head -1`: a reader that closes the pipe early ends the command
// quietly with exit 0, whatever the format, with thousands of records still to come.
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { BIN } from '../helpers/spawn-cli.js'

const ORDERS = 3000
let ctx: EmulatorEnv

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  for (let i = 0; i < ORDERS; i += 1) {
    ctx.emulator.app.request('POST', '/orders', {
      credential: ctx.emulator.credentials.merchantSecretKey,
      body: { CreateOnlineOrder: { referenceOrderId: `pipe-${i}`, amount: { minorCurrencyUnits: 100 + i, currency: 'AUD' }, description: `order ${i}` } },
    })
  }
}, 60_000)

afterAll(async () => {
  await ctx?.close()
})

/** Runs payfac with a reader that takes the first line and closes the pipe, as `head -1` does. */
function firstLineThenClose(args: string[]): Promise<{ code: number | null; line: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries({ ...process.env, ...ctx.env })) if (value !== undefined) env[key] = value
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      if (out.includes('\n')) child.stdout.destroy()
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, line: out.split('\n')[0] as string, stderr })
    })
  })
}

describe('a reader that closes the pipe after one line', () => {
  it.each([
    ['table', [], /^Order\tStatus\tAmount/],
    ['CSV', ['--csv'], /^orderId,status,amount/],
    ['JSON', ['--json'], /^\[$/],
  ] as const)(
    '%s: --all of thousands of orders exits 0 with nothing on stderr',
    async (_name, flags, first) => {
      const result = await firstLineThenClose(['orders', 'list', '--all', '--limit', '500', ...flags])
      expect(result.line).toMatch(first)
      expect(result.stderr).toBe('')
      expect(result.code).toBe(0)
    },
    40_000,
  )
})

describe('an --all --json walk stopped part way', () => {
  it.each([
    ['--json', ['--json'], '"orderId"'],
    ["--query '[].orderId'", ['--query', '[].orderId'], '"ordr_'],
  ] as const)(
    'Ctrl-C (SIGINT) under %s: stdout is still one valid, closed JSON array, the error object only on stderr, exit 130',
    async (_name, flags, seen) => {
      const env: Record<string, string> = {}
      for (const [key, value] of Object.entries({ ...process.env, ...ctx.env })) if (value !== undefined) env[key] = value
      const child = spawn(process.execPath, [BIN, 'orders', 'list', '--all', '--limit', '5', ...flags], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      let sent = false
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8')
        if (!sent && stdout.includes(seen)) {
          sent = true
          child.kill('SIGINT')
        }
      })
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
      expect(code).toBe(130)
      const records = JSON.parse(stdout) as unknown[]
      expect(records.length).toBeGreaterThan(0)
      expect(records.length).toBeLessThan(ORDERS)
      expect(stdout).not.toContain('"error"')
      expect(JSON.parse(stderr.trim().split('\n').at(-1) as string).error).toMatchObject({ code: 130, message: expect.stringMatching(/^Interrupted/) })
    },
    40_000,
  )
})
