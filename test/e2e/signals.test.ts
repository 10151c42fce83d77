// SIGINT and SIGTERM reach a spawned payfac in the middle of a download to --out: the process
// exits 130 or 143, the temporary file beside the target is removed, and the target is untouched.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { BIN } from '../helpers/spawn-cli.js'

let server: Server
let url: string
let folder: string

beforeAll(async () => {
  // An agreement that stays Pending; for anything else the first rows of a CSV, then never the end of the body.
  server = createServer((req, res) => {
    if (req.url?.startsWith('/payto/agreement')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ token: 'ptagr_SignalsTest00001', status: 'Pending', agreementUid: null }))
      return
    }
    res.writeHead(200, { 'content-type': 'text/csv' })
    res.write('entryId,amount\nse_1,100\n')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  folder = mkdtempSync(join(tmpdir(), 'payfac-signals-'))
})

afterAll(async () => {
  server.closeAllConnections()
  server.close()
  rmSync(folder, { recursive: true, force: true })
})

async function interruptDownload(signal: NodeJS.Signals, target: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PAYFAC_CONFIG_DIR: join(folder, 'config'),
    PAYFAC_BASE_URL: url,
    PAYFAC_API_KEY: 'sandbox_sk_signals0000000000000001',
    NO_COLOR: '1',
  }
  delete env.PAYFAC_PROFILE
  const child = spawn(
    process.execPath,
    [BIN, 'settlement', 'report', '--currency', 'AUD', '--from', '2026-11-01', '--to', '2026-12-01', '--csv', '--out', target],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  const exited = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>
  const parts = () => readdirSync(folder).filter((name) => name.endsWith('.part'))
  while (parts().length === 0) await new Promise((r) => setTimeout(r, 20))
  expect(parts(), stderr).toHaveLength(1)
  child.kill(signal)
  const [code] = await exited
  return { code, stderr, parts: parts() }
}

describe('an interrupted download', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s exits %i and leaves neither a temporary file nor a partial target', async (signal, exitCode) => {
    const target = join(folder, `report-${signal}.csv`)
    const result = await interruptDownload(signal, target)
    expect(result.code).toBe(exitCode)
    expect(result.stderr).toContain(`Interrupted (${signal})`)
    expect(result.parts).toEqual([])
    expect(existsSync(target)).toBe(false)
  })

  it('leaves an existing file under the requested name untouched', async () => {
    const target = join(folder, 'existing.csv')
    writeFileSync(target, 'the previous report\n')
    const result = await interruptDownload('SIGTERM', target)
    expect(result.code).toBe(143)
    expect(result.parts).toEqual([])
    expect(readdirSync(folder)).toContain('existing.csv')
    const { readFileSync } = await import('node:fs')
    expect(readFileSync(target, 'utf8')).toBe('the previous report\n')
  })
})

describe('an interrupted wait', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('stops at a safe point on %s, exits %i and names the command that resumes', async (signal, exitCode) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PAYFAC_CONFIG_DIR: join(folder, 'config'),
      PAYFAC_BASE_URL: url,
      PAYFAC_API_KEY: 'sandbox_sk_signals0000000000000001',
      NO_COLOR: '1',
    }
    delete env.PAYFAC_PROFILE
    const child = spawn(process.execPath, [BIN, 'payto', 'status', 'ptagr_SignalsTest00001', '--poll', '--interval', '100ms'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const exited = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>
    while (!stderr.includes('Pending')) await new Promise((r) => setTimeout(r, 20))
    child.kill(signal)
    const [code] = await exited
    expect(code, stderr).toBe(exitCode)
    expect(stderr).toMatch(/Interrupted while waiting for agreement ptagr_SignalsTest00001/)
    expect(stderr).toContain('Resume with: payfac payto status ptagr_SignalsTest00001 --poll')
  })
})
