// The customer's side without a browser: the links the API hands out, the pages' escaping,
// headers and refusals, the recorded 3DS outcome that Confirm3DSComplete follows, the blank
// billing block of the shop plug-in, and the inspector's paged reads.
import { describe, expect, it } from 'vitest'
import { createEmulatorApp } from '../../src/emulator/app.js'
import { fakeClock } from '../../src/emulator/clock.js'
import { seededIds } from '../../src/emulator/ids.js'
import { esc, html } from '../../src/emulator/pages/html.js'
import { RingBuffer } from '../../src/emulator/ring-buffer.js'
import { aud, ok, testApp } from './helpers.js'

type App = ReturnType<typeof testApp>

function page(app: App, method: string, url: string, form?: string, headers: Record<string, string> = {}) {
  return app.handle({
    method,
    url,
    headers: { host: '127.0.0.1', ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers },
    body: form,
  })
}

function payByLink(app: App, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return ok(app.request('POST', '/orders', { body: { CreatePayByLink: { amount: aud(1250), ...body } }, headers })).PayByLinkOrder
}

function challenge(app: App, cardNumber = '4000000000003220') {
  const customerId = ok(
    app.request('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: 'c@example.com', givenName: 'C', familyName: 'D' } } }),
  ).customerId
  const source = ok(
    app.request('POST', '/sources', {
      body: { CreateCardPaymentSource: { cardNumber, expiryMonth: 12, expiryYear: 2030, cvc: '123' } },
      headers: { 'Customer-Id': customerId },
    }),
  )
  const paymentTokenId = ok(
    app.request('POST', '/tokens', { body: { CreateSavedPaymentSourceToken: { paymentSourceId: source.paymentSourceId, amount: aud(900) } } }),
  ).SavedPaymentSourceToken.paymentTokenId
  const orderId = ok(app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(900) } } })).OnlineOrder.order.orderId
  const asked = ok(app.request('POST', `/orders/${orderId}/pay`, { body: { PayByCard: { paymentTokenId } } })).ThreeDSAuthorisationRequired
  return { orderId, paymentTokenId, ...asked }
}

const confirm = (app: App, c: { orderId: string; paymentTokenId: string }) =>
  app.request('POST', `/orders/${c.orderId}/pay`, { body: { Confirm3DSComplete: { paymentTokenId: c.paymentTokenId, threeDSResponse: 'passed' } } })
const outcome = (app: App, threeDSAuthorisationId: string, value: string) =>
  app.request('POST', '/simulation', { body: { SetThreeDSOutcome: { threeDSAuthorisationId, outcome: value } } })

describe('links to the pages', () => {
  it('puts the pay-by-link page at the origin the caller reached, with its namespace', () => {
    const app = testApp()
    const made = payByLink(app, {}, { 'Emulator-Namespace': 'ci-7' })
    expect(made.payByLinkUrl).toBe(`http://127.0.0.1/checkout/paybylink/${made.order.orderId}?namespace=ci-7`)
    expect(page(app, 'GET', `/checkout/paybylink/${made.order.orderId}?namespace=ci-7`).status).toBe(200)
    expect(page(app, 'GET', `/checkout/paybylink/${made.order.orderId}`).status).toBe(404)
  })

  it('gives a card payment that needs a challenge its challenge page', () => {
    const c = challenge(testApp())
    expect(c.challengeUrl).toBe(`http://127.0.0.1/checkout/3ds/${c.threeDSAuthorisationId}`)
  })
})

describe('the pages', () => {
  it('escapes every text of the order, and fetches nothing from elsewhere', () => {
    const app = testApp()
    const hostile = `<img src=x onerror="alert(1)"> & 'quotes'`
    const made = payByLink(app, { description: hostile, items: [{ amount: aud(1250), description: '</td><script>x()</script>', quantity: 1 }] })
    const answer = page(app, 'GET', `/checkout/paybylink/${made.order.orderId}`)
    const text = String(answer.body)
    expect(text).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;quotes&#39;')
    expect(text).not.toContain('<img')
    expect(text).not.toContain('<script')
    expect(text).toContain('Pay 12.64 AUD')
    expect(text).not.toMatch(/(src|href)="https?:/)
    expect(answer.headers['Content-Security-Policy']).toContain("default-src 'none'")
    expect(answer.headers['Content-Type']).toBe('text/html; charset=utf-8')
  })

  it('lets no other site frame the checkout, the PayTo approval page or the inspector; the 3DS challenge only its own origin', () => {
    const app = testApp()
    const agreement = ok(
      app.request('POST', '/payto/agreement', {
        body: {
          customerName: 'No Answer Test',
          customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
          terms: { AgreementRequestTermsOpen: {} },
          purpose: 'Veg box',
        },
      }),
    )
    const framing = (url: string) => {
      const answer = page(app, 'GET', url)
      expect(answer.status, url).toBe(200)
      const csp = String(answer.headers['Content-Security-Policy'])
      return [csp.match(/frame-ancestors [^;]+/)?.[0], answer.headers['X-Frame-Options']]
    }
    const none = ["frame-ancestors 'none'", 'DENY']
    expect(framing(`/checkout/paybylink/${payByLink(app).order.orderId}`)).toEqual(none)
    expect(framing(`/checkout/payto/${agreement.token}`)).toEqual(none)
    expect(framing('/__emulator/ui')).toEqual(none)
    expect(framing(new URL(challenge(app).challengeUrl).pathname)).toEqual(["frame-ancestors 'self'", 'SAMEORIGIN'])
  })

  it('escapes through the template, and leaves marked markup alone', () => {
    expect(esc(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
    expect(html`<p>${'<b>'}${html`<i>${'&'}</i>`}${null}${['<', '>']}</p>`.text).toBe('<p>&lt;b&gt;<i>&amp;</i>&lt;&gt;</p>')
  })

  it('refuses a form posted from another site, and pays nothing', () => {
    const app = testApp()
    const made = payByLink(app)
    const form = 'method=card&cardNumber=4242424242424242&expiry=12%2F34&cvc=123'
    expect(page(app, 'POST', `/checkout/paybylink/${made.order.orderId}`, form, { origin: 'http://evil.example' }).status).toBe(403)
    expect(page(app, 'POST', `/checkout/paybylink/${made.order.orderId}`, form, { 'sec-fetch-site': 'cross-site' }).status).toBe(403)
    expect(ok(app.request('GET', `/orders/${made.order.orderId}`)).status).toBe('pending')
    const paid = page(app, 'POST', `/checkout/paybylink/${made.order.orderId}`, form, { origin: 'http://127.0.0.1' })
    expect([paid.status, paid.headers.Location]).toEqual([303, `/checkout/paybylink/${made.order.orderId}`])
    expect(ok(app.request('GET', `/orders/${made.order.orderId}`)).status).toBe('paid')
  })

  it('shows a cancelled order as cancelled, with no way to pay', () => {
    const app = testApp()
    const made = payByLink(app)
    ok(app.request('DELETE', `/orders/${made.order.orderId}`))
    const text = String(page(app, 'GET', `/checkout/paybylink/${made.order.orderId}`).body)
    expect(text).toContain('This order was cancelled')
    expect(text).not.toContain('<form')
  })

  it('shows only fixed notices, whatever the link says', () => {
    const app = testApp()
    const made = payByLink(app)
    expect(String(page(app, 'GET', `/checkout/paybylink/${made.order.orderId}?notice=%3Cb%3Ezqxj-injected`).body)).not.toContain('zqxj')
  })
})

describe('Confirm3DSComplete follows the recorded outcome', () => {
  it('is not completed before the customer answers, and the answer in the request does not count', () => {
    const app = testApp()
    const c = challenge(app)
    const early = confirm(app, c)
    expect([early.status, early.body.errorCode]).toEqual([409, 'three_ds_not_completed'])
    ok(outcome(app, c.threeDSAuthorisationId, 'passed'))
    expect(ok(confirm(app, c)).PayOrderComplete.transactionStatus).toBe('accepted')
  })

  it('refuses after an abandoned challenge, and a new PayByCard asks again', () => {
    const app = testApp()
    const c = challenge(app)
    expect(ok(outcome(app, c.threeDSAuthorisationId, 'abandoned')).outcome).toBe('abandoned')
    expect(confirm(app, c).body.errorCode).toBe('three_ds_abandoned')
    expect(outcome(app, c.threeDSAuthorisationId, 'passed').body.errorCode).toBe('three_ds_not_pending')
    const again = ok(
      app.request('POST', `/orders/${c.orderId}/pay`, { body: { PayByCard: { paymentTokenId: c.paymentTokenId } } }),
    ).ThreeDSAuthorisationRequired
    expect(again.threeDSAuthorisationId).not.toBe(c.threeDSAuthorisationId)
  })

  it('records the outcome from the challenge page too', () => {
    const app = testApp()
    const c = challenge(app)
    expect(String(page(app, 'GET', `/checkout/3ds/${c.threeDSAuthorisationId}`).body)).toContain('Pass the check')
    expect(page(app, 'POST', `/checkout/3ds/${c.threeDSAuthorisationId}`, 'outcome=fail').status).toBe(303)
    expect(confirm(app, c).body.errorCode).toBe('three_ds_failed')
  })
})

describe('an all-empty billing block (the shop plug-in, field notes)', () => {
  const billing = { address: { line1: '', line2: '', city: '', state: '', postalCode: '', country: '' }, name: ' ', phoneNumber: '' }

  it('is accepted in lenient mode and kept as sent', () => {
    const app = testApp()
    const order = ok(app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), billing } } })).OnlineOrder.order
    expect(order.billing).toEqual(billing)
    expect(order.customerName).toBeNull()
  })

  it('is accepted under --strict too (what real clients send), and a half-filled address is refused in both modes', () => {
    const strict = createEmulatorApp({ clock: fakeClock(), ids: seededIds('strict'), integrators: { strict: true } })
    const taken = strict.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), billing } } })
    expect(taken.status).toBe(200)
    expect(taken.body.OnlineOrder.order.billing).toEqual(billing)
    const strictHalf = strict.request('POST', '/orders', {
      body: { CreateOnlineOrder: { amount: aud(100), billing: { ...billing, address: { ...billing.address, city: 'Perth' } } } },
    })
    expect(strictHalf.status).toBe(400)
    const half = testApp().request('POST', '/orders', {
      body: { CreatePayByLink: { amount: aud(100), billing: { ...billing, address: { ...billing.address, city: 'Perth' } } } },
    })
    expect(half.status).toBe(400)
  })
})

describe('the inspector reads a page at a time', () => {
  it('pages a ring buffer from the newest down, by sequence number', () => {
    const ring = new RingBuffer<{ seq: number; n: number }>(5)
    for (let n = 1; n <= 12; n++) ring.push({ n })
    expect(ring.page(undefined, 3).map((e) => e.seq)).toEqual([12, 11, 10])
    expect(ring.page(10, 10).map((e) => e.seq)).toEqual([9, 8])
    expect([ring.bySeq(8)?.n, ring.bySeq(7), ring.oldestSeq]).toEqual([8, undefined, 8])
  })

  it('answers the newest requests, an older page, and one request whole with its credential masked', () => {
    const app = testApp()
    for (let i = 0; i < 60; i++) app.request('GET', '/orders?limit=1')
    const first = JSON.parse(String(page(app, 'GET', '/__emulator/ui/api/requests').body))
    expect(first.rows).toHaveLength(50)
    expect(first.rows[0].seq).toBe(60)
    const older = JSON.parse(String(page(app, 'GET', '/__emulator/ui/api/requests?before=11&limit=500').body))
    expect(older.rows.map((r: { seq: number }) => r.seq)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    const one = JSON.parse(String(page(app, 'GET', '/__emulator/ui/api/requests/60').body))
    expect(one.requestHeaders.authorization).toBe('Bearer sandbox_sk_…0001')
    expect(page(app, 'POST', '/__emulator/ui/api/requests').status).toBe(405)
  })

  it('shows a record with links to the records it names', () => {
    const app = testApp()
    const made = payByLink(app)
    const record = JSON.parse(String(page(app, 'GET', `/__emulator/ui/api/record/${made.order.orderId}`).body))
    expect(record.collection).toBe('orders')
    expect(record.links[made.order.merchantId]).toBe('merchants')
  })
})
