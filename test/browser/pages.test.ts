// The emulator's web pages in a real browser (Debian's Chromium, driven by playwright-core): the
// pay-by-link checkout with a card, with PayTo and with a declined card; the 3DS challenge
// passed, failed and abandoned; the PayTo approval page; the inspector showing a request and a
// webhook delivery, live. One browser for the whole file. With PAYFAC_SCREENS=1 it also writes
// the screenshots of docs/screens/ (each page at 1280×800 and 390×844).
import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { KEYS, MERCHANT, aud } from '../emulator/helpers.js'

const SCREENS = process.env.PAYFAC_SCREENS === '1' ? 'docs/screens' : undefined
let emulator: RunningEmulator
let browser: Browser
let receiver: Server
const received: string[] = []

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${KEYS.merchantSecretKey}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined }
}

async function payByLinkOrder(amount: number, description = 'Tea & "biscuits" <b>3 item(s)</b>'): Promise<{ orderId: string; url: string }> {
  const made = await api('POST', '/orders', {
    CreatePayByLink: {
      amount: aud(amount),
      description,
      referenceOrderId: `browser-${Math.random().toString(36).slice(2)}`,
      items: [
        { amount: aud(amount - 500), description: 'Loose-leaf tea <script>alert(1)</script>', quantity: 1 },
        { amount: aud(500), description: 'Shortbread', quantity: 2 },
      ],
    },
  })
  expect(made.status).toBe(200)
  return { orderId: made.body.PayByLinkOrder.order.orderId, url: made.body.PayByLinkOrder.payByLinkUrl }
}

async function savedCardChallenge(cardNumber = '4000000000003220'): Promise<{ orderId: string; paymentTokenId: string; challengeUrl: string }> {
  const customer = await api('POST', '/customers', {
    UpsertConsumerCustomer: { givenName: 'Jo', familyName: 'Shopper', emailAddress: `jo+${Math.random().toString(36).slice(2)}@example.com` },
  })
  const customerId = customer.body.customerId
  const source = await api(
    'POST',
    '/sources',
    { CreateCardPaymentSource: { cardNumber, expiryMonth: 12, expiryYear: 2099, cvc: '123' } },
    { 'Customer-Id': customerId },
  )
  expect(source.status, JSON.stringify(source.body)).toBe(200)
  const token = await api('POST', '/tokens', { CreateSavedPaymentSourceToken: { paymentSourceId: source.body.paymentSourceId, amount: aud(2500) } })
  const order = await api('POST', '/orders', { CreateOnlineOrder: { amount: aud(2500) } })
  const orderId = order.body.OnlineOrder.order.orderId
  const paymentTokenId = token.body.SavedPaymentSourceToken.paymentTokenId
  const challenge = await api('POST', `/orders/${orderId}/pay`, { PayByCard: { paymentTokenId } })
  return { orderId, paymentTokenId, challengeUrl: challenge.body.ThreeDSAuthorisationRequired.challengeUrl }
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SCREENS) return
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height })
    await page.screenshot({ path: `${SCREENS}/${name}-${width}.png` })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  return context.newPage()
}

beforeAll(async () => {
  if (SCREENS) mkdirSync(SCREENS, { recursive: true })
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      received.push(body)
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks')
    })
  })
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done))
  ;[emulator, browser] = await Promise.all([startEmulator({ port: 0 }), chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })])
  const port = (receiver.address() as AddressInfo).port
  const hook = await api('POST', '/webhooks', {
    CreateWebhookMerchantSubscription: { url: `http://127.0.0.1:${port}/hooks`, events: ['TransactionPaid', 'TransactionFailed', 'OrderCreated'] },
  })
  expect(hook.status).toBe(200)
}, 30_000)

afterAll(async () => {
  await browser?.close()
  await emulator?.close()
  receiver?.close()
})

describe('the pay-by-link page', () => {
  it('pays an order by card: the order is paid, a transaction made, its webhook sent', async () => {
    const { orderId, url } = await payByLinkOrder(1250)
    expect(url).toBe(`${emulator.url}/checkout/paybylink/${orderId}`)
    const page = await newPage()
    await page.goto(url)
    await expect.poll(() => page.locator('.description').textContent()).toBe('Tea & "biscuits" <b>3 item(s)</b>')
    expect(await page.locator('script').count()).toBe(0)
    expect(await page.getByTestId('total').textContent()).toBe('12.50 AUD')
    await shoot(page, 'checkout')
    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByLabel('Expiry (MM/YY)').fill('12/34')
    await page.getByLabel('Security code').fill('123')
    await page.getByRole('button', { name: 'Pay 12.64 AUD' }).click()
    await page.getByText('Payment received.').waitFor()
    await shoot(page, 'checkout-paid')
    const order = await api('GET', `/orders/${orderId}`)
    expect(order.body.status).toBe('paid')
    const txn = await api('GET', `/transactions/${order.body.transactionId}`)
    expect([txn.body.purchaseDetails.status, txn.body.purchaseDetails.surchargeAmount, txn.body.paymentMethod.accountHint]).toEqual([
      'accepted',
      14,
      'Visa ending 4242',
    ])
    await expect.poll(() => received.some((b) => b.includes('TransactionPaid') && b.includes(orderId)), { timeout: 5000 }).toBe(true)
    await page.reload()
    expect(await page.getByRole('button', { name: /^Pay/ }).count()).toBe(0)
  })

  it('shows a declined card, and the order stays payable', async () => {
    const { orderId, url } = await payByLinkOrder(2000)
    const page = await newPage()
    await page.goto(url)
    await page.getByLabel('Card number').fill('4000000000000002')
    await page.getByLabel('Expiry (MM/YY)').fill('01/40')
    await page.getByLabel('Security code').fill('999')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('declined: The card was declined by the issuer')
    await shoot(page, 'checkout-declined')
    expect((await api('GET', `/orders/${orderId}`)).body.status).toBe('pending')
    const failed = await api('GET', `/transactions?orderId=${orderId}`)
    expect(failed.body.map((t: any) => t.paymentMethod?.paymentFailure?.errorCode ?? t.details?.paymentMethod?.paymentFailure?.errorCode)).toContain(
      'do_not_honor',
    )
  })

  it('pays with PayTo: the bank page approves the agreement and the order is paid', async () => {
    const { orderId, url } = await payByLinkOrder(1500)
    const page = await newPage()
    await page.goto(url)
    await page.getByLabel(/PayID/).fill('alex@example.com')
    await page.getByRole('button', { name: 'Pay 15.00 AUD with PayTo' }).click()
    await page.getByRole('heading', { name: 'Approve a PayTo agreement?' }).waitFor()
    await shoot(page, 'payto-approval')
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.getByText('Payment received.').waitFor()
    const order = await api('GET', `/orders/${orderId}`)
    const txn = await api('GET', `/transactions/${order.body.transactionId}`)
    expect([order.body.status, txn.body.purchaseDetails.status, txn.body.paymentMethod.paymentMethodType]).toEqual(['paid', 'paid', 'PayTo'])
  })

  it('runs a test card that asks for 3DS through the challenge page and back', async () => {
    const { orderId, url } = await payByLinkOrder(3000)
    const page = await newPage()
    await page.goto(url)
    await page.getByLabel('Card number').fill('4000 0000 0000 3220')
    await page.getByLabel('Expiry (MM/YY)').fill('12/34')
    await page.getByLabel('Security code').fill('123')
    await page.getByRole('button', { name: /^Pay .* AUD$/ }).click()
    await page.getByRole('heading', { name: "Confirm it's you" }).waitFor()
    await shoot(page, 'three-ds')
    await page.getByRole('button', { name: 'Pass the check' }).click()
    await page.getByText('Payment received.').waitFor()
    expect((await api('GET', `/orders/${orderId}`)).body.status).toBe('paid')
  })
})

describe("the 3DS challenge page of an integrator's own card payment", () => {
  for (const [button, expected] of [
    ['Pass the check', 200],
    ['Fail the check', 'three_ds_failed'],
    ['Abandon (cancel)', 'three_ds_abandoned'],
  ] as const) {
    it(`${button}: Confirm3DSComplete follows what the customer did`, async () => {
      const { orderId, paymentTokenId, challengeUrl } = await savedCardChallenge()
      const early = await api('POST', `/orders/${orderId}/pay`, { Confirm3DSComplete: { paymentTokenId, threeDSResponse: 'ok' } })
      expect([early.status, early.body.errorCode]).toEqual([409, 'three_ds_not_completed'])
      const page = await newPage()
      await page.goto(challengeUrl)
      await page.getByRole('button', { name: button }).click()
      await page.getByText('You can return to the merchant.').waitFor()
      const confirmed = await api('POST', `/orders/${orderId}/pay`, { Confirm3DSComplete: { paymentTokenId, threeDSResponse: { echoed: true } } })
      if (expected === 200) expect(confirmed.body.PayOrderComplete.transactionStatus).toBe('accepted')
      else expect([confirmed.status, confirmed.body.errorCode]).toEqual([400, expected])
    })
  }
})

describe('the PayTo approval page', () => {
  for (const [button, status] of [
    ['Approve', 'Active'],
    ['Decline', 'Declined'],
  ] as const) {
    it(`${button} makes a pending agreement ${status}`, async () => {
      const sent = await api('POST', '/payto/agreement', {
        customerName: 'No Answer Test',
        customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
        terms: { AgreementRequestTermsOpen: {} },
        purpose: 'Weekly veg box',
      })
      const page = await newPage()
      await page.goto(`${emulator.url}/checkout/payto/${sent.body.token}`)
      await page.getByRole('button', { name: button, exact: true }).click()
      await expect.poll(() => page.getByTestId('agreement-status').textContent()).toBe(status)
      expect((await api('GET', `/payto/agreement?token=${sent.body.token}`)).body.status).toBe(status)
    })
  }
})

describe('framed by another site', () => {
  /** A page of another origin (the webhook receiver's port) that shows `src` in an iframe. */
  async function framing(src: string): Promise<{ page: Page; frame: import('playwright-core').Frame }> {
    const evil = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><iframe src="${src}"></iframe>`))
    await new Promise<void>((done) => evil.listen(0, '127.0.0.1', done))
    const page = await newPage()
    try {
      // The load event of the framing page waits for its frame, shown or refused.
      await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`, { waitUntil: 'load' })
    } finally {
      evil.close()
    }
    const frame = page.frames().find((f) => f !== page.mainFrame())
    if (!frame) throw new Error('no frame')
    return { page, frame }
  }

  it('the PayTo approval page, the checkout and the 3DS challenge are not shown: no click can approve or pay', async () => {
    const sent = await api('POST', '/payto/agreement', {
      customerName: 'No Answer Test',
      customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
      terms: { AgreementRequestTermsOpen: {} },
      purpose: 'Weekly veg box',
    })
    const { url } = await payByLinkOrder(900)
    const { challengeUrl } = await savedCardChallenge()
    for (const src of [`${emulator.url}/checkout/payto/${sent.body.token}`, url, challengeUrl]) {
      const { frame } = await framing(src)
      expect(frame.url(), src).not.toBe(src)
      expect(await frame.locator('button').count()).toBe(0)
    }
    expect((await api('GET', `/payto/agreement?token=${sent.body.token}`)).body.status).toBe('Pending')
  })

  it('while what the emulator lets be framed is shown (the check can fail)', async () => {
    const src = `${emulator.url}/__emulator/openapi.json`
    const { frame } = await framing(src)
    expect(frame.url()).toBe(src)
    expect(await frame.locator('body').textContent()).toContain('"openapi"')
  })
})

describe('the inspector', () => {
  it('shows a request with its masked credential and a webhook delivery with its signature, live', async () => {
    const page = await newPage()
    await page.goto(`${emulator.url}/__emulator/ui`)
    await page.getByText('● live').waitFor()
    await shoot(page, 'inspector')
    // Letters and digits: a run of 13 or more digits that passes the Luhn check is masked as a card number.
    const marker = `inspector-${Date.now().toString(36)}`
    await api('POST', '/orders', { CreateOnlineOrder: { amount: aud(777), referenceOrderId: marker } })
    const row = page.locator('tr.row', { hasText: 'POST' }).first()
    await expect.poll(() => page.locator('tr.row').first().textContent(), { timeout: 5000 }).toContain('/orders')
    await row.click()
    await expect.poll(() => page.locator('#detail').textContent()).toContain(marker)
    const detail = await page.locator('#detail').textContent()
    expect(detail).toContain('Bearer sandbox_sk_…0001')
    expect(detail).not.toContain(KEYS.merchantSecretKey)
    await shoot(page, 'inspector-request')
    await page.getByRole('link', { name: 'Webhook deliveries' }).click()
    await page.locator('tr.row', { hasText: 'OrderCreated' }).first().click()
    await expect.poll(() => page.locator('#detail').textContent()).toMatch(/t=\d+,v1=[0-9a-f]{64}/)
    expect(await page.locator('#detail').textContent()).toContain(MERCHANT)
    await shoot(page, 'inspector-delivery')
    await page.getByRole('link', { name: 'State' }).click()
    await page.getByRole('link', { name: 'orders' }).click()
    await page.locator('tr.row').first().click()
    await expect.poll(() => page.locator('#detail a').count()).toBeGreaterThan(0)
  })
})
