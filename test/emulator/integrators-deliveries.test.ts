// Webhook deliveries to a local receiver: each event arrives signed, within a second of the call
// that caused it; failures are retried on the schedule as emulator time advances; every attempt
// is listed by /__emulator/deliveries.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_ATTEMPTS, RETRY_SCHEDULE_SECONDS } from '../../src/emulator/deliveries.js'
import type { RunningEmulator } from '../../src/emulator/index.js'
import { verifyWebhookSignature as verifySignature } from '../../src/client/webhook-signature.js'
import { startRecordingServer, type RecordedRequest, type RecordingServer } from '../helpers/recording-server.js'
import { KEYS, MARKETPLACE, MERCHANT } from './helpers.js'
import { aud, call, oneOffAgreement, sleep, startTestEmulator, waitFor } from './integrators-helpers.js'

const PAYLOAD_KEYS_MARKETPLACE = ['marketplaceId', 'metadata', 'webhookSubscriptionId', 'webhookEventType', 'requestId', 'event', 'timestamp']
const PAYLOAD_KEYS_MERCHANT = ['merchantId', 'metadata', 'webhookSubscriptionId', 'webhookEventType', 'requestId', 'event', 'timestamp']

let emulator: RunningEmulator
let receiver: RecordingServer

beforeEach(async () => {
  receiver = await startRecordingServer(() => ({ status: 200, body: { ok: true } }))
  emulator = await startTestEmulator()
})
afterEach(async () => {
  await emulator.close()
  await receiver.close()
})

const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) => call(emulator.url, method, path, options)

async function subscribe(
  level: 'Marketplace' | 'Merchant',
  events: string[],
  options: { path?: string; metadata?: Record<string, unknown>; credential?: string } = {},
) {
  const envelope = level === 'Marketplace' ? 'CreateWebhookMarketplaceSubscription' : 'CreateWebhookMerchantSubscription'
  const answer = await api('POST', '/webhooks', {
    credential: options.credential ?? (level === 'Marketplace' ? KEYS.marketplaceApiKey : KEYS.merchantSecretKey),
    body: { [envelope]: { url: `${receiver.url}${options.path ?? '/hook'}`, events, ...(options.metadata ? { metadata: options.metadata } : {}) } },
  })
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return Object.values(answer.body)[0] as { id: string; secret: string }
}

/** The delivery of `eventType` caused by request `requestId`, waited for at most a second. */
function deliveryOf(eventType: string, requestId: string, path = '/hook'): Promise<RecordedRequest> {
  return waitFor(
    () => receiver.requests.find((r) => r.path === path && (r.json as any)?.webhookEventType === eventType && (r.json as any)?.requestId === requestId),
    `${eventType} caused by ${requestId}`,
  )
}

function ok(answer: { status: number; body: unknown }) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body as any
}

describe('webhook deliveries', () => {
  it('delivers every listed event to a local receiver, signed, within a second of the call', async () => {
    const market = await subscribe('Marketplace', ['*'], { metadata: { env: 'ci' } })
    const merchantOnly = await subscribe('Merchant', ['TransactionPaid'], { path: '/merchant-hook' })

    // Each delivery is awaited from the moment its call returns (deliveryOf gives it one second).
    const checks: Array<{ type: string; requestId: string; arrived: Promise<RecordedRequest | Error>; check?: (event: any) => void }> = []
    const caused = (type: string, answer: { headers: Headers }, check?: (event: any) => void) => {
      const requestId = answer.headers.get('request-id') as string
      const arrived = deliveryOf(type, requestId).catch((error: Error) => error)
      checks.push({ type, requestId, arrived, ...(check ? { check } : {}) })
    }

    // A sub-merchant made by the marketplace.
    const created = await api('POST', '/merchants', { credential: KEYS.marketplaceApiKey, body: { name: 'Hooked Pty Ltd', industry: 'Retail' } })
    caused('MerchantCreated', created, (e) => expect(e.merchant.merchantId).toBe(ok(created).merchantId))

    // PayTo agreement: sent, then Active once the clock has moved 2 s.
    const agreement = await api('POST', '/payto/agreement', { body: oneOffAgreement(2500) })
    const token = ok(agreement).token
    caused('PayToAgreementCreated', agreement)
    const advanced = await api('POST', '/simulation', { body: { AdvanceClock: { seconds: 2 } } })
    caused('PayToAgreementStatusChanged', advanced, (e) => {
      expect(e.agreement).toMatchObject({ token, status: 'Active' })
      expect(e.previousStatus).toBe('Pending')
    })

    // Order, payment, refund.
    const paymentTokenId = ok(await api('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(2500), agreementToken: token } } })).PayToToken
      .paymentTokenId
    const order = await api('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(2500), referenceOrderId: 'hook-1' } } })
    const orderId = ok(order).OnlineOrder.order.orderId
    caused('OrderCreated', order, (e) => expect(e.order.orderId).toBe(orderId))
    const paid = await api('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } })
    const transactionId = ok(paid).PayOrderComplete.transactionId
    caused('TransactionPaid', paid, (e) => {
      expect(e.transactionId).toBe(transactionId)
      expect(e.transaction.purchaseDetails.status).toBe('paid')
    })
    const refunded = await api('PATCH', `/transactions/${transactionId}`, { body: { CreateRefund: { refundAmount: 500 } } })
    caused('TransactionRefunded', refunded, (e) => expect(e.refundAmount).toEqual(aud(500)))

    // A cancelled order.
    const spare = ok(await api('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(900), referenceOrderId: 'hook-2' } } })).OnlineOrder.order.orderId
    const cancelled = await api('DELETE', `/orders/${spare}`)
    caused('OrderCancelled', cancelled, (e) => expect(e.order.status).toBe('cancelled'))

    // A dispute on the payment.
    const dispute = await api('POST', '/simulation', { body: { OpenDispute: { transactionId, amount: 1000 } } })
    caused('DisputeOpened', dispute, (e) => expect(e.dispute.transactionId).toBe(transactionId))

    // A payout, then the bank confirms it.
    ok(await api('POST', '/simulation', { body: { IncomingBankTransfer: { merchantId: MERCHANT, amount: aud(50_000) } } }))
    const payoutId = ok(await api('POST', '/transactions/payouts', { body: {} })).payoutId
    const settled = await api('POST', '/simulation', { body: { SettlePayout: { payoutId } } })
    caused('PayoutPaid', settled, (e) => expect(e.payout).toMatchObject({ payoutId, status: 'Paid' }))

    // A customer and a saved source.
    const customer = await api('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: 'hooked@example.com' } } })
    caused('CustomerCreated', customer)

    for (const { type, requestId, arrived, check } of checks) {
      const delivery = await arrived
      if (delivery instanceof Error) throw delivery
      const payload = delivery.json as any
      expect(Object.keys(payload), type).toEqual(PAYLOAD_KEYS_MARKETPLACE)
      expect(payload).toMatchObject({
        marketplaceId: MARKETPLACE,
        metadata: { env: 'ci' },
        webhookSubscriptionId: market.id,
        webhookEventType: type,
        requestId,
      })
      expect(payload.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      expect(verifySignature(market.secret, delivery.headers['webhook-signature'] as string, delivery.body), type).toEqual({
        ok: true,
        timestamp: expect.any(Number),
      })
      check?.(payload.event)
    }

    // The merchant-level subscription got only TransactionPaid, with merchantId, signed with its own secret.
    const paidId = checks.find((c) => c.type === 'TransactionPaid')?.requestId as string
    const mine = await deliveryOf('TransactionPaid', paidId, '/merchant-hook')
    expect(Object.keys(mine.json as object)).toEqual(PAYLOAD_KEYS_MERCHANT)
    expect(mine.json).toMatchObject({ merchantId: MERCHANT, metadata: {}, webhookSubscriptionId: merchantOnly.id })
    expect(verifySignature(merchantOnly.secret, mine.headers['webhook-signature'] as string, mine.body).ok).toBe(true)
    expect(verifySignature(market.secret, mine.headers['webhook-signature'] as string, mine.body).ok).toBe(false)
    await sleep(50)
    expect(receiver.requests.filter((r) => r.path === '/merchant-hook').map((r) => (r.json as any).webhookEventType)).toEqual(['TransactionPaid'])
  })

  it('delivers PaymentSourceCreated and a scripted agreement suspension found by the background tick', async () => {
    await subscribe('Merchant', ['PaymentSourceCreated', 'PayToAgreementStatusChanged'])
    const customerId = ok(await api('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: 'saver@example.com' } } })).customerId
    const open = {
      customerName: 'Suspend Test',
      customerAccIdentifier: { Bban: { value: '062-000 33333333' } },
      terms: { AgreementRequestTermsOpen: {} },
      purpose: 'Subscription',
    }
    const token = ok(await api('POST', '/payto/agreement', { body: open })).token
    // Moved without a request: only the background tick can notice.
    emulator.app.clock.advance(2)
    await waitFor(() => receiver.requests.find((r) => (r.json as any).event?.agreement?.status === 'Active'), 'Active')
    const saved = await api('POST', '/sources', {
      headers: { 'Customer-Id': customerId },
      body: { CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken: token } } } },
    })
    const source = await deliveryOf('PaymentSourceCreated', saved.headers.get('request-id') as string)
    expect((source.json as any).event.source.paymentSourceId).toBe(ok(saved).paymentSourceId)

    // Active → Suspended 60 s later, found after the clock jumps past it; stamped with the time of the change.
    const jump = await api('POST', '/__emulator/clock', { credential: null, body: { advance: '10m' } })
    const suspended = await deliveryOf('PayToAgreementStatusChanged', jump.headers.get('request-id') as string)
    expect((suspended.json as any).event).toMatchObject({ previousStatus: 'Active', agreement: { token, status: 'Suspended' } })
    expect((suspended.json as any).timestamp).toBe('2025-03-01T10:01:02.000Z')
  })

  it('retries a failing receiver on the schedule, driven by the clock, and lists every attempt', async () => {
    receiver.respond(() => ({ status: 500, body: { error: 'boom' } }))
    await subscribe('Merchant', ['OrderCreated'])
    const order = await api('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: 'retry-1' } } })
    const requestId = order.headers.get('request-id') as string
    const attempts = async () => (await api('GET', '/__emulator/deliveries', { credential: null })).body as any[]

    await waitFor(() => receiver.requests.length === 1, 'attempt 1')
    const first = await waitFor(async () => {
      const log = await attempts()
      return log.length === 1 && log
    }, 'attempt 1 logged')
    expect(first[0]).toMatchObject({
      attempt: 1,
      status: 500,
      outcome: 'retrying',
      webhookEventType: 'OrderCreated',
      nextAttemptAt: '2025-03-01T10:00:10.000Z',
    })

    let elapsed = 0
    for (const [index, delay] of RETRY_SCHEDULE_SECONDS.entries()) {
      // One second short of the due time: nothing happens.
      await api('POST', '/__emulator/clock', { credential: null, body: { seconds: delay - 1 } })
      await sleep(30)
      expect(receiver.requests.length).toBe(index + 1)
      await api('POST', '/__emulator/clock', { credential: null, body: { seconds: 1 } })
      elapsed += delay
      await waitFor(() => receiver.requests.length === index + 2, `attempt ${index + 2} after ${elapsed} s`)
    }
    expect(receiver.requests.map((r) => r.headers['webhook-attempt'])).toEqual(['1', '2', '3', '4', '5', '6'])
    expect(new Set(receiver.requests.map((r) => r.body)).size).toBe(1)

    await waitFor(async () => (await attempts()).length === MAX_ATTEMPTS, 'six attempts logged')
    await api('POST', '/__emulator/clock', { credential: null, body: { advance: '1d' } })
    await sleep(50)
    expect(receiver.requests.length).toBe(MAX_ATTEMPTS)

    const log = await attempts()
    expect(log.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6])
    expect(log.map((a) => a.outcome)).toEqual(['retrying', 'retrying', 'retrying', 'retrying', 'retrying', 'failed'])
    expect(new Set(log.map((a) => a.deliveryId)).size).toBe(1)
    for (const attempt of log) {
      expect(attempt).toMatchObject({ status: 500, responseBody: '{"error":"boom"}', error: 'the receiver answered 500', url: `${receiver.url}/hook` })
      expect(attempt.requestHeaders['Webhook-Signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
      expect(JSON.parse(attempt.requestBody).requestId).toBe(requestId)
      expect(attempt.latencyMs).toBeGreaterThanOrEqual(0)
    }
    expect(log.map((a) => a.attemptedAt)).toEqual([
      '2025-03-01T10:00:00.000Z',
      '2025-03-01T10:00:10.000Z',
      '2025-03-01T10:01:10.000Z',
      '2025-03-01T10:06:10.000Z',
      '2025-03-01T10:36:10.000Z',
      '2025-03-01T12:36:10.000Z',
    ])
  })

  it('makes the due retries one after another when the clock jumps past them all, and stops at the first success', async () => {
    let answered = 0
    receiver.respond(() => ({ status: ++answered >= 3 ? 204 : 503 }))
    await subscribe('Merchant', ['OrderCreated'])
    await api('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: 'jump' } } })
    await waitFor(() => receiver.requests.length === 1, 'attempt 1')
    await api('POST', '/simulation', { body: { AdvanceClock: { seconds: 3600 } } })
    await waitFor(() => receiver.requests.length === 3, 'attempts 2 and 3')
    const log = await waitFor(async () => {
      const listed = (await api('GET', '/__emulator/deliveries', { credential: null })).body as any[]
      return listed.length === 3 && listed
    }, 'three attempts logged')
    expect(log.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [1, 503, 'retrying'],
      [2, 503, 'retrying'],
      [3, 204, 'delivered'],
    ])
    await sleep(50)
    expect(receiver.requests.length).toBe(3)
  })

  it('counts a receiver that does not answer in time as failed, without holding up the API call', async () => {
    await emulator.close()
    emulator = await startTestEmulator({ deliveryTimeoutMs: 200 })
    receiver.respond(() => ({ status: 200 }))
    const hanging = await import('node:http').then(({ createServer }) => createServer(() => undefined))
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    const port = (hanging.address() as { port: number }).port
    await api('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { url: `http://127.0.0.1:${port}/slow`, events: ['OrderCreated'] } } })
    const started = Date.now()
    const order = await api('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: 'slow' } } })
    expect(order.status).toBe(200)
    expect(Date.now() - started).toBeLessThan(150)
    const log = await waitFor(async () => {
      const listed = (await api('GET', '/__emulator/deliveries', { credential: null })).body as any[]
      return listed.length > 0 && listed
    }, 'timeout logged')
    expect(log[0]).toMatchObject({ status: null, outcome: 'retrying', error: 'no answer within 0.2 s' })
    hanging.closeAllConnections()
    await new Promise((resolve) => hanging.close(resolve))
  })

  it('leaves out Suspended subscriptions, other merchants and other event types', async () => {
    const suspended = await subscribe('Merchant', ['OrderCreated'], { path: '/suspended' })
    ok(await api('PATCH', `/webhooks/${suspended.id}`, { body: { UpdateWebhookSubscriptionStatus: { status: 'Suspended' } } }))
    await subscribe('Merchant', ['OrderCancelled'], { path: '/cancelled-only' })
    const subMerchantSub = await api('POST', '/webhooks', {
      credential: KEYS.marketplaceApiKey,
      headers: { 'Merchant-Id': 'mcht_LocalSubMerch001' },
      body: { CreateWebhookMerchantSubscription: { url: `${receiver.url}/sub`, events: ['OrderCreated'] } },
    })
    expect(subMerchantSub.status).toBe(200)
    await api('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: 'nobody' } } })
    await sleep(150)
    expect(receiver.requests).toEqual([])
  })

  it('replays a logged delivery as a new delivery, signed afresh', async () => {
    const sub = await subscribe('Merchant', ['OrderCreated'])
    await api('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: 'again' } } })
    await waitFor(() => receiver.requests.length === 1, 'first delivery')
    const [logged] = (await api('GET', '/__emulator/deliveries', { credential: null })).body as any[]
    const replay = await api('POST', `/__emulator/deliveries/${logged.deliveryId}/replay`, { credential: null })
    expect(replay.status).toBe(200)
    expect(replay.body).toMatchObject({ replayOf: logged.deliveryId, deliveryId: expect.stringMatching(/^dlv_/) })
    expect(replay.body.deliveryId).not.toBe(logged.deliveryId)
    const second = await waitFor(() => receiver.requests[1], 'replayed delivery')
    expect(second.body).toBe(receiver.requests[0]?.body)
    expect(second.headers['webhook-delivery-id']).toBe(replay.body.deliveryId)
    expect(verifySignature(sub.secret, second.headers['webhook-signature'] as string, second.body).ok).toBe(true)
    expect((await api('POST', '/__emulator/deliveries/dlv_AAAAAAAAAAAAAAAA/replay', { credential: null })).status).toBe(404)
  })

  it('sends a triggered synthetic event to the matching subscriptions only', async () => {
    const sub = await subscribe('Merchant', ['DisputeOpened'])
    const answer = await api('POST', '/__emulator/trigger', {
      credential: null,
      body: { eventType: 'DisputeOpened', data: { dispute: { disputeId: 'dispute_x' } } },
    })
    expect(answer.status).toBe(200)
    expect(answer.body.deliveries).toEqual([{ deliveryId: expect.stringMatching(/^dlv_/), webhookSubscriptionId: sub.id, url: `${receiver.url}/hook` }])
    const delivery = await deliveryOf('DisputeOpened', answer.headers.get('request-id') as string)
    expect((delivery.json as any).event).toEqual({ dispute: { disputeId: 'dispute_x' } })
    const none = await api('POST', '/__emulator/trigger', { credential: null, body: { eventType: 'PayoutPaid' } })
    expect(none.body.deliveries).toEqual([])
    expect((await api('POST', '/__emulator/trigger', { credential: null, body: { eventType: 'not an event' } })).status).toBe(400)
  })

  it('accepts loopback http receivers, and refuses other plain http', async () => {
    for (const host of ['127.0.0.1:9', 'localhost:9', '[::1]:9']) {
      const answer = await api('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { url: `http://${host}/hook`, events: ['OrderCreated'] } } })
      expect(answer.status, host).toBe(200)
    }
    const remote = await api('POST', '/webhooks', {
      body: { CreateWebhookMerchantSubscription: { url: 'http://hooks.example.com/hook', events: ['OrderCreated'] } },
    })
    expect(remote.status).toBe(400)
    expect(remote.body.errorCode).toBe('invalid_request')
  })

  it('refuses loopback http too with --strict-https (after the credential check)', async () => {
    await emulator.close()
    emulator = await startTestEmulator({ strictHttps: true })
    const loopback = await api('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { url: `${receiver.url}/hook`, events: ['OrderCreated'] } } })
    expect(loopback.status).toBe(400)
    expect(loopback.body.message).toMatch(/strict-https/)
    const anonymous = await api('POST', '/webhooks', {
      credential: null,
      body: { CreateWebhookMerchantSubscription: { url: `${receiver.url}/hook`, events: ['OrderCreated'] } },
    })
    expect(anonymous.status).toBe(401)
    const secure = await api('POST', '/webhooks', {
      body: { CreateWebhookMerchantSubscription: { url: 'https://hooks.example.com/hook', events: ['OrderCreated'] } },
    })
    expect(secure.status).toBe(200)
  })
})
