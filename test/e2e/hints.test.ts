// What payfac says when a person is a step off: a mistyped flag gets the nearest one, a
// settlement query without a range names --last, `profiles add` without a name shows its usage,
// and an emulator away from 127.0.0.1:4010 says which PAYFAC_BASE_URL to export. Spawned as a
// user runs them.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { baseUrlExport } from '../../src/cli/flags/emulator.js'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { BIN, spawnCli } from '../helpers/spawn-cli.js'

let ctx: EmulatorEnv
let scratch: string

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  scratch = mkdtempSync(join(tmpdir(), 'payfac-hints-'))
})

afterAll(async () => {
  await ctx?.close()
  rmSync(scratch, { recursive: true, force: true })
})

describe('a mistyped flag', () => {
  it.each([
    [['orders', 'create', '--ammount', '5', '--currency', 'AUD', '--reference', 'r'], '--ammount', '--amount'],
    [['orders', 'list', '--jq', '[].orderId'], '--jq', '--query'],
    [['transactions', 'list', '--stauts', 'paid'], '--stauts', '--status'],
    [['profiles', 'list', '--josn'], '--josn', '--json'],
    [['settlement', 'report', '--currency', 'AUD', '--lst', '7d'], '--lst', '--last'],
  ])('%j: exit 2, naming %s and suggesting %s, with nothing on stdout', async (argv, typed, near) => {
    const result = await spawnCli(argv, { env: ctx.env })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`Error: unknown flag ${typed}. Did you mean ${near}? (see --help for the flags and examples)\n`)
  })

  it('under --json the suggestion is in the error object on stderr', async () => {
    const result = await spawnCli(['orders', 'create', '--ammount', '5', '--json'], { env: ctx.env })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 2, message: 'unknown flag --ammount. Did you mean --amount?' } })
  })
})

describe('settlement without a range', () => {
  it.each([['report'], ['list']])('settlement %s --currency AUD names --last as well as --from and --to (exit 2)', async (verb) => {
    const result = await spawnCli(['settlement', verb, '--currency', 'AUD'], { env: ctx.env })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('a range given as --last or as --from and --to (missing a range)')
    expect(result.stderr).toContain('--currency AUD --last 30d')
  })

  it('names what is missing when half a range is given', async () => {
    const result = await spawnCli(['settlement', 'list', '--from', '2026-11-01'], { env: ctx.env })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('(missing --currency and --to)')
  })
})

describe('profiles add without a name, and without a terminal', () => {
  it('shows the usage (exit 2) and saves nothing', async () => {
    const dir = join(scratch, 'no-name')
    const result = await spawnCli(['profiles', 'add', '--environment', 'sandbox', '--base-url', 'https://sandbox.example.com', '--credential-stdin'], {
      env: { ...ctx.env, PAYFAC_CONFIG_DIR: dir },
      input: 'sandbox_sk_abcdefabcdef1234\n',
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('profiles add needs a NAME for the profile (not asked: there is no terminal to ask)')
    expect(result.stderr).toContain('usage: payfac profiles add NAME --environment sandbox|production|local --base-url URL')
    const list = await spawnCli(['profiles', 'list', '-q'], { env: { ...ctx.env, PAYFAC_CONFIG_DIR: dir } })
    expect(list.stdout).toBe('local\n')
  })
})

/** Starts `payfac emulator start` with `args` and returns its stderr once `until` shows in it, then stops it. */
async function emulatorStart(args: string[], until: RegExp): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'emulator', 'start', ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  try {
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d
        if (until.test(stderr)) resolve()
      })
      child.on('close', () => reject(new Error(`emulator start ended early; stderr:\n${stderr}`)))
    })
  } finally {
    child.kill('SIGTERM')
  }
  return { stdout, stderr }
}

describe('emulator start away from 127.0.0.1:4010', () => {
  it('prints the export line on stderr, the ready text staying on stdout; --json keeps the base URL in its first line', async () => {
    const text = await emulatorStart(['--port', '0'], /Emulator running/)
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text.stdout)?.[1] as string
    expect(url).toBeDefined()
    expect(text.stderr).toContain(`export PAYFAC_BASE_URL=${url}\n`)
    expect(text.stdout).not.toContain('export')
    const json = await emulatorStart(['--port', '0', '--json'], /Emulator running/)
    const ready = JSON.parse(json.stdout.split('\n')[0] as string) as { baseUrl: string }
    expect(json.stderr).toContain(`export PAYFAC_BASE_URL=${ready.baseUrl}\n`)
  }, 30_000)

  it('says nothing of the kind at the address the local profile uses', () => {
    expect(baseUrlExport('http://127.0.0.1:4010')).toBe('')
    expect(baseUrlExport('http://127.0.0.1:4011')).toContain('export PAYFAC_BASE_URL=http://127.0.0.1:4011')
  })

  it('a busy port: exit 2 naming another port and the PAYFAC_BASE_URL to export with it', async () => {
    const busy: Server = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const port = (busy.address() as { port: number }).port
    try {
      const result = await spawnCli(['emulator', 'start', '--port', String(port)])
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
      expect(result.stderr).toContain(`--port ${port + 1}, then export PAYFAC_BASE_URL=http://127.0.0.1:${port + 1}`)
      expect(result.stderr).toContain('--port 0')
    } finally {
      busy.close()
    }
  }, 30_000)
})
