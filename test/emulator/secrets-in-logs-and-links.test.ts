// Adversarial checks of the emulator's credentials and what it shows of them: the request log,
// the Pay By Link token, the context headers, and the customer pages.
import { describe, expect, it } from 'vitest'
import { LOGGED_SNIPPET_CHARS, RequestLog, snippet } from '../../src/emulator/request-log.js'
import { KEYS, SUB_MERCHANT, ok, testApp } from './helpers.js'

describe('the request log', () => {
  it('masks a webhook secret cut in two by the end of a logged snippet', () => {
    const app = testApp()
    // The answer of a create is the subscription, its secret last: pad the metadata so that the
    // snippet of the answer ends in the middle of the secret (metadata comes before it).
    const probe = ok(
      app.request('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { url: 'https://example.com/hook', metadata: { pad: 'x' } } } }),
    )
    const at = JSON.stringify(probe).indexOf('"secret":"whsec_') + '"secret":"whsec_'.length
    const pad = LOGGED_SNIPPET_CHARS - at - 10
    const made = ok(
      app.request('POST', '/webhooks', {
        body: { CreateWebhookMerchantSubscription: { url: 'https://example.com/hook', metadata: { pad: 'x'.repeat(1 + pad) } } },
      }),
    )
    const secret = (Object.values(made)[0] as { secret: string }).secret
    const text = JSON.stringify(made)
    expect(text.indexOf(secret) + 6 + 10).toBe(LOGGED_SNIPPET_CHARS)
    const log = ok(app.request('GET', '/__emulator/requests?limit=1', { credential: null })) as Array<{ responseBody: string }>
    const logged = log[0]?.responseBody ?? ''
    expect(logged.length).toBeGreaterThan(LOGGED_SNIPPET_CHARS - 100)
    expect(logged).not.toContain(secret.slice(0, 6 + 8))
  })
})

describe('the request log, on a body cut by its snippet', () => {
  /** A body whose logged snippet ends `keep` characters into the value of `field`. */
  const cutInside = (field: string, value: string, keep: number) => {
    const around = `{"metadata":{"pad":""},"${field}":"`.length
    return `{"metadata":{"pad":"${'x'.repeat(LOGGED_SNIPPET_CHARS - keep - around)}"},"${field}":"${value}"}`
  }

  it('hides a card number or a security code cut short (no Luhn check to find them by)', () => {
    for (const [field, value, keep] of [
      ['cardNumber', '4242424242424242', 12],
      ['cvc', '123', 2],
    ] as const) {
      const log = new RequestLog(4)
      const sent = cutInside(field, value, keep)
      const kept = snippet(sent) as string
      expect(kept.endsWith(`"${field}":"${value.slice(0, keep)}…`)).toBe(true)
      log.add({
        requestId: 'req_1',
        at: 0,
        method: 'POST',
        url: '/sources',
        status: 200,
        durationMs: 1,
        fault: null,
        requestHeaders: {},
        requestBody: kept,
        responseBody: null,
      })
      const shown = log.toArray()[0]?.requestBody ?? ''
      expect(shown).toContain(`"${field}":`)
      expect(shown).not.toContain(value.slice(0, keep))
    }
  })
})

describe('the inspector', () => {
  it('lists no credential in the clear: API keys and sign-in tokens key their collections', () => {
    const app = testApp()
    const made = ok(app.request('POST', '/auth/servicetokens', { body: { CreateServiceToken: { description: 'ci' } } }))
    const { customerId } = ok(app.request('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: 'pat@example.com', givenName: 'Pat' } } }))
    const signedIn = ok(app.request('POST', '/auth/signin', { body: { SignInConsumer: { customerId } } }))
    const shown = ['apiKeys', 'customerSessions', 'serviceTokens']
      .map((name) => JSON.stringify(ok(app.request('GET', `/__emulator/ui/api/state/${name}`, { credential: null }))))
      .join('\n')
    expect(shown).toContain('sandbox_sk_…')
    expect(shown).not.toContain(KEYS.merchantSecretKey)
    expect(shown).not.toContain(KEYS.marketplaceApiKey)
    expect(shown).not.toContain(made.token)
    expect(signedIn.customToken).toMatch(/^sandbox_ct_/)
    expect(shown).toContain('sandbox_ct_…')
    expect(shown).not.toContain(signedIn.customToken)
  })
})

describe('the Pay By Link token', () => {
  const customer = (app: ReturnType<typeof testApp>, emailAddress: string) =>
    ok(app.request('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress, givenName: 'Pat' } } })).customerId as string
  const linkFor = (app: ReturnType<typeof testApp>, customerId?: string) =>
    ok(
      app.request('POST', '/orders', {
        ...(customerId ? { headers: { 'Customer-Id': customerId } } : {}),
        body: { CreatePayByLinkOrder: { amount: { minorCurrencyUnits: 2500, currency: 'AUD' } } },
      }),
    ).PayByLinkOrder.payByLinkToken as string

  it("signs in the order's customer only: never another customer of the merchant, whose saved sources a session unlocks", () => {
    const app = testApp()
    const payer = customer(app, 'payer@example.com')
    const other = customer(app, 'other@example.com')
    const token = linkFor(app, payer)
    const signIn = (customerId: string) => app.request('POST', '/auth/signin', { credential: token, body: { SignInConsumer: { customerId } } })
    expect(ok(signIn(payer)).customerId).toBe(payer)
    const refused = signIn(other)
    expect(refused.status).toBe(403)
    expect((refused.body as { errorCode: string }).errorCode).toBe('context_forbidden')
    // An unknown id is refused the same way: the token tells nothing of which customers exist.
    expect(signIn('cust_doesnotexist').status).toBe(403)
    const byReference = app.request('POST', '/auth/signin', {
      credential: token,
      body: { SignInDelegateByReferenceId: { referenceCustomerId: 'no-such-org', emailAddress: 'a@example.com' } },
    })
    expect(byReference.status).toBe(403)
  })

  it('of an order made without a customer signs in no one, and acts for no other merchant', () => {
    const app = testApp()
    const someone = customer(app, 'someone@example.com')
    const token = linkFor(app)
    expect(app.request('POST', '/auth/signin', { credential: token, body: { SignInConsumer: { customerId: someone } } }).status).toBe(403)
    const elsewhere = app.request('POST', '/auth/signin', {
      credential: linkFor(app, someone),
      headers: { 'Merchant-Id': SUB_MERCHANT },
      body: { SignInConsumer: { customerId: someone } },
    })
    expect(elsewhere.status).toBe(403)
    expect(app.request('GET', `/customers/${someone}`, { credential: token }).status).toBe(403)
  })
})

describe('the request log, on headers', () => {
  it('masks headers named as secrets (Proxy-Authorization, Cookie, X-Api-Key, X-Auth-Token), whatever their values look like', () => {
    const app = testApp()
    const sent = {
      'Proxy-Authorization': 'Basic dXNlcjpwYXNzd29yZA==',
      Cookie: 'sid=cookieSecret123',
      'X-Api-Key': 'opaqueKey123456',
      'X-Auth-Token': 'tok_abcdef123456',
    }
    ok(app.request('GET', '/orders', { headers: sent }))
    const log = ok(app.request('GET', '/__emulator/requests?limit=1', { credential: null })) as Array<{ requestHeaders: Record<string, string> }>
    const shown = JSON.stringify(log[0]?.requestHeaders)
    expect(shown).toContain('"x-api-key"')
    for (const value of Object.values(sent)) expect(shown).not.toContain(value)
  })
})
