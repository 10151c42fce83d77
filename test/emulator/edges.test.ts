// Who may talk to the emulator and where it may deliver: the Host check (421), the control
// plane's refusal of browser-sendable and foreign-origin requests (403), the control token of an
// emulator reachable from other machines, and webhook targets judged by their resolved address.
// No request of these tests leaves this machine: refused targets are judged without a socket,
// and the sender's request function is replaced where one would be made.
import type { ClientRequest, RequestOptions } from 'node:http'
import { createServer, request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { CONTROL_TOKEN_HEADER, edgePolicy, screenRequest } from '../../src/emulator/edge-guard.js'
import { createEmulatorApp, startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { httpSender } from '../../src/emulator/deliveries.js'
import { classifyAddress, targetRefusal } from '../../src/emulator/webhook-targets.js'
import { KEYS } from './helpers.js'
import { waitFor } from './integrators-helpers.js'

interface Reply {
  status: number
  body: any
}

/** One request to 127.0.0.1:port with exactly these headers (Host included, which fetch would not send as given). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...headers },
        agent: false,
      },
      (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

describe('the Host header', () => {
  let emulator: RunningEmulator
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 })
  })
  afterAll(() => emulator.close())

  it('names another site: 421 on the control plane and on the API, nothing read', async () => {
    const host = { host: 'evil.example' }
    const state = await send(emulator.port, 'GET', '/__emulator/state', host)
    expect(state.status).toBe(421)
    expect(state.body).toMatchObject({ errorCode: 'misdirected_request', tracer: expect.stringMatching(/^req_/) })
    expect(JSON.stringify(state.body)).not.toContain('whsec_')
    const api = await send(emulator.port, 'GET', '/orders', { ...host, authorization: `Bearer ${KEYS.merchantSecretKey}` })
    expect(api.status).toBe(421)
    expect((await send(emulator.port, 'GET', '/__emulator/state', { host: `evil.example:${emulator.port}` })).status).toBe(421)
  })

  it.each(['evil.example/.localhost', 'localhost:80@evil.example', 'evil.example#.localhost', 'evil.example?.localhost'])(
    '%s, which ends like a loopback name but is none, is refused (421)',
    async (host) => {
      expect((await send(emulator.port, 'GET', '/__emulator/state', { host })).status).toBe(421)
    },
  )

  it.each(['127.0.0.1', 'localhost', 'app.localhost', '[::1]', '127.0.0.2'])('%s (with the port) is served', async (name) => {
    const answer = await send(emulator.port, 'GET', '/__emulator/clock', { host: `${name}:${emulator.port}` })
    expect(answer.status).toBe(200)
  })
})

describe('state-changing control requests', () => {
  let emulator: RunningEmulator
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 })
  })
  afterAll(() => emulator.close())
  const own = () => ({ host: `127.0.0.1:${emulator.port}` })

  it.each([
    ['text/plain', '{}'],
    ['text/plain;charset=UTF-8', ''],
    ['application/x-www-form-urlencoded', 'a=1'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('with Content-Type %s are refused (403), and nothing is reset', async (type, body) => {
    const before = emulator.app.store.orders.all().length
    emulator.app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: { minorCurrencyUnits: 100, currency: 'AUD' } } } })
    const answer = await send(emulator.port, 'POST', '/__emulator/reset', { ...own(), 'content-type': type }, body)
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject({ errorCode: 'cross_site_request' })
    expect(emulator.app.store.orders.all().length).toBe(before + 1)
  })

  it('from a foreign Origin, or a body without a JSON type, are refused (403)', async () => {
    const json = { ...own(), 'content-type': 'application/json' }
    expect((await send(emulator.port, 'POST', '/__emulator/clock', { ...json, origin: 'https://evil.example' }, '{"advance":"1s"}')).status).toBe(403)
    expect((await send(emulator.port, 'POST', '/__emulator/reset', { ...own(), origin: 'null' })).status).toBe(403)
    expect((await send(emulator.port, 'POST', '/__emulator/reset', { ...own(), 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    expect((await send(emulator.port, 'POST', '/__emulator/clock', own(), '{"advance":"1s"}')).status).toBe(403)
    // Dot segments do not get round it: the path is read as the control plane reads it.
    expect((await send(emulator.port, 'POST', '/x/../__emulator/reset', { ...own(), 'content-type': 'text/plain' }, '')).status).toBe(403)
  })

  it('without a body (curl -X POST), with a JSON body, or from the emulator itself, work', async () => {
    expect((await send(emulator.port, 'POST', '/__emulator/reset', own())).status).toBe(200)
    const json = { ...own(), 'content-type': 'application/json' }
    expect((await send(emulator.port, 'POST', '/__emulator/clock', json, '{"advance":"1s"}')).status).toBe(200)
    expect((await send(emulator.port, 'POST', '/__emulator/clock', { ...json, origin: `http://127.0.0.1:${emulator.port}` }, '{"advance":"1s"}')).status).toBe(
      200,
    )
    // Reads are not state-changing: a GET with a foreign Origin is still answered (the browser keeps it from the page).
    expect((await send(emulator.port, 'GET', '/__emulator/clock', { ...own(), origin: 'https://evil.example' })).status).toBe(200)
  })
})

describe('an emulator other machines can reach', () => {
  let emulator: RunningEmulator
  beforeAll(async () => {
    // Bound to every interface; the test connects only through 127.0.0.1.
    emulator = await startEmulator({ port: 0, host: '0.0.0.0' })
  })
  afterAll(() => emulator.close())

  it('generates a control token and requires it on /__emulator, not on the API', async () => {
    expect(emulator.exposed).toBe(true)
    expect(emulator.controlToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const host = { host: `127.0.0.1:${emulator.port}` }
    const none = await send(emulator.port, 'GET', '/__emulator/state', host)
    expect(none.status).toBe(401)
    expect(none.body).toMatchObject({ errorCode: 'control_token_required' })
    expect((await send(emulator.port, 'GET', '/__emulator/state', { ...host, [CONTROL_TOKEN_HEADER]: 'not-it' })).status).toBe(403)
    expect((await send(emulator.port, 'POST', '/__emulator/reset', { ...host, [CONTROL_TOKEN_HEADER]: 'not-it' })).status).toBe(403)
    const right = await send(emulator.port, 'GET', '/__emulator/state', { ...host, [CONTROL_TOKEN_HEADER]: emulator.controlToken as string })
    expect(right.status).toBe(200)
    expect((await send(emulator.port, 'POST', '/__emulator/reset', { ...host, [CONTROL_TOKEN_HEADER]: emulator.controlToken as string })).status).toBe(200)
    const api = await send(emulator.port, 'GET', '/orders', { ...host, authorization: `Bearer ${KEYS.merchantSecretKey}` })
    expect(api.status).toBe(200)
  })

  it("does not deliver a webhook to its own loopback: other machines could reach this machine's local services through it", async () => {
    const receiver = createServer((_req, res) => res.end('ok'))
    const hits: string[] = []
    receiver.on('request', (req) => hits.push(req.url ?? ''))
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    try {
      const port = (receiver.address() as { port: number }).port
      const host = { host: `127.0.0.1:${emulator.port}` }
      const api = { ...host, authorization: `Bearer ${KEYS.merchantSecretKey}`, 'content-type': 'application/json' }
      const sub = JSON.stringify({ CreateWebhookMerchantSubscription: { url: `http://127.0.0.1:${port}/local-only`, events: ['OrderCreated'] } })
      expect((await send(emulator.port, 'POST', '/webhooks', api, sub)).status).toBe(200)
      const order = JSON.stringify({ CreateOnlineOrder: { amount: { minorCurrencyUnits: 100, currency: 'AUD' }, referenceOrderId: 'exposed-loopback' } })
      expect((await send(emulator.port, 'POST', '/orders', api, order)).status).toBe(200)
      const control = { ...host, [CONTROL_TOKEN_HEADER]: emulator.controlToken as string }
      let logged: Array<{ url: string; error?: string | null }> = []
      for (let i = 0; i < 50 && logged.length === 0; i++) {
        logged = ((await send(emulator.port, 'GET', '/__emulator/deliveries', control)).body as typeof logged).filter((d) => d.url.includes('/local-only'))
        if (logged.length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(logged[0]?.error).toMatch(/this machine's loopback, and the emulator listens beyond this machine.*--allow-private-webhooks/)
      expect(hits).toEqual([])
    } finally {
      await new Promise((resolve) => receiver.close(resolve))
    }
  })

  it('a token given on loopback is required too', async () => {
    const local = await startEmulator({ port: 0, controlToken: 'given-token-123' })
    try {
      expect(local.exposed).toBe(false)
      expect(local.controlToken).toBe('given-token-123')
      const host = { host: `127.0.0.1:${local.port}` }
      expect((await send(local.port, 'GET', '/__emulator/clock', host)).status).toBe(401)
      expect((await send(local.port, 'GET', '/__emulator/clock', { ...host, [CONTROL_TOKEN_HEADER]: 'given-token-123' })).status).toBe(200)
    } finally {
      await local.close()
    }
  })
})

describe('screenRequest', () => {
  const policy = edgePolicy('192.168.7.20', 'devbox.lan', undefined)
  const refusal = (method: string, url: string, headers: Record<string, string>) => screenRequest(policy, method, url, headers)?.status

  it('serves the bound address and the --host name, and refuses other names', () => {
    expect(refusal('GET', '/__emulator/state', { host: '192.168.7.20:4010' })).toBeUndefined()
    expect(refusal('GET', '/__emulator/state', { host: 'DevBox.lan:4010' })).toBeUndefined()
    expect(refusal('GET', '/orders', { host: '192.168.7.21:4010' })).toBe(421)
    expect(refusal('GET', '/orders', { host: 'localhost.evil.example' })).toBe(421)
    expect(refusal('GET', '/orders', {})).toBeUndefined()
  })

  it('lets a bodiless POST and a JSON POST through, and refuses what a web page could send', () => {
    const host = { host: 'localhost:4010' }
    expect(refusal('POST', '/__emulator/reset', host)).toBeUndefined()
    expect(refusal('POST', '/__emulator/reset', { ...host, 'content-length': '0' })).toBeUndefined()
    expect(refusal('DELETE', '/__emulator/faults', { ...host, origin: 'http://localhost:4010' })).toBeUndefined()
    expect(refusal('POST', '/__emulator/trigger', { ...host, 'content-type': 'application/json; charset=utf-8', 'content-length': '2' })).toBeUndefined()
    expect(refusal('POST', '/__emulator/trigger', { ...host, 'content-length': '2' })).toBe(403)
    expect(refusal('PATCH', '/__emulator', { ...host, origin: 'http://localhost:4011' })).toBe(403)
    // The API is not the control plane: its POSTs need a credential a page cannot send.
    expect(refusal('POST', '/orders', { ...host, 'content-type': 'text/plain', 'content-length': '2' })).toBeUndefined()
  })
})

describe('webhook targets', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fdab:1::2', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fd00:0ec2:0000:0000:0000:0000:0000:0254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['203.0.113.9', 'public'],
    ['2001:db8::1', 'public'],
    ['not-an-address', 'reserved'],
    // Addresses that carry an IPv4 address inside IPv6 are judged by it, never as public.
    ['64:ff9b::10.0.0.7', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b:1::1', 'private'],
    ['::169.254.169.254', 'metadata'],
    ['::ffff:0:a9fe:a9fe', 'metadata'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['2002:c0a8:0101::1', 'private'],
    ['2002:7f00:1::1', 'private'],
    ['2002:cb00:7109::1', 'public'],
    ['fec0::1', 'private'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind)
  })

  it('decides by the address: loopback always; public with remote delivery; inside addresses only with private delivery too', () => {
    const local = { allowRemote: false, allowPrivate: false }
    const remote = { allowRemote: true, allowPrivate: false }
    const inside = { allowRemote: true, allowPrivate: true }
    expect(targetRefusal('localhost', '127.0.0.1', local)).toBeUndefined()
    expect(targetRefusal('hooks.example.test', '203.0.113.9', local)).toMatch(/not this machine.*--allow-remote-webhooks/)
    expect(targetRefusal('hooks.example.test', '203.0.113.9', remote)).toBeUndefined()
    expect(targetRefusal('rebound.example.test', '10.0.0.7', remote)).toBe(
      'not sent: rebound.example.test (10.0.0.7) is a private address (start the emulator with --allow-private-webhooks as well to deliver there)',
    )
    expect(targetRefusal('169.254.169.254', '169.254.169.254', remote)).toMatch(/^not sent: 169\.254\.169\.254 is a cloud metadata address/)
    expect(targetRefusal('x', '100.64.1.1', remote)).toMatch(/CGNAT/)
    expect(targetRefusal('x', 'fe80::1', remote)).toMatch(/link-local/)
    expect(targetRefusal('x', '10.0.0.7', inside)).toBeUndefined()
    expect(targetRefusal('x', '169.254.169.254', inside)).toBeUndefined()
    expect(targetRefusal('x', '224.0.0.1', inside)).toMatch(/multicast or reserved/)
    // Listening beyond this machine, its own loopback is inside too.
    expect(targetRefusal('localhost', '127.0.0.1', { ...remote, exposed: true })).toMatch(/loopback.*--allow-private-webhooks/)
    expect(targetRefusal('localhost', '::1', { ...local, exposed: true })).toMatch(/loopback/)
    expect(targetRefusal('localhost', '127.0.0.1', { ...inside, exposed: true })).toBeUndefined()
  })

  /** A sender whose requests are recorded and never made: no socket can be opened. */
  function recordingSender(addresses: string[], policy: { allowRemote: boolean; allowPrivate: boolean }) {
    const made: Array<{ url: string; pinned: unknown }> = []
    const send = httpSender({
      ...policy,
      resolve: async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      request: (url: URL, options: RequestOptions): ClientRequest => {
        let pinned: unknown
        ;(options.lookup as unknown as (h: string, o: object, cb: (e: null, a: string) => void) => void)(url.hostname, {}, (_e, a) => (pinned = a))
        made.push({ url: url.href, pinned })
        throw new Error('recorded, not sent')
      },
    })
    return { send, made }
  }

  it('refuses a name that resolves to a private address without making a request, and pins an allowed one', async () => {
    const rebinding = recordingSender(['203.0.113.9', '10.0.0.7'], { allowRemote: true, allowPrivate: false })
    const refused = await rebinding.send('https://hooks.example.test/x', {}, '{}', 1000)
    expect(refused.error).toMatch(/hooks\.example\.test \(10\.0\.0\.7\) is a private address/)
    expect(rebinding.made).toEqual([])
    const literal = await rebinding.send('http://[fd00:ec2::254]/latest', {}, '{}', 1000)
    expect(literal.error).toMatch(/cloud metadata address/)
    expect(rebinding.made).toEqual([])

    const allowed = recordingSender(['203.0.113.9'], { allowRemote: true, allowPrivate: false })
    await expect(allowed.send('https://hooks.example.test/x', {}, '{}', 1000)).rejects.toThrow('recorded, not sent')
    expect(allowed.made).toEqual([{ url: 'https://hooks.example.test/x', pinned: '203.0.113.9' }])
    const inside = recordingSender(['10.0.0.7'], { allowRemote: true, allowPrivate: true })
    await expect(inside.send('https://hooks.internal.test/x', {}, '{}', 1000)).rejects.toThrow('recorded, not sent')
    expect(inside.made).toEqual([{ url: 'https://hooks.internal.test/x', pinned: '10.0.0.7' }])
  })

  it('logs a delivery to a private address as refused, with no request made', async () => {
    const { send, made } = recordingSender(['10.0.0.7'], { allowRemote: true, allowPrivate: false })
    const app = createEmulatorApp({ integrators: { allowRemoteWebhooks: true, send } })
    try {
      const created = app.request('POST', '/webhooks', {
        body: { CreateWebhookMerchantSubscription: { url: 'https://hooks.internal.test/x', events: ['OrderCreated'] } },
      })
      expect(created.status, JSON.stringify(created.body)).toBe(200)
      app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: { minorCurrencyUnits: 100, currency: 'AUD' } } } })
      const attempt = await waitFor(() => app.namespaces.root.deliveries.log.last(1)[0], 'the attempt')
      expect(attempt).toMatchObject({
        url: 'https://hooks.internal.test/x',
        status: null,
        error: expect.stringMatching(/is a private address \(start the emulator with --allow-private-webhooks/),
      })
      expect(made).toEqual([])
    } finally {
      app.close()
    }
  })
})
