// A credential command that misbehaves (ignores SIGTERM, prints binary, floods its output) fails
// closed: the command ends, its secret is never shown, nothing is sent.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { credentialEnv } from '../helpers/keyring.js'
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { spawnCli } from '../helpers/spawn-cli.js'

let server: RecordingServer
let work: string
let dir: string

const env = (extra: Record<string, string | undefined> = {}) => credentialEnv(dir, extra)

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'payfac-credadv-'))
  dir = join(work, 'config')
  server = await startRecordingServer(() => ({ body: [], headers: { 'page-count': '1', 'total-record-count': '0' } }))
})

afterAll(async () => {
  await server.close()
  rmSync(work, { recursive: true, force: true })
})

describe('a credential command that misbehaves', () => {
  it('one that ignores SIGTERM is killed: payfac neither hangs on it nor leaves it running', async () => {
    // The command prints a key, then waits forever with SIGTERM ignored (exec keeps the pid).
    writeFileSync(join(work, 'stubborn.key'), 'sandbox_sk_stubborn000000\n')
    const command = `sh -c 'trap "" TERM; echo $$ > stubborn.pid; cat stubborn.key; exec sleep 60'`
    const result = await spawnCli(['orders', 'list', '--json'], {
      env: env({ PAYFAC_CREDENTIAL_COMMAND: command, PAYFAC_CREDENTIAL_TIMEOUT: '0.3', PAYFAC_BASE_URL: server.url }),
      cwd: work,
      timeoutMs: 8000,
    })
    const pid = Number(readFileSync(join(work, 'stubborn.pid'), 'utf8'))
    const survived = alive(pid)
    if (survived) process.kill(pid, 'SIGKILL')
    expect(result.signal).toBeNull()
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('did not finish within 0.3 s')
    expect(survived).toBe(false)
    expect(result.stdout + result.stderr).not.toContain('sandbox_sk_stubborn')
  })

  it('one whose background program keeps stdout open gives what it printed before it exited, without waiting for the time limit', async () => {
    writeFileSync(join(work, 'agent.key'), 'sandbox_sk_agentHeld0000000000\n')
    // The command starts an "agent" that inherits stdout and lives on, prints the key and exits 0
    // (the agent's stderr goes elsewhere, or this test would wait for it on payfac's stderr).
    const command = `sh -c 'sleep 30 2>/dev/null & echo $! > agent.pid; cat agent.key'`
    const result = await spawnCli(['orders', 'list', '--json'], {
      env: env({ PAYFAC_CREDENTIAL_COMMAND: command, PAYFAC_CREDENTIAL_TIMEOUT: '20', PAYFAC_BASE_URL: server.url }),
      cwd: work,
      timeoutMs: 8000,
    })
    process.kill(Number(readFileSync(join(work, 'agent.pid'), 'utf8')), 'SIGKILL')
    expect(result.signal).toBeNull()
    expect(result.stderr).not.toContain('did not finish')
    expect(result.code).toBe(0)
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer sandbox_sk_agentHeld0000000000')
  })

  it('binary output is a configuration error (exit 3) that quotes nothing of it', async () => {
    writeFileSync(join(work, 'binary.key'), Buffer.from('sandbox_sk_bin\u0000\u001b[31mary0000\n', 'latin1'))
    const result = await spawnCli(['orders', 'list', '--json'], {
      env: env({ PAYFAC_CREDENTIAL_COMMAND: 'cat binary.key', PAYFAC_BASE_URL: server.url }),
      cwd: work,
    })
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('cannot hold')
    expect(result.stdout + result.stderr).not.toContain('sandbox_sk_bin')
    expect(result.stderr).not.toContain('\u001b')
  })
})
