// `payfac simulate` against the emulator (rendered as JSON and as a table), the production guard
// (exit 3, nothing sent) and the input rules (exit 2, nothing sent).
import { describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'
import { runCommand } from '../helpers/run-command.js'

const { payfac, json } = useEmulator()

describe('simulate against the emulator', () => {
  it('advances the clock with --seconds, with --data, and by the kebab-case name', async () => {
    const first = await json('simulate', 'AdvanceClock', '--seconds', '60')
    expect(first.advancedBySeconds).toBe(60)
    const second = await json('simulate', 'advance-clock', '--data', '{"seconds":30}')
    expect(second.advancedBySeconds).toBe(30)
    expect(Date.parse(second.now) - Date.parse(first.now)).toBeGreaterThanOrEqual(30_000)
    const table = await payfac('simulate', 'AdvanceClock', '--data', '{"AdvanceClock":{"seconds":1}}')
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/advancedBySeconds\s+1/)
  })

  it('sets a PayTo agreement status', async () => {
    const sent = await json('payto', 'agree', '--name', 'Jo Citizen', '--bban', '062-000 12345678', '--open')
    const set = await json('simulate', 'set-pay-to-agreement-status', '--data', JSON.stringify({ token: sent.token, status: 'Suspended' }))
    expect(set).toMatchObject({ token: sent.token, status: 'Suspended' })
    expect((await json('payto', 'status', sent.token)).status).toBe('Suspended')
  })

  it('refuses an action it does not know before sending (exit 2), naming the known ones and the raw route', async () => {
    const result = await payfac('simulate', 'NoSuchThing')
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/Unknown simulation action "NoSuchThing"; known: AdvanceClock, .*RaiseBlockedCardEvent/)
    expect(result.stderr).toMatch(/payfac api POST \/simulation/)
  })
})

describe('simulate input', () => {
  const recording = useRecordingServer(() => ({ body: { ok: true } }))
  const { cli, server } = recording

  it('is refused on a production profile before anything is sent (exit 3)', async () => {
    const env = { ...recording.env(), PAYFAC_API_KEY: 'live_sk_productionSecretKey000001' }
    const result = await runCommand(['simulate', 'AdvanceClock', '--seconds', '60'], { env })
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/production/)
    expect(result.stderr).not.toContain('productionSecretKey')
    expect(server.requests).toHaveLength(0)
    const asJson = await runCommand(['simulate', 'AdvanceClock', '--seconds', '60', '--json'], { env })
    expect(asJson.stdout).toBe('')
    expect(JSON.parse(asJson.stderr)).toMatchObject({ error: { code: 3 } })
    expect(server.requests).toHaveLength(0)
  })

  it('sends the single-key envelope', async () => {
    const result = await cli(
      'simulate',
      'incoming-bank-transfer',
      '--data',
      '{"merchantId":"mcht_LocalMerchant001","amount":{"minorCurrencyUnits":500,"currency":"AUD"}}',
    )
    expect(result.code, result.stderr).toBe(0)
    expect(server.requests[0]?.path).toBe('/simulation')
    expect(server.requests[0]?.json).toEqual({
      IncomingBankTransfer: { merchantId: 'mcht_LocalMerchant001', amount: { minorCurrencyUnits: 500, currency: 'AUD' } },
    })
  })

  const cases: RefusalCase[] = [
    ['--seconds with another action', ['simulate', 'SettlePayout', '--seconds', '5'], /AdvanceClock only/],
    ['--seconds 0', ['simulate', 'AdvanceClock', '--seconds', '0'], /seconds/],
    ['--seconds that differs from --data', ['simulate', 'AdvanceClock', '--seconds', '5', '--data', '{"seconds":6}'], /differ/],
    ['an action name with spaces', ['simulate', 'advance clock'], /not an action name/],
    ['an action name in snake case', ['simulate', 'advance_clock'], /not an action name/],
    ['--data that is not JSON', ['simulate', 'AdvanceClock', '--data', 'seconds=5'], /not valid JSON/],
    ['--data that is not an object', ['simulate', 'AdvanceClock', '--data', '[60]'], /JSON object/],
    ['no action', ['simulate'], /action|argument/i],
  ]

  itRefusesBeforeSending(cases, recording, '%s exits 2 and sends nothing')
})
