// The production guard without a terminal (the tmux test covers the prompt), the banner, --yes,
// --dry-run, and the emulator control commands that refuse a target that is not an emulator.
// Against a recording server: it takes any credential, so a live key can be "sent" to it, and
// it shows exactly what arrived.
import { describe, expect, it } from 'vitest'

import { useRecordingServer } from '../helpers/command-harness.js'
import { runCommand } from '../helpers/run-command.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const TRAN = 'tran_ProdGuardTxn0001'
const LIVE_KEY = 'live_sk_productionSecretKey0001'

const transaction = (refunded: number) => ({
  purchaseDetails: {
    transactionId: TRAN,
    status: refunded ? 'partially_refunded' : 'paid',
    amount: { minorCurrencyUnits: 2000, currency: 'AUD' },
    refundedAmount: refunded,
    refundIds: [],
  },
  timelines: [],
})

const recording = useRecordingServer((r) => (r.method === 'PATCH' ? { body: transaction(500) } : { body: transaction(0) }), { credential: LIVE_KEY })
const { server, cli } = recording
const changing = () => server.requests.filter((r) => r.method !== 'GET')

describe('on production (a live_ key) without a terminal', () => {
  it('refuses a refund without --yes: exit 3, a banner, and the service receives nothing', async () => {
    const result = await cli('transactions', 'refund', TRAN, '--amount', '5.00')
    expect(result.code).toBe(3)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^PRODUCTION: PAYFAC_API_KEY \(no profile\), environment production, http:\/\/127\.0\.0\.1:\d+ \(live key\)$/m)
    expect(result.stderr).toContain('needs confirmation, and there is no terminal to ask: nothing was sent')
    expect(result.stderr).toContain('--yes')
    expect(server.requests).toHaveLength(0)
  })

  it('refunds with --yes', async () => {
    const result = await cli('transactions', 'refund', TRAN, '--amount', '5.00', '--yes', '--json')
    expect(result.code, result.stderr).toBe(0)
    expect(changing().map((r) => [r.method, r.path, r.json])).toEqual([['PATCH', `/transactions/${TRAN}`, { CreateRefund: { refundAmount: 500 } }]])
  })

  it('prints the request with --dry-run and sends nothing that changes anything', async () => {
    const result = await cli('transactions', 'refund', TRAN, '--amount', '5.00', '--dry-run')
    expect(result.code, result.stderr).toBe(0)
    const printed = JSON.parse(result.stdout)
    expect(printed).toMatchObject({
      dryRun: true,
      sent: false,
      request: { method: 'PATCH', url: `${server.url}/transactions/${TRAN}`, body: { CreateRefund: { refundAmount: 500 } } },
    })
    expect(printed.request.headers.Authorization).toBe('Bearer [REDACTED]')
    expect(result.stdout).not.toContain(LIVE_KEY)
    expect(changing()).toHaveLength(0)
  })

  it.each([
    ['orders cancel', ['orders', 'cancel', 'ordr_ProdGuardOrder01']],
    ['sources delete', ['sources', 'delete', 'psrc_ProdGuardSource1']],
    ['webhooks disable', ['webhooks', 'disable', 'webhook_ProdGuardHook001']],
    ['payouts request', ['payouts', 'request', '--amount', '10.00', '--currency', 'AUD']],
    ['api with a changing method', ['api', 'POST', '/orders/ordr_ProdGuardOrder01/pay', '--data', '{"PayByPayTo":{"paymentTokenId":"ptkn_x"}}']],
  ])('refuses %s without --yes (exit 3, nothing sent)', async (_name, argv) => {
    const result = await cli(...argv)
    expect(result.code, result.stderr).toBe(3)
    expect(changing()).toHaveLength(0)
  })

  it('lets a read through, with the banner', async () => {
    const result = await cli('transactions', 'get', TRAN, '--json')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain('PRODUCTION:')
  })
})

describe('a production profile', () => {
  it('is named in the banner, and removing it needs --yes without a terminal', async () => {
    const env = { ...recording.env(), PAYFAC_API_KEY: undefined, PAYFAC_BASE_URL: undefined }
    const added = await spawnCli(
      ['profiles', 'add', 'prod', '--environment', 'production', '--base-url', server.url, '--credential-stdin', '--merchant-id', 'mcht_ProdGuardMerch01'],
      { env, input: LIVE_KEY },
    )
    expect(added.code, added.stderr).toBe(0)
    const refused = await runCommand(['transactions', 'refund', TRAN, '--amount', '1.00', '--profile', 'prod'], { env })
    expect(refused.code).toBe(3)
    expect(refused.stderr).toContain('PRODUCTION: profile "prod", environment production')
    expect(changing()).toHaveLength(0)

    const remove = await runCommand(['profiles', 'remove', 'prod'], { env })
    expect(remove.code).toBe(3)
    const dry = await runCommand(['profiles', 'remove', 'prod', '--dry-run'], { env })
    expect(JSON.parse(dry.stdout)).toEqual({ dryRun: true, wouldRemove: 'prod' })
    expect((await runCommand(['profiles', 'show', 'prod', '--json'], { env })).code).toBe(0)
    expect((await runCommand(['profiles', 'remove', 'prod', '--yes'], { env })).code).toBe(0)
    expect((await runCommand(['profiles', 'show', 'prod'], { env })).code).toBe(3)
  })
})

describe('the emulator control commands', () => {
  it.each([
    ['reset', ['emulator', 'reset']],
    ['clock', ['emulator', 'clock', '--advance', '1h']],
    ['faults', ['emulator', 'faults', '--clear']],
  ])('refuse a target that is not an emulator: emulator %s with a live key exits 3 and sends nothing', async (_name, argv) => {
    const result = await cli(...argv)
    expect(result.code, result.stderr).toBe(3)
    expect(result.stderr).toContain('acts on a payfac emulator only')
    expect(server.requests).toHaveLength(0)
  })

  it('refuse a sandbox profile, even on this machine', async () => {
    const env = { ...recording.env(), PAYFAC_API_KEY: undefined, PAYFAC_BASE_URL: undefined }
    const added = await spawnCli(['profiles', 'add', 'sb', '--environment', 'sandbox', '--base-url', server.url, '--credential-stdin'], {
      env,
      input: 'sandbox_sk_sandboxKeyForGuard0001',
    })
    expect(added.code, added.stderr).toBe(0)
    const result = await runCommand(['emulator', 'reset', '--profile', 'sb'], { env })
    expect(result.code).toBe(3)
    expect(server.requests).toHaveLength(0)
  })
})

describe('the environment follows the values in effect', () => {
  const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJndWFyZCJ9.c2lnbmF0dXJlZ3VhcmQ'
  // A remote address that is never reached: every run here is refused before anything is sent.
  const REMOTE = 'https://payfac-guard.invalid'
  const write = ['api', 'POST', '/webhooks', '--data', '{"url":"https://example.com/hook"}']

  it('makes the local profile production when PAYFAC_BASE_URL and PAYFAC_API_KEY replace its address and key', async () => {
    const env = { ...recording.env(), PAYFAC_PROFILE: 'local', PAYFAC_BASE_URL: REMOTE, PAYFAC_API_KEY: JWT, PAYFAC_CREDENTIAL_KIND: 'merchant-jwt' }
    const who = await runCommand(['whoami', '--json'], { env })
    expect(who.code, who.stderr).toBe(0)
    expect(JSON.parse(who.stdout)).toContainEqual({
      setting: 'environment',
      value: 'production',
      source:
        'PAYFAC_BASE_URL and PAYFAC_API_KEY replace the values of profile local: payfac-guard.invalid (PAYFAC_BASE_URL) is not this machine and the credential names no environment',
    })
    const sent = await runCommand(write, { env })
    expect(sent.code, sent.stderr).toBe(3)
    expect(sent.stderr).toContain(
      'PRODUCTION: profile "local", environment production (PAYFAC_BASE_URL and PAYFAC_API_KEY replace the values of profile local: payfac-guard.invalid (PAYFAC_BASE_URL) is not this machine and the credential names no environment), https://payfac-guard.invalid',
    )
    expect(sent.stderr).toContain('needs confirmation, and there is no terminal to ask: nothing was sent')
    const reset = await runCommand(['emulator', 'reset'], { env })
    expect(reset.code, reset.stderr).toBe(2)
    expect(reset.stderr).toContain('is not on this machine: nothing was sent')
  })

  it('refuses `emulator reset` on a remote PAYFAC_BASE_URL with the emulator key too (exit 2)', async () => {
    const env = { ...recording.env(), PAYFAC_PROFILE: 'local', PAYFAC_BASE_URL: REMOTE, PAYFAC_API_KEY: undefined }
    const reset = await runCommand(['emulator', 'reset'], { env })
    expect(reset.code, reset.stderr).toBe(2)
  })

  it('guards a profile labelled local whose address is remote and whose key names no environment', async () => {
    const env = { ...recording.env(), PAYFAC_API_KEY: undefined, PAYFAC_BASE_URL: undefined }
    const added = await spawnCli(
      ['profiles', 'add', 'lab', '--environment', 'local', '--base-url', REMOTE, '--credential-stdin', '--credential-kind', 'merchant-jwt'],
      { env, input: JWT },
    )
    expect(added.code, added.stderr).toBe(0)
    const sent = await runCommand([...write, '--profile', 'lab'], { env })
    expect(sent.code, sent.stderr).toBe(3)
    expect(sent.stderr).toContain('needs confirmation')
    expect(sent.stderr).toContain(
      'PRODUCTION: profile "lab", environment production (profile lab says local, but payfac-guard.invalid is not this machine and the credential names no environment)',
    )
    const dry = await runCommand([...write, '--profile', 'lab', '--dry-run'], { env })
    expect(dry.code, dry.stderr).toBe(0)
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, request: { method: 'POST', url: `${REMOTE}/webhooks` } })
  })

  it.each([
    ['CI=true', { CI: 'true' }, [], 'CI is set (CI=true)'],
    ['--no-input', {}, ['--no-input'], '--no-input was given'],
  ])('refuses with %s and says so (exit 3, nothing sent)', async (_name, extraEnv, flags, why) => {
    const result = await runCommand([...write, ...flags], { env: { ...recording.env(), PAYFAC_API_KEY: LIVE_KEY, ...extraEnv } })
    expect(result.code, result.stderr).toBe(3)
    expect(result.stderr).toContain(`needs confirmation, and ${why}: nothing was sent`)
    expect(changing()).toHaveLength(0)
  })
})
