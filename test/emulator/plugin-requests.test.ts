// What real clients send (field notes): the shop plug-in's request bodies (test/fixtures/plugin),
// sent over HTTP the way the plug-in sends them, to a lenient emulator (the default) and to a
// strict one (`--strict`). Lenient: answered 200, unknown fields kept and reported. Strict: the
// plug-in's own fields still pass (they are what the service takes), unknown ones are a 400.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulatorApp, startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { KEYS, aud, ok, payableOrder, paidTransaction, testApp } from './helpers.js'

const FIXTURES = join(__dirname, '../fixtures/plugin')
const golden = (name: string): Record<string, any> => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'))

/** The plug-in's headers: a form content type over JSON, and the two stray header lines. */
const PLUGIN_HEADERS = {
  'content-type': 'application/x-www-form-urlencoded',
  '0': 'Content-Type: application/json',
  '1': `Authorization: Bearer ${KEYS.merchantSecretKey}`,
}

interface Answer {
  status: number
  warning: string | null
  body: any
}

let lenient: RunningEmulator
let strict: RunningEmulator

beforeAll(async () => {
  lenient = await startEmulator({ port: 0 })
  strict = await startEmulator({ port: 0, integrators: { strict: true } })
})
afterAll(async () => {
  await lenient.close()
  await strict.close()
})

async function send(emulator: RunningEmulator, method: string, path: string, body?: string, headers: Record<string, string> = PLUGIN_HEADERS): Promise<Answer> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEYS.merchantSecretKey}`, ...headers },
    ...(body === undefined ? {} : { body }),
  })
  return { status: response.status, warning: response.headers.get('emulator-warning'), body: await response.json() }
}

/** The golden body with one field the emulator does not know, inside the action's value. */
function withUnknown(body: Record<string, any>, field: string, value: unknown) {
  const [action] = Object.keys(body) as [string]
  return { [action]: { ...body[action], [field]: value } }
}

const CASES = [
  { name: 'register-customer', path: '/customers', action: 'RegisterPluginConsumerCustomer' },
  { name: 'order-shipping-discount', path: '/orders', action: 'CreateOnlineOrder' },
  { name: 'order-virtual-goods', path: '/orders', action: 'CreateOnlineOrder' },
] as const

describe('the plug-in’s golden request bodies', () => {
  it.each(CASES)('$name is answered 200 by a lenient and by a strict emulator, with nothing to report', async ({ name, path }) => {
    for (const emulator of [lenient, strict]) {
      const answer = await send(emulator, 'POST', path, JSON.stringify(golden(name)))
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      expect(answer.warning).toBeNull()
    }
  })

  it.each(CASES)('$name with an unknown field: kept and reported when lenient, a 400 naming it when strict', async ({ name, path, action }) => {
    const text = JSON.stringify(withUnknown(golden(name), 'loyaltyTier', 'gold'))
    const accepted = await send(lenient, 'POST', path, text)
    expect(accepted.status).toBe(200)
    expect(accepted.warning).toBe(`unknown field accepted: "${action}.loyaltyTier"`)
    const refused = await send(strict, 'POST', path, text)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ statusCode: 400, errorCode: 'invalid_request' })
    expect(refused.body.message).toContain('loyaltyTier')
  })

  it('registers a shopper by e-mail like a consumer upsert, answering the same customerId every time', async () => {
    const body = golden('register-customer')
    const first = await send(lenient, 'POST', '/customers', JSON.stringify(body))
    expect(first.body).toEqual({ customerId: expect.stringMatching(/^cust_/), merchantId: 'mcht_LocalMerchant001' })
    const again = await send(
      lenient,
      'POST',
      '/customers',
      JSON.stringify({ UpsertConsumerCustomer: { emailAddress: 'JO.CITIZEN@example.com', middleName: 'Q' } }),
    )
    expect(again.body.customerId).toBe(first.body.customerId)
    const record = await send(lenient, 'GET', `/customers/${first.body.customerId}`, undefined, {})
    expect(record.body).toMatchObject({ customerType: 'Consumer', referenceCustomerId: '1042', givenName: 'Jo', middleName: 'Q', familyName: 'Citizen' })
  })

  it('stores the order fields with their real types and returns them on the order', async () => {
    const created = await send(lenient, 'POST', '/orders', JSON.stringify(golden('order-shipping-discount')))
    const order = created.body.OnlineOrder.order
    const fetched = (await send(lenient, 'GET', `/orders/${order.orderId}`, undefined, {})).body
    for (const record of [order, fetched]) {
      expect(record.discountAmount).toBe(500)
      expect(record.shipping).toEqual({
        amount: 800,
        address: { line1: '12 Harbour Rd', line2: 'Unit 4', city: 'Fremantle', state: 'WA', postalCode: '6160', country: 'AU' },
        name: 'Jo Citizen',
      })
      expect(record.billing.address.line2).toBe('Unit 4')
      expect(record.items.map((i: any) => [i.sku, i.imageUrl])).toEqual([
        ['MUG-ENM-01', 'https://shop.example.com/media/mug.png'],
        ['TT-LIN-02', 'https://shop.example.com/media/towel.png'],
      ])
    }
  })

  it('keeps the empty shipping block of an order with nothing to ship', async () => {
    const order = (await send(lenient, 'POST', '/orders', JSON.stringify(golden('order-virtual-goods')))).body.OnlineOrder.order
    expect(order).toMatchObject({ discountAmount: 0, customerEmailAddress: null, shipping: { amount: 0, name: '', address: { line1: '', country: '' } } })
  })

  it('shows the accepted unknown fields in the request log, and the stray headers do no harm', async () => {
    const text = JSON.stringify(withUnknown(golden('order-virtual-goods'), 'cartHash', 'a1b2'))
    const answer = await send(lenient, 'POST', '/orders', text)
    expect(answer.status).toBe(200)
    const log = (await (await fetch(`${lenient.url}/__emulator/requests?limit=1`)).json()) as any[]
    const entry = log.at(-1)
    expect(entry).toMatchObject({ method: 'POST', url: '/orders', status: 200, warning: 'unknown field accepted: "CreateOnlineOrder.cartHash"' })
    // The stray header repeating the credential is masked like the real one.
    expect(entry.requestHeaders['1']).toBe('Authorization: Bearer sandbox_sk_…0001')
    expect(JSON.stringify(entry)).not.toContain(KEYS.merchantSecretKey)
  })
})

describe('bodies and content types', () => {
  it('reads a JSON body whatever the declared content type, and refuses a body that is not JSON', async () => {
    const body = JSON.stringify({ CreateOnlineOrder: { amount: aud(100) } })
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream', 'application/json; charset=utf-8']) {
      expect((await send(lenient, 'POST', '/orders', body, { 'content-type': type })).status, type).toBe(200)
    }
    const form = await send(lenient, 'POST', '/orders', 'CreateOnlineOrder%5Bamount%5D=100', { 'content-type': 'application/x-www-form-urlencoded' })
    expect(form.status).toBe(400)
    expect(form.body.errorCode).toBe('unsupported_content_type')
  })

  it('keeps multipart/form-data for file uploads: a JSON operation refuses it', async () => {
    const form = new FormData()
    form.set('CreateOnlineOrder', JSON.stringify({ amount: aud(100) }))
    const response = await fetch(`${lenient.url}/orders`, { method: 'POST', headers: { authorization: `Bearer ${KEYS.merchantSecretKey}` }, body: form })
    expect(response.status).toBe(400)
    expect(((await response.json()) as any).errorCode).toBe('unsupported_content_type')
  })

  it('still refuses unknown actions in both modes', async () => {
    for (const emulator of [lenient, strict]) {
      const answer = await send(emulator, 'POST', '/customers', JSON.stringify({ RegisterShopper: { emailAddress: 'a@example.com' } }))
      expect(answer.body.errorCode).toBe('unknown_action')
    }
  })

  it('adds the warning to the --log line', () => {
    const lines: string[] = []
    const app = createEmulatorApp({ log: (line) => lines.push(line) })
    ok(app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), giftNote: 'Happy birthday' } } }))
    expect(lines.at(-1)).toMatch(/^POST \/orders 200 \d+ms req_\S+ \(unknown field accepted: "CreateOnlineOrder.giftNote"\)$/)
  })

  it('never lets an unknown field replace what the emulator sets', () => {
    const app = testApp()
    const order = ok(app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), orderId: 'ordr_Mine', status: 'paid' } } })).OnlineOrder
      .order
    expect(order.orderId).toMatch(/^ordr_(?!Mine)/)
    expect(order.status).toBe('pending')
    const customer = ok(
      app.request('POST', '/customers', {
        body: { UpsertConsumerCustomer: { emailAddress: 'x@example.com', customerId: 'cust_Mine', kycStatus: 'Verified' } },
      }),
    )
    expect(customer.customerId).not.toBe('cust_Mine')
    expect(ok(app.request('GET', `/customers/${customer.customerId}`)).kycStatus).toBe('NotStarted')
    const hook = app.request('POST', '/webhooks', {
      body: { CreateWebhookMerchantSubscription: { url: 'https://hooks.example.com/x', events: ['OrderCreated'], secret: 'mine' } },
    })
    expect(ok(hook).WebhookMerchantSubscription.secret).toMatch(/^whsec_/)
    expect(hook.headers['Emulator-Warning']).toContain('"CreateWebhookMerchantSubscription.secret"')
  })

  it('keeps an unknown field inside a nested value where it was sent', () => {
    const app = testApp()
    const address = { line1: '1 Main St', city: 'Sydney', postalCode: '2000', country: 'AU', line3: 'Rear entrance' }
    const created = app.request('POST', '/orders', {
      body: { CreateOnlineOrder: { amount: aud(100), billing: { address }, items: [{ amount: aud(100), description: 'Mug', quantity: 1, colour: 'blue' }] } },
    })
    expect(created.headers['Emulator-Warning']).toBe('unknown fields accepted: "CreateOnlineOrder.items[0].colour", "CreateOnlineOrder.billing.address.line3"')
    const order = ok(app.request('GET', `/orders/${ok(created).OnlineOrder.order.orderId}`))
    expect(order.billing.address.line3).toBe('Rear entrance')
    expect(order.items[0].colour).toBe('blue')
  })

  it('does not strip one of an "exactly one of" pair: both variants stay a 400', () => {
    const app = testApp()
    const both = app.request('POST', '/payto/agreement', {
      body: {
        customerName: 'Jo',
        customerAccIdentifier: { Bban: { value: '062-000 12345678' }, Alias: { aliasType: 'Phone', value: '+61412345678' } },
        terms: { AgreementRequestTermsOpen: {} },
      },
    })
    expect(both.status).toBe(400)
  })
})

describe('errors of state rules carry a detail', () => {
  it('over-refund: how much remains', () => {
    const app = testApp()
    const transactionId = paidTransaction(app, 10_000)
    ok(app.request('PATCH', `/transactions/${transactionId}`, { body: { CreateRefund: { refundAmount: 4_000 } } }))
    const over = app.request('PATCH', `/transactions/${transactionId}`, { body: { CreateRefund: { refundAmount: 7_000 } } })
    expect(over.status).toBe(422)
    expect(over.body.detail).toBe('Paid 10000 AUD, refunded 4000 so far: refund at most 6000 (minor units).')
  })

  it('paying a cancelled order: when it was cancelled and what to do', () => {
    const app = testApp()
    const { orderId, paymentTokenId } = payableOrder(app, 2_000)
    ok(app.request('DELETE', `/orders/${orderId}`))
    const paid = app.request('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } })
    expect(paid.body).toMatchObject({ statusCode: 409, errorCode: 'order_cancelled' })
    expect(paid.body.detail).toMatch(/^Order ordr_\S+ was cancelled at \d{4}-\d\d-\d\dT.*create a new order/)
  })

  it('a used payment token: the way out, from the table of next steps', () => {
    const app = testApp()
    const { orderId, paymentTokenId } = payableOrder(app, 2_000)
    ok(app.request('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } }))
    const other = ok(app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(2_000) } } })).OnlineOrder.order.orderId
    const again = app.request('POST', `/orders/${other}/pay`, { body: { PayByPayTo: { paymentTokenId } } })
    expect(again.body).toMatchObject({ errorCode: 'payment_token_used', detail: 'Each payment token pays once: create a new token for this order.' })
  })
})
