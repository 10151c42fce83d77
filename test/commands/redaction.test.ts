// Secrets never shown: a card's number and security code under --debug, a password in a base
// URL (refused before anything is sent), and webhook secrets taken without the command line.
import { describe, expect, it } from 'vitest'

import { webhookSignatureHeader } from '../../src/client/webhook-signature.js'
import { useEmulator } from '../helpers/command-harness.js'
import { newCustomer } from '../helpers/flows.js'
import { runCommand } from '../helpers/run-command.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const CARD = '4111111111111111'
const CVC = '987'

describe('redaction against the emulator', () => {
  const { json, payfac, ctx } = useEmulator()

  it('--debug on a card source creation shows neither the card number nor the CVC', async () => {
    const customerId = await newCustomer(json)
    const data = JSON.stringify({ CreateCardPaymentSource: { cardNumber: CARD, expiryMonth: 12, expiryYear: 2099, cvc: CVC, cardholderName: 'Ada' } })
    const result = await payfac('sources', 'create', '--customer-id', customerId, '--data', data, '--debug', '--json')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain('→ POST')
    expect(result.stderr).toContain('"cardNumber":"****1111"')
    expect(result.stderr).toContain('"cvc":"[REDACTED]"')
    for (const output of [result.stderr, result.stdout]) {
      expect(output).not.toContain(CARD)
      expect(output).not.toMatch(/"cvc":"\d/)
    }
  })

  it('masks a card number that a refusal or a bad --data would otherwise repeat', async () => {
    const bad = await payfac('sources', 'create', '--customer-id', 'cust_x', '--data', `{"CreateCardPaymentSource":{"cardNumber":${CARD},}`)
    expect(bad.code).toBe(2)
    expect(bad.stderr).not.toContain(CARD)
    const garbage = await payfac('sources', 'create', '--customer-id', 'cust_x', '--data', `card ${CARD}`)
    expect(garbage.code).toBe(2)
    expect(garbage.stderr).not.toContain(CARD)
  })

  it('refuses a base URL holding a password (exit 2 from a flag, 3 from the environment), never showing it', async () => {
    const url = new URL(ctx.emulator.url)
    url.username = 'ann'
    url.password = 'hunter2pw'
    const fromFlag = await payfac('orders', 'list', '--base-url', url.toString())
    expect(fromFlag.code).toBe(2)
    expect(fromFlag.stderr).toMatch(/--base-url must not hold a user name or password/)
    const fromEnv = await runCommand(['orders', 'list'], { env: { ...ctx.env, PAYFAC_BASE_URL: url.toString() } })
    expect(fromEnv.code).toBe(3)
    expect(fromEnv.stderr).toMatch(/holds a user name or password/)
    const notUrl = await payfac('orders', 'list', '--base-url', 'not-a-url')
    expect(notUrl.code).toBe(2)
    for (const result of [fromFlag, fromEnv, notUrl]) expect(`${result.stdout}${result.stderr}`).not.toContain('hunter2pw')
    const log = (await (await fetch(`${ctx.emulator.url}/__emulator/requests?limit=1000`)).json()) as Array<{ url: string }>
    expect(log.filter((entry) => entry.url.startsWith('/orders'))).toEqual([])
  })
})

describe('webhook secrets without the command line (spawned: they read stdin)', () => {
  const body = '{"eventType":"TransactionPaid"}'
  const secret = 'whsec_fromTheEnvironment0001'
  const header = webhookSignatureHeader(secret, body)

  it('webhooks verify reads the secret from PAYFAC_WEBHOOK_SECRET', async () => {
    const ok = await spawnCli(['webhooks', 'verify', '--signature', header, '--json'], { env: { PAYFAC_WEBHOOK_SECRET: secret }, input: body })
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ valid: true })
    const wrong = await spawnCli(['webhooks', 'verify', '--signature', header], { env: { PAYFAC_WEBHOOK_SECRET: 'whsec_other' }, input: body })
    expect(wrong.code).toBe(6)
  })

  it('webhooks verify without any secret, or with --secret - (stdin holds the body), is a usage error', async () => {
    const none = await spawnCli(['webhooks', 'verify', '--signature', header], { env: { PAYFAC_WEBHOOK_SECRET: undefined }, input: body })
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/No webhook secret given.*PAYFAC_WEBHOOK_SECRET/)
    const dash = await spawnCli(['webhooks', 'verify', '--secret', '-', '--signature', header], { env: {}, input: body })
    expect(dash.code).toBe(2)
    expect(dash.stderr).toMatch(/stdin carries the body/)
  })
})
