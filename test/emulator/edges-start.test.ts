// The edges as a person meets them: `emulator start` beyond loopback warns and prints a control
// token once; the control commands send PAYFAC_EMULATOR_TOKEN; `webhooks listen` on production
// without a secret is exit 2 with nothing sent. The emulator binds 0.0.0.0 here, but every
// request of the test goes to 127.0.0.1.
import { resolve } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

import EmulatorStart from '../../src/commands/emulator/start.js'
import { startEmulator } from '../../src/emulator/index.js'
import { commandEnv } from '../helpers/emulator-env.js'
import { startRecordingServer } from '../helpers/recording-server.js'
import { runCommand } from '../helpers/run-command.js'
import { makeTempConfigDir } from '../helpers/tmp-config.js'

const ROOT = resolve(__dirname, '../..')

/** Resolves once the command watches for Ctrl-C (one more SIGINT listener than before it ran). */
async function stopWatched(before: number): Promise<void> {
  for (let i = 0; i < 500 && process.listenerCount('SIGINT') <= before; i++) await new Promise((r) => setTimeout(r, 10))
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('emulator start beyond loopback', () => {
  it('warns on stderr and prints a generated control token once', async () => {
    const err: string[] = []
    const out: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk))
      return true
    })
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err.push(String(chunk))
      return true
    })
    const listening = process.listenerCount('SIGINT')
    const running = EmulatorStart.run(['--port', '0', '--host', '0.0.0.0', '--json'], ROOT)
    await stopWatched(listening)
    process.emit('SIGINT')
    await running
    const text = err.join('')
    expect(text).toContain('Warning: the emulator listens on 0.0.0.0, so other machines can reach it')
    const token = /Control token \(shown once\): (\S+)/.exec(text)?.[1] as string
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(text.split(token).length - 1).toBe(1)
    expect(out.join('')).not.toContain(token)
  })

  it('does not echo a token it was given', async () => {
    const err: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err.push(String(chunk))
      return true
    })
    const listening = process.listenerCount('SIGINT')
    const running = EmulatorStart.run(['--port', '0', '--host', '0.0.0.0', '--control-token', 'my-own-control-token'], ROOT)
    await stopWatched(listening)
    process.emit('SIGTERM')
    await running
    expect(err.join('')).toContain('Warning: the emulator listens on 0.0.0.0')
    expect(err.join('')).not.toContain('my-own-control-token')
  })
})

describe('the CLI against a token-guarded emulator', () => {
  it('control commands work with PAYFAC_EMULATOR_TOKEN and are refused without it', async () => {
    const emulator = await startEmulator({ port: 0, host: '0.0.0.0' })
    const config = makeTempConfigDir()
    try {
      const env = commandEnv(config.dir, `http://127.0.0.1:${emulator.port}`, emulator.credentials.merchantSecretKey)
      const without = await runCommand(['emulator', 'clock', '--json'], { env: { ...env, PAYFAC_EMULATOR_TOKEN: undefined } })
      expect(without.code).toBe(4)
      expect(without.stderr).toContain('Emulator-Control-Token')
      const withToken = await runCommand(['emulator', 'reset', '--json'], { env: { ...env, PAYFAC_EMULATOR_TOKEN: emulator.controlToken } })
      expect(withToken.code, withToken.stderr).toBe(0)
      expect(JSON.parse(withToken.stdout)).toMatchObject({ reset: true })
    } finally {
      await emulator.close()
      config.cleanup()
    }
  })

  it('webhooks listen on production without a secret is exit 2, nothing sent', async () => {
    const service = await startRecordingServer()
    const config = makeTempConfigDir()
    try {
      const env = commandEnv(config.dir, service.url, 'live_sk_listenEdgesCommand01')
      const result = await runCommand(['webhooks', 'listen', '--port', '0'], { env: { ...env, PAYFAC_WEBHOOK_SECRET: undefined } })
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).toContain('webhooks listen checks every signature and has no secret to check them with')
      const skip = await runCommand(['webhooks', 'listen', '--port', '0', '--skip-verify'], { env: { ...env, PAYFAC_WEBHOOK_SECRET: undefined } })
      expect(skip.code, skip.stderr).toBe(3)
      expect(service.requests).toEqual([])
    } finally {
      await service.close()
      config.cleanup()
    }
  })

  it('--allow-private-webhooks alone is a usage error', async () => {
    const result = await runCommand(['emulator', 'start', '--port', '0', '--allow-private-webhooks'])
    expect(result.code).toBe(2)
  })
})
