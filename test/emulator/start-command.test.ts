// `payfac emulator start`, run in this process through oclif: the first stdout line with
// --json, the human text, a clean stop on SIGINT/SIGTERM, and a refused state file.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import EmulatorStart from '../../src/commands/emulator/start.js'
import { KEYS, MARKETPLACE, MERCHANT } from './helpers.js'

const ROOT = resolve(__dirname, '../..')

function capture() {
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk))
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk))
    return true
  })
  return { out, err }
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`timed out waiting for ${what}`)
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('payfac emulator start', () => {
  it('prints one JSON object first with --json, serves, and stops cleanly on SIGINT', async () => {
    const streams = capture()
    const running = EmulatorStart.run(['--port', '0', '--json'], ROOT)
    await until(() => streams.out.join('').includes('\n'), 'the JSON line')
    const first = streams.out.join('').split('\n')[0] as string
    const details = JSON.parse(first)
    expect(details).toMatchObject({
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      marketplaceId: MARKETPLACE,
      merchantId: MERCHANT,
      credentials: KEYS,
    })
    const answer = await fetch(`${details.baseUrl}/orders`, { headers: { authorization: `Bearer ${KEYS.merchantSecretKey}` } })
    expect(answer.status).toBe(200)
    process.emit('SIGINT')
    await running
    await expect(fetch(`${details.baseUrl}/orders`)).rejects.toThrow()
    expect(streams.err.join('')).toContain('stopped (SIGINT)')
  })

  it('prints the URL, ids and keys as text without --json, and stops on SIGTERM', async () => {
    const streams = capture()
    const running = EmulatorStart.run(['--port', '0'], ROOT)
    await until(() => streams.out.join('').includes('merchant public key'), 'the text')
    const text = streams.out.join('')
    for (const value of [MARKETPLACE, MERCHANT, ...Object.values(KEYS)]) expect(text).toContain(value)
    expect(text).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/)
    process.emit('SIGTERM')
    await running
  })

  it('refuses a damaged state file and leaves it as it was', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'payfac-start-')), 'state.json')
    writeFileSync(path, 'not json')
    const { err } = capture()
    process.exitCode = undefined
    try {
      await EmulatorStart.run(['--port', '0', '--state', path], ROOT)
      expect(process.exitCode).toBe(3)
    } finally {
      process.exitCode = undefined
    }
    expect(err.join('')).toMatch(/^Error: .*damaged/m)
    expect(readFileSync(path, 'utf8')).toBe('not json')
  })
})
