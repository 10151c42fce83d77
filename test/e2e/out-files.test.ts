// Spawned runs for what only a real process shows: stdout on a device that refuses writes (one
// line, exit 1, no stack or bundled source), --out naming a folder (exit 2, nothing sent), and a
// FIFO with no reader that SIGTERM still ends. --out never names a system device here; /dev/full
// is only ever stdout, opened for writing by the test, never replaced.
import { execFileSync, spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { BIN, spawnCli } from '../helpers/spawn-cli.js'

let ctx: EmulatorEnv
const dir = mkdtempSync(join(tmpdir(), 'payfac-out-e2e-'))

beforeAll(async () => {
  ctx = await startEmulatorEnv()
}, 30_000)

afterAll(async () => {
  await ctx?.close()
  rmSync(dir, { recursive: true, force: true })
})

function envOf(extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, ...extra })) if (value !== undefined) env[key] = value
  return env
}

/** Runs payfac with stdout on /dev/full (every write fails with ENOSPC). */
function onFullDisk(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const full = openSync('/dev/full', 'w')
    const child = spawn(process.execPath, [BIN, ...args], { env: envOf(ctx.env), stdio: ['ignore', full, 'pipe'] })
    closeSync(full)
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stderr })
    })
  })
}

describe.concurrent('stdout on a full disk', () => {
  it.each([
    ['help text', ['--help'], 'Error: Could not write to stdout: no space left on the device (ENOSPC)\n'],
    [
      'a JSON list, whose error is the JSON line',
      ['orders', 'list', '--json'],
      '{"error":{"code":1,"type":"WriteError","message":"Could not write to stdout: no space left on the device (ENOSPC)","errno":"ENOSPC"}}\n',
    ],
    [
      'a CSV report passed on as it comes',
      ['settlement', 'report', '--currency', 'AUD', '--last', '7d', '--csv'],
      'Error: Could not write to stdout: no space left on the device (ENOSPC)\n',
    ],
  ])(
    '%s: one line on stderr, exit 1, no stack trace',
    async (_name, args, line) => {
      const { code, stderr } = await onFullDisk(args)
      expect(stderr).toBe(line)
      expect(code).toBe(1)
    },
    40_000,
  )
})

describe.concurrent('--out', () => {
  it('naming a folder is exit 2 before anything is sent', async () => {
    // Nothing listens at this address: a request would end in exit 7, not 2.
    const result = await spawnCli(['settlement', 'report', '--currency', 'AUD', '--last', '7d', '--csv', '--out', dir], {
      env: { ...ctx.env, PAYFAC_BASE_URL: 'http://127.0.0.1:9' },
    })
    expect(result.stderr).toMatch(/^Error: --out: .* is a folder/)
    expect(result.code).toBe(2)
  }, 40_000)

  it('a FIFO with no reader is waited for, and SIGTERM still ends payfac (143); the FIFO stays a FIFO', async () => {
    const fifo = join(dir, 'report.fifo')
    execFileSync('mkfifo', [fifo])
    const child = spawn(process.execPath, [BIN, 'settlement', 'report', '--currency', 'AUD', '--last', '7d', '--csv', '--out', fifo], {
      env: envOf(ctx.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
      if (stderr.includes('Waiting for a reader')) child.kill('SIGTERM')
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    clearTimeout(timer)
    expect(stderr).toContain(`Waiting for a reader of the FIFO ${fifo}`)
    expect(code).toBe(143)
    expect(statSync(fifo).isFIFO()).toBe(true)
  }, 40_000)
})
