// `webhooks listen` fails closed and is hard to fool (in-process, against an emulator on port 0):
// no secret → it does not start; a local emulator gives the secret through its control plane;
// --skip-verify is loud; a delivery id is forwarded once; an oversized body is refused unread.
import { createServer, type Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createClient, type PayfacClient } from '../../src/client/index.js'
import { webhookSignatureHeader } from '../../src/client/webhook-signature.js'
import { UsageError } from '../../src/cli/errors/index.js'
import { type ListenOptions, listenForWebhooks } from '../../src/cli/flows/webhooks-listen.js'
import { DeliveryDedupe } from '../../src/cli/flows/webhook-dedupe.js'
import { HEADERS_TIMEOUT_MS, MAX_CONNECTIONS, REQUEST_TIMEOUT_MS, receiverServer } from '../../src/cli/flows/webhook-receiver.js'
import { ConfigError } from '../../src/config/errors.js'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js'

let emulator: RunningEmulator
let client: PayfacClient
let local: { environment: 'local'; baseUrl: string; credentialKind: string; context: { merchantId: string } }

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 })
  client = createClient({ baseUrl: emulator.url, credential: emulator.credentials.merchantSecretKey })
  local = { environment: 'local', baseUrl: emulator.url, credentialKind: 'merchant-secret-key', context: { merchantId: emulator.ids.merchantId } }
})
afterAll(() => emulator.close())

interface Running {
  port: number
  out: string[]
  err: string[]
  stop(): Promise<unknown>
}

async function until<T>(what: string, read: () => T | undefined | false, ms = 2000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = read()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`)
    await sleep(10)
  }
}

async function start(options: Partial<ListenOptions>, context: { client?: PayfacClient; settings?: typeof local } = {}): Promise<Running> {
  const out: string[] = []
  const err: string[] = []
  const abort = new AbortController()
  const done = listenForWebhooks(
    { port: 0, json: true, ...options },
    {
      client: context.client ?? client,
      settings: context.settings ?? local,
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
      signal: abort.signal,
    },
  )
  done.catch(() => undefined)
  const port = await Promise.race([
    until('Listening', () => /Listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(err.join(''))?.[1]).then(Number),
    done.then(() => Promise.reject(new Error('stopped early'))),
  ])
  return {
    port,
    out,
    err,
    stop: () => {
      abort.abort()
      return done
    },
  }
}

/** A handler of our own: records bodies, answers `status()`. */
async function startTarget(status: () => number = () => 204): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      bodies.push(body)
      res.writeHead(status()).end()
    })
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, close: () => new Promise((ok) => server.close(() => ok())) }
}

const post = (port: number, body: string | Buffer, headers: Record<string, string>) =>
  fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

/** A client whose requests are counted and never sent. */
function countingClient(baseUrl: string, credential: string) {
  const sent: string[] = []
  const counted = createClient({
    baseUrl,
    credential,
    intercept: (request) => {
      sent.push(`${request.method} ${request.path}`)
      throw new Error('not sent in this test')
    },
  })
  return { client: counted, sent }
}

describe('without a secret', () => {
  it('refuses to start against production, before anything is sent (exit 2), and --skip-verify there is exit 3', async () => {
    const { client: counted, sent } = countingClient('https://api.example.test', 'live_sk_listenEdges0001')
    const production = { ...local, environment: 'production' as never, baseUrl: 'https://api.example.test' }
    const refused = await listenForWebhooks(
      { port: 0, json: false },
      { client: counted, settings: production, stdout: process.stdout, stderr: process.stderr },
    ).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(UsageError)
    expect((refused as UsageError).reason).toBe('webhooks listen checks every signature and has no secret to check them with')
    expect((refused as UsageError).hint).toMatch(/--secret.*PAYFAC_WEBHOOK_SECRET/)
    expect((refused as UsageError).hint).not.toContain('--skip-verify')
    const skip = await listenForWebhooks(
      { port: 0, json: false, skipVerify: true },
      { client: counted, settings: production, stdout: process.stdout, stderr: process.stderr },
    ).catch((e: unknown) => e)
    expect(skip).toBeInstanceOf(ConfigError)
    expect((skip as Error).message).toMatch(/never allowed against production/)
    expect(sent).toEqual([])
  })

  it('refuses on sandbox when the subscription gives none, and --skip-verify beside a secret', async () => {
    const created = await client.webhooks.create({ CreateWebhookMerchantSubscription: { url: 'http://127.0.0.1:9/x', events: ['OrderCreated'] } } as never)
    const secretless = {
      ...client,
      webhooks: { ...client.webhooks, get: async (id: string) => ({ ...(await client.webhooks.get(id)), secret: undefined }) },
    } as PayfacClient
    const sandbox = { ...local, environment: 'sandbox' as never }
    const refused = await listenForWebhooks(
      { port: 0, json: false, subscriptionId: created.id },
      { client: secretless, settings: sandbox, stdout: process.stdout, stderr: { write: () => true } },
    ).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(UsageError)
    expect((refused as UsageError).hint).toContain('--skip-verify')
    const both = await listenForWebhooks(
      { port: 0, json: false, secret: 'whsec_x', skipVerify: true },
      { client, settings: local, stdout: process.stdout, stderr: process.stderr },
    ).catch((e: unknown) => e)
    expect(both).toBeInstanceOf(UsageError)
  })

  it("fetches the subscription's secret from a local emulator's control plane, and checks signatures with it", async () => {
    const secretless = {
      ...client,
      webhooks: { ...client.webhooks, create: async (body: never) => ({ ...(await client.webhooks.create(body)), secret: undefined }) },
    } as PayfacClient
    const running = await start({ events: ['OrderCreated'] }, { client: secretless })
    try {
      expect(running.err.join('')).toMatch(/Secret of subscription webhook_\S+ read from the local emulator's control plane/)
      expect(running.err.join('')).toContain('signatures checked')
      emulator.app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: { minorCurrencyUnits: 150, currency: 'AUD' } } } })
      const line = await until('the OrderCreated line', () => running.out.map((l) => JSON.parse(l)).find((e) => e.type === 'OrderCreated'))
      expect(line).toMatchObject({ signatureValid: true, deliveryId: expect.stringMatching(/^dlv_/) })
    } finally {
      await running.stop()
    }
  })
})

describe('--skip-verify', () => {
  it('warns at start and on every forwarded delivery', async () => {
    const target = await startTarget()
    const running = await start({ skipVerify: true, forwardTo: target.url })
    try {
      expect(running.err.join('')).toMatch(/WARNING: --skip-verify: signatures are NOT checked/)
      const answer = await post(running.port, '{"webhookEventType":"PayoutPaid","event":{}}', { 'webhook-delivery-id': 'dlv_unsignedOne' })
      expect(answer.status).toBe(204)
      expect(target.bodies).toHaveLength(1)
      expect(running.err.join('')).toContain('WARNING: forwarding an UNVERIFIED delivery dlv_unsignedOne (PayoutPaid)')
      expect(JSON.parse(running.out[0] as string)).toMatchObject({ signatureValid: null, forwardStatus: 204 })
      // A web page in the developer's browser posting here (text/plain needs no preflight) is not a sender.
      const browsers: Record<string, string>[] = [
        { origin: 'https://evil.example', 'content-type': 'text/plain' },
        { origin: 'null' },
        { 'sec-fetch-site': 'cross-site' },
      ]
      for (const browser of browsers) {
        expect((await post(running.port, '{"webhookEventType":"PayoutPaid","event":{}}', browser)).status).toBe(403)
      }
      expect(target.bodies).toHaveLength(1)
      // A sender's text reaches the warning with its controls made visible.
      await post(running.port, JSON.stringify({ webhookEventType: 'Evil\u001b]52;c;aGk=\u0007\u202eX', event: {} }), {})
      const warning = running.err
        .join('')
        .split('\n')
        .find((l) => l.includes('Evil')) as string
      expect(warning).toContain('Evil\\u001b]52;c;aGk=\\u0007\\u202eX')
      expect(running.err.join('')).not.toMatch(/[\u001b\u0007\u202e]/)
    } finally {
      await running.stop()
      await target.close()
    }
  })
})

describe('deliveries', () => {
  it('forwards a delivery id once: a replay is answered 200 and not forwarded; a failed forward lets the retry through', async () => {
    let status = 204
    const target = await startTarget(() => status)
    const running = await start({ forwardTo: target.url, events: ['OrderCreated'] })
    try {
      const id = /Subscription (webhook_\S+) created/.exec(running.err.join(''))?.[1] as string
      const secret = emulator.app.store.webhookSubscriptions.get(id)?.secret as string
      const body = '{"webhookEventType":"OrderCreated","event":{"orderId":"ordr_replayed"}}'
      const headers = { 'webhook-signature': webhookSignatureHeader(secret, body), 'webhook-delivery-id': 'dlv_replayMe' }
      expect((await post(running.port, body, headers)).status).toBe(204)
      const again = await post(running.port, body, headers)
      expect(again.status).toBe(200)
      expect(await again.json()).toEqual({ duplicate: true, deliveryId: 'dlv_replayMe' })
      expect(target.bodies).toHaveLength(1)
      expect(running.err.join('')).toContain('Delivery dlv_replayMe was acknowledged before: answered 200 again, not forwarded.')
      expect(
        running.out
          .map((l) => JSON.parse(l))
          .filter((e) => e.deliveryId === 'dlv_replayMe')
          .map((e) => e.duplicate ?? false),
      ).toEqual([false, true])

      // The delivery id is not signed: the same signed delivery under a fresh id, or none, is a replay too.
      for (const replay of [{ ...headers, 'webhook-delivery-id': 'dlv_freshId' }, { 'webhook-signature': headers['webhook-signature'] }]) {
        const copy = await post(running.port, body, replay)
        expect(copy.status).toBe(200)
        expect(((await copy.json()) as { duplicate?: boolean }).duplicate).toBe(true)
      }
      expect(target.bodies).toHaveLength(1)

      status = 500
      const other = '{"webhookEventType":"OrderCreated","event":{"orderId":"ordr_retried"}}'
      const failing = { 'webhook-signature': webhookSignatureHeader(secret, other), 'webhook-delivery-id': 'dlv_retryMe' }
      expect((await post(running.port, other, failing)).status).toBe(500)
      status = 204
      expect((await post(running.port, other, failing)).status).toBe(204)
      expect(target.bodies).toHaveLength(3)
    } finally {
      await running.stop()
      await target.close()
    }
  })

  it('refuses a correctly signed body that is not a JSON object (text, an array, 5,000 levels deep): 400, not forwarded, even under --events', async () => {
    const target = await startTarget()
    const running = await start({ forwardTo: target.url, events: ['OrderCreated'] })
    try {
      const id = /Subscription (webhook_\S+) created/.exec(running.err.join(''))?.[1] as string
      const secret = emulator.app.store.webhookSubscriptions.get(id)?.secret as string
      const bodies = ['hello \u001b[2J not JSON', '[{"webhookEventType":"OrderCreated"}]', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`]
      for (const [i, body] of bodies.entries()) {
        const answer = await post(running.port, body, { 'webhook-signature': webhookSignatureHeader(secret, body), 'webhook-delivery-id': `dlv_notJson${i}` })
        expect(answer.status).toBe(400)
        expect(await answer.json()).toEqual({ error: 'a webhook delivery is a JSON object; this body is not one', deliveryId: `dlv_notJson${i}` })
      }
      expect(target.bodies).toEqual([])
      const lines = running.out.map((l) => JSON.parse(l))
      expect(lines.map((e) => [e.type, e.signatureValid, e.refused, e.forwardStatus])).toEqual(
        bodies.map(() => ['(not JSON)', true, 'not a JSON object', null]),
      )
      expect(running.err.join('')).toContain('Delivery dlv_notJson0 is not a JSON object: answered 400, not forwarded.')
      // Badly signed, the same body is answered 401 as any other.
      expect((await post(running.port, 'hello', { 'webhook-signature': 't=1,v1=00' })).status).toBe(401)
    } finally {
      await running.stop()
      await target.close()
    }
  })

  it('refuses a correctly signed JSON object in bytes that are not UTF-8 (JSON text is UTF-8): 400, not forwarded as U+FFFD', async () => {
    const target = await startTarget()
    const running = await start({ forwardTo: target.url })
    try {
      const id = /Subscription (webhook_\S+) created/.exec(running.err.join(''))?.[1] as string
      const secret = emulator.app.store.webhookSubscriptions.get(id)?.secret as string
      const body = Buffer.from('{"webhookEventType":"Order\xffCreated","event":{"orderId":"ordr_notUtf8"}}', 'latin1')
      const answer = await post(running.port, body, { 'webhook-signature': webhookSignatureHeader(secret, body), 'webhook-delivery-id': 'dlv_notUtf8' })
      expect(answer.status).toBe(400)
      expect(await answer.json()).toEqual({ error: 'a webhook delivery is a JSON object; this body is not one', deliveryId: 'dlv_notUtf8' })
      expect(target.bodies).toEqual([])
    } finally {
      await running.stop()
      await target.close()
    }
  })

  it('answers a declared Content-Length over the cap with 413 without reading the body, and closes', async () => {
    const running = await start({ skipVerify: true })
    try {
      const socket = connect(running.port, '127.0.0.1')
      let text = ''
      socket.on('data', (chunk) => (text += chunk))
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
      socket.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{"a":')
      await closed
      expect(text).toMatch(/^HTTP\/1\.1 413 /)
      expect(text).toContain('body too large')
      expect(running.out).toEqual([])
    } finally {
      await running.stop()
    }
  })
})

describe('limits', () => {
  it('the receiver bounds head and request time and connections', () => {
    const server = receiverServer(() => undefined)
    expect([server.headersTimeout, server.requestTimeout, server.maxConnections]).toEqual([HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, MAX_CONNECTIONS])
    expect([HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, MAX_CONNECTIONS]).toEqual([10_000, 30_000, 100])
  })

  it('the dedupe set forgets ids when their window ends, and never holds more than its capacity', () => {
    let now = 1_000_000
    const dedupe = new DeliveryDedupe(() => now, 3)
    expect(dedupe.begin('a', now + 300_000)).toBe('new')
    expect(dedupe.begin('a', now + 300_000)).toBe('in-flight')
    dedupe.settle('a', true)
    expect(dedupe.begin('a', now + 300_000)).toBe('duplicate')
    expect(dedupe.begin('b', now + 300_000)).toBe('new')
    dedupe.settle('b', false)
    expect(dedupe.begin('b', now + 300_000)).toBe('new')
    now += 300_001
    expect(dedupe.begin('c', now + 300_000)).toBe('new')
    expect(dedupe.size).toBe(1)
    for (const id of ['d', 'e', 'f', 'g']) dedupe.begin(id, now + 300_000)
    expect(dedupe.size).toBe(3)
    expect(dedupe.begin('a', now + 300_000)).toBe('new')
  })
})
