// --fixtures: records on top of the seed, usable at once, re-applied on reset; a bad file is
// refused with a message that says where.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import EmulatorStart from '../../src/commands/emulator/start.js'
import { createEmulatorApp } from '../../src/emulator/app.js'
import { fakeClock } from '../../src/emulator/clock.js'
import { FixtureError, loadFixtures, parseFixtures, type Fixtures } from '../../src/emulator/fixtures.js'
import { seededIds } from '../../src/emulator/ids.js'
import { KEYS, MARKETPLACE, MERCHANT } from './helpers.js'
import { aud, call, waitFor } from './integrators-helpers.js'

const ROOT = resolve(__dirname, '../..')

const SUB = 'mcht_FixtureSubMerch1'
const CUSTOMER = 'cust_FixtureCustomer1'
const AGREEMENT = 'ptagr_FixtureAgreeme01'
const OPEN_AGREEMENT = 'ptagr_FixtureOpenAgr01'
const HOOK = 'webhook_FixtureHook00001'

const FIXTURES = {
  subMerchants: [
    {
      merchantId: SUB,
      name: 'Fixture Sub Pty Ltd',
      bankAccount: { bsb: '062-000', accountNumber: '11223344' },
      secretKey: 'sandbox_sk_fixtureSubMerchantKey01',
    },
  ],
  merchants: [{ name: 'Standalone Pty Ltd', currency: 'NZD' }],
  customers: [
    { customerId: CUSTOMER, emailAddress: 'fixture@example.com', givenName: 'Fix', familyName: 'Ture' },
    { merchantId: SUB, referenceCustomerId: 'org-1', organisationName: 'Org One' },
  ],
  agreements: [
    { token: AGREEMENT, customerName: 'Fix Ture', bban: '062-000 12345678', amount: aud(1500), status: 'Active' },
    { token: OPEN_AGREEMENT, customerName: 'Fix Ture', alias: { aliasType: 'Phone', value: '+61412345678' }, status: 'Suspended' },
  ],
  webhookSubscriptions: [
    { id: HOOK, url: 'https://hooks.example.com/fixture', events: ['OrderCreated'], metadata: { from: 'fixture' }, secret: 'whsec_fixtureSecret' },
  ],
  balances: [{ merchantId: SUB, amount: aud(90_000) }],
  serviceTokens: [{ marketplaceId: MARKETPLACE, token: 'sandbox_api_fixtureMarketplaceToken1', description: 'CI' }],
} satisfies Fixtures

function app(fixtures: unknown = FIXTURES) {
  return createEmulatorApp({ clock: fakeClock('2025-03-01T10:00:00.000Z'), ids: seededIds('fixtures'), integrators: { fixtures: parseFixtures(fixtures) } })
}

describe('fixtures', () => {
  it('load on top of the seed and work with no further set-up', () => {
    const a = app()
    expect(a.store.merchants.get(MERCHANT)).toBeDefined()
    expect(a.store.merchants.get(SUB)).toMatchObject({ marketplaceId: MARKETPLACE, name: 'Fixture Sub Pty Ltd' })
    expect(a.store.merchants.all().find((m) => m.name === 'Standalone Pty Ltd')).toMatchObject({ marketplaceId: null, currency: 'NZD' })

    // The agreement is Active at once: a token and a payment straight away.
    expect(a.request('GET', `/payto/agreement?token=${AGREEMENT}`).body).toMatchObject({ status: 'Active', agreementType: 'OneOff' })
    expect(a.request('GET', `/payto/agreement?token=${OPEN_AGREEMENT}`).body).toMatchObject({ status: 'Suspended', agreementType: 'Open' })
    const token = a.request('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(1500), agreementToken: AGREEMENT } } })
    expect(token.status).toBe(200)
    const order = a.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(1500), referenceOrderId: 'fx' } } }).body.OnlineOrder.order
    const paid = a.request('POST', `/orders/${order.orderId}/pay`, { body: { PayByPayTo: { paymentTokenId: token.body.PayToToken.paymentTokenId } } })
    expect(paid.body.PayOrderComplete.transactionStatus).toBe('paid')

    // Customers, the sub-merchant's own key, the marketplace service token, the subscription, the balance.
    expect(a.request('GET', `/customers/${CUSTOMER}`).body).toMatchObject({ emailAddress: 'fixture@example.com', customerType: 'Consumer' })
    const orgs = a.request('GET', '/customers', { credential: 'sandbox_sk_fixtureSubMerchantKey01' }).body as any[]
    expect(orgs).toEqual([expect.objectContaining({ referenceCustomerId: 'org-1', customerType: 'Organisation' })])
    expect(a.request('GET', `/merchants/${SUB}`, { credential: 'sandbox_api_fixtureMarketplaceToken1' }).status).toBe(200)
    expect(a.request('GET', `/webhooks/${HOOK}`).body.WebhookMerchantSubscription).toMatchObject({
      url: 'https://hooks.example.com/fixture',
      secret: 'whsec_fixtureSecret',
      status: 'Active',
    })
    const entries = a.store.settlementEntries.filter((e) => e.merchantId === SUB)
    expect(entries).toEqual([expect.objectContaining({ type: 'BankTransfer', amount: aud(90_000), availableOn: '2025-03-01' })])
    a.close()
  })

  it('are applied again on reset, and the contract flows still work without them', () => {
    const a = app()
    a.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: 'gone' } } })
    a.request('PATCH', `/webhooks/${HOOK}`, { body: { UpdateWebhookSubscriptionStatus: { status: 'Suspended' } } })
    expect(a.request('POST', '/__emulator/reset', { credential: null }).status).toBe(200)
    expect(a.request('GET', '/orders').body).toEqual([])
    expect(a.store.webhookSubscriptions.get(HOOK)?.status).toBe('Active')
    expect(a.store.customers.get(CUSTOMER)).toBeDefined()
    expect(a.store.agreements.get(AGREEMENT)).toBeDefined()
    // Also in a namespace of its own.
    const ns = a.request('GET', `/customers/${CUSTOMER}`, { headers: { 'Emulator-Namespace': 'with-fixtures' } })
    expect(ns.status).toBe(200)
    a.close()

    const plain = createEmulatorApp({ clock: fakeClock() })
    expect(plain.request('GET', '/orders').status).toBe(200)
    expect(
      plain.request('POST', '/payto/agreement', {
        credential: KEYS.merchantPublicKey,
        body: { customerName: 'A', customerAccIdentifier: { Bban: { value: '062000 12345678' } }, terms: { AgreementRequestTermsOpen: {} }, purpose: 'x' },
      }).status,
    ).toBe(200)
    plain.close()
  })

  it('load the example of docs/emulator.md', () => {
    const docs = readFileSync(resolve(__dirname, '../../docs/emulator.md'), 'utf8')
    const section = docs.slice(docs.indexOf('### Fixtures'))
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1] as string
    const a = app(JSON.parse(example))
    expect(a.request('GET', '/customers/cust_AcmeCustomer0001', { credential: 'sandbox_sk_acmeSubMerchantKey0001' }).status).toBe(200)
    expect(a.request('GET', '/payto/agreement?token=ptagr_AcmeOneOff000001').body.status).toBe('Active')
    expect(a.request('GET', '/orders', { credential: 'sandbox_api_ciMarketplaceToken0001' }).status).toBe(200)
    a.close()
  })

  it('refuse a bad file with a message that says where', () => {
    const dir = mkdtempSync(join(tmpdir(), 'payfac-fixtures-'))
    const file = (name: string, text: string) => {
      const path = join(dir, name)
      writeFileSync(path, text)
      return path
    }
    expect(() => loadFixtures(join(dir, 'missing.json'))).toThrow(/Cannot read the fixture file/)
    expect(() => loadFixtures(file('broken.json', '{"merchants": ['))).toThrow(/is not JSON/)
    expect(() => loadFixtures(file('unknown.json', '{"widgets": []}'))).toThrow(/unknown field "widgets"/)
    expect(() => loadFixtures(file('shape.json', '{"customers": [{"customerId": "nope"}]}'))).toThrow(/customers\[0\]\.customerId/)
    expect(() => loadFixtures(file('both.json', '{"agreements": [{"customerName": "x"}]}'))).toThrow(/exactly one of bban or alias/)
    expect(() => loadFixtures(file('https.json', '{"webhookSubscriptions": [{"url": "http://example.com", "events": ["OrderCreated"]}]}'))).toThrow(/https/)
    const ok = loadFixtures(file('ok.json', JSON.stringify(FIXTURES)))
    expect(ok.customers).toHaveLength(2)

    // References are checked when applied: the emulator refuses to start.
    const errorOf = (fixtures: unknown) => {
      try {
        app(fixtures).close()
      } catch (error) {
        return error
      }
      return undefined
    }
    const unknownMerchant = errorOf({ customers: [{ merchantId: 'mcht_NoSuchMerchant01', emailAddress: 'a@example.com' }] })
    expect(unknownMerchant).toBeInstanceOf(FixtureError)
    expect(String(unknownMerchant)).toMatch(/customers\[0\]\.merchantId: no merchant mcht_NoSuchMerchant01/)
    expect(String(errorOf({ merchants: [{ merchantId: MERCHANT, name: 'Again' }] }))).toMatch(/already taken/)
    expect(String(errorOf({ serviceTokens: [{ token: KEYS.merchantSecretKey }] }))).toMatch(/already in use/)
    expect(String(errorOf({ customers: [{ customerType: 'Consumer' }] }))).toMatch(/needs an emailAddress/)
  })
})

describe('emulator start with --fixtures, --seed, --rate-limit and --strict-https', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  function capture() {
    const out: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk))
      return true
    })
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    return out
  }

  it('refuses a bad fixture file with exit status 3', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'payfac-start-fixtures-')), 'fixtures.json')
    writeFileSync(path, '{"customers": [{"merchantId": "mcht_NoSuchMerchant01", "emailAddress": "a@example.com"}]}')
    capture()
    const err: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err.push(String(chunk))
      return true
    })
    process.exitCode = undefined
    try {
      await EmulatorStart.run(['--port', '0', '--fixtures', path], ROOT)
      expect(process.exitCode).toBe(3)
    } finally {
      process.exitCode = undefined
    }
    expect(err.join('')).toContain('customers[0].merchantId')
  })

  it('serves the fixtures and applies the flags', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'payfac-start-fixtures-')), 'fixtures.json')
    writeFileSync(path, JSON.stringify({ customers: [{ customerId: CUSTOMER, emailAddress: 'start@example.com' }] }))
    const out = capture()
    const running = EmulatorStart.run(['--port', '0', '--json', '--fixtures', path, '--seed', '7', '--rate-limit', '1000', '--strict-https'], ROOT)
    const line = await waitFor(() => out.join('').split('\n')[0], 'the JSON line')
    const { baseUrl } = JSON.parse(line)
    expect((await call(baseUrl, 'GET', `/customers/${CUSTOMER}`)).body).toMatchObject({ emailAddress: 'start@example.com' })
    expect((await call(baseUrl, 'GET', '/__emulator', { credential: null })).body.options).toEqual({
      faultSeed: '7',
      rateLimit: 1000,
      strictHttps: true,
      strict: false,
      paymentTokenLifetimeSeconds: null,
      fixtures: true,
    })
    process.emit('SIGINT')
    await running
  })
})
