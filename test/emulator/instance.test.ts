// The proof and shutdown routes of a background run (src/emulator/instance.ts), and the CLI's
// side of them (src/cli/detach/): the proof payfac expects is the one the emulator gives, a
// shutdown needs the run's secret, both routes keep the control plane's edge rules, and neither
// exists without a run.
import { describe, expect, it } from 'vitest'

import { expectedProof, proveRecord } from '../../src/cli/detach/probe.js'
import { argumentsOfInstance } from '../../src/cli/detach/process.js'
import type { EmulatorRecord } from '../../src/config/emulator-records.js'
import { instanceProof, startEmulator } from '../../src/emulator/index.js'

const ID = 'RunIdRunIdRunIdRunId12'
const SECRET = 'secret-of-the-run-secret-of-the-run-secret0'
const CHALLENGE = 'challenge-challenge-1234'

async function withRun<T>(body: (url: string, stops: { count: number; done: Promise<void> }, port: number) => Promise<T>): Promise<T> {
  let told: () => void = () => undefined
  const stops = { count: 0, done: new Promise<void>((resolve) => (told = resolve)) }
  const onShutdown = () => {
    stops.count++
    told()
  }
  const emulator = await startEmulator({ port: 0, instance: { id: ID, secret: SECRET, onShutdown } })
  try {
    return await body(emulator.url, stops, emulator.port)
  } finally {
    await emulator.close()
  }
}

const record = (port: number, fields: Partial<EmulatorRecord> = {}): EmulatorRecord => ({
  version: 1,
  instance: ID,
  secret: SECRET,
  pid: process.pid,
  host: '127.0.0.1',
  port,
  namespace: null,
  logFile: '/tmp/x.log',
  controlToken: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  statePath: null,
  ...fields,
})

describe('GET /__emulator/instance', () => {
  it('answers the run, its pid and the HMAC of the challenge, the one payfac expects', async () => {
    expect(expectedProof(SECRET, CHALLENGE)).toBe(instanceProof(SECRET, CHALLENGE))
    await withRun(async (url) => {
      const answer = await fetch(`${url}/__emulator/instance?challenge=${CHALLENGE}`)
      expect(answer.status).toBe(200)
      expect(await answer.json()).toMatchObject({ instance: ID, pid: process.pid, proof: expectedProof(SECRET, CHALLENGE) })
      expect((await fetch(`${url}/__emulator/instance?challenge=short`)).status).toBe(400)
    })
  })

  it('proves the record of this run, and nothing else: another secret, id or pid is not proven', async () => {
    await withRun(async (_url, _stops, port) => {
      expect(await proveRecord(record(port))).toBe('proven')
      expect(await proveRecord(record(port, { secret: 'another-secret-another-secret-another-sec' }))).toBe('other')
      expect(await proveRecord(record(port, { instance: 'AnotherRunAnotherRun00' }))).toBe('other')
      expect(await proveRecord(record(port, { pid: process.pid + 1 }))).toBe('other')
    })
  })
})

describe('POST /__emulator/shutdown', () => {
  it('needs the run’s secret (401 without, 403 wrong), keeps the cross-site refusal, then answers 202 and stops the run', async () => {
    await withRun(async (url, stops) => {
      const post = (headers: Record<string, string>) => fetch(`${url}/__emulator/shutdown`, { method: 'POST', headers })
      expect((await post({})).status).toBe(401)
      expect((await post({ 'Emulator-Instance-Token': 'wrong' })).status).toBe(403)
      expect((await post({ 'Emulator-Instance-Token': SECRET, Origin: 'https://evil.example' })).status).toBe(403)
      expect(stops.count).toBe(0)
      const answer = await post({ 'Emulator-Instance-Token': SECRET })
      expect(answer.status).toBe(202)
      expect(await answer.json()).toEqual({ instance: ID, pid: process.pid, stopping: true })
      await stops.done
      expect(stops.count).toBe(1)
    })
  })

  it('does not exist on an emulator that is not a background run', async () => {
    const emulator = await startEmulator({ port: 0 })
    try {
      expect((await fetch(`${emulator.url}/__emulator/instance?challenge=${CHALLENGE}`)).status).toBe(404)
      expect((await fetch(`${emulator.url}/__emulator/shutdown`, { method: 'POST', headers: { 'Emulator-Instance-Token': SECRET } })).status).toBe(404)
    } finally {
      await emulator.close()
    }
  })
})

describe('the command line of a run', () => {
  it('is recognised only as `emulator start` with the run’s id', () => {
    const node = ['/usr/bin/node', '/opt/payfac/bin/run.js']
    expect(argumentsOfInstance([...node, 'emulator', 'start', '--port', '0', '--instance', ID], ID)).toBe(true)
    expect(argumentsOfInstance([...node, 'emulator', 'start', `--instance=${ID}`], ID)).toBe(true)
    expect(argumentsOfInstance([...node, 'emulator', 'start', '--instance', 'AnotherRunAnotherRun00'], ID)).toBe(false)
    expect(argumentsOfInstance(['/usr/bin/sleep', '1000', '--instance', ID], ID)).toBe(false)
    expect(argumentsOfInstance([...node, 'emulator', 'state', '--instance', ID], ID)).toBe(false)
  })
})
