// `payfac emulator start --strict` against the default: the same body with a field the emulator
// does not know is accepted and reported by one, refused by the other.
import { resolve } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import EmulatorStart from '../../src/commands/emulator/start.js'
import { KEYS } from './helpers.js'

const ROOT = resolve(__dirname, '../..')

afterEach(() => {
  vi.restoreAllMocks()
})

/** Runs `emulator start` with the flags, sends one order with an unknown field, stops it. */
async function orderWithUnknownField(flags: string[]): Promise<{ status: number; warning: string | null; body: any }> {
  const out: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => out.push(String(chunk)) > 0)
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  const running = EmulatorStart.run(['--port', '0', '--json', ...flags], ROOT)
  for (let i = 0; i < 300 && !out.join('').includes('\n'); i++) await new Promise((r) => setTimeout(r, 10))
  const { baseUrl } = JSON.parse(out.join('').split('\n')[0] as string)
  try {
    const response = await fetch(`${baseUrl}/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.merchantSecretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ CreateOnlineOrder: { amount: { minorCurrencyUnits: 100, currency: 'AUD' }, giftWrap: true } }),
    })
    return { status: response.status, warning: response.headers.get('emulator-warning'), body: await response.json() }
  } finally {
    process.emit('SIGTERM')
    await running
  }
}

describe('payfac emulator start --strict', () => {
  it('is lenient by default: accepted, kept, reported', async () => {
    const answer = await orderWithUnknownField([])
    expect(answer.status).toBe(200)
    expect(answer.body.OnlineOrder.order.giftWrap).toBe(true)
    expect(answer.warning).toBe('unknown field accepted: "CreateOnlineOrder.giftWrap"')
  })

  it('refuses the unknown field with --strict', async () => {
    const answer = await orderWithUnknownField(['--strict'])
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ errorCode: 'invalid_request', message: expect.stringContaining('giftWrap') })
  })
})
