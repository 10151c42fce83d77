// createClient keeps the CLI's transport rules: a live key goes only over https or to this
// machine, and localhost names are resolved by the client itself, never by DNS.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { MockAgent } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { PayfacError, createClient } from '../../src/client/index.js'
import { isLiteralLoopback, isLocalhostName, localhostLookup } from '../../src/client/local-transport.js'

const LIVE = 'live_sk_transportRulesTest0001'
let server: Server
let port: number
const seen: IncomingHttpHeaders[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers)
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

describe('live keys over plain http', () => {
  it('are refused to a host that is not this machine, when the client is made (nothing can be sent)', () => {
    const before = seen.length
    expect(() => createClient({ baseUrl: 'http://example.test', credential: LIVE })).toThrow(PayfacError)
    expect(() => createClient({ baseUrl: 'http://10.0.0.1:8080', credential: LIVE })).toThrow(/live key is sent only over https/)
    expect(seen.length).toBe(before)
  })

  it('are allowed over https, and a sandbox key over plain http anywhere', () => {
    expect(() => createClient({ baseUrl: 'https://api.example.test', credential: LIVE })).not.toThrow()
    expect(() => createClient({ baseUrl: 'http://example.test', credential: 'sandbox_sk_x' })).not.toThrow()
  })

  it('reach a literal loopback address', async () => {
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, credential: LIVE })
    const answer = await client.request({ method: 'GET', path: '/ping' })
    expect(answer.status).toBe(200)
  })

  it('count a localhost name as this machine only when the client resolves it itself', async () => {
    const client = createClient({ baseUrl: `http://app.localhost:${port}`, credential: LIVE, maxRetries: 0 })
    expect((await client.request({ method: 'GET', path: '/ping' })).status).toBe(200)
    const own = new MockAgent()
    own.disableNetConnect()
    expect(() => createClient({ baseUrl: `http://app.localhost:${port}`, credential: LIVE, dispatcher: own })).toThrow(/live key/)
    await own.close()
  })
})

describe('localhost names', () => {
  it('reach a server on 127.0.0.1 with the name in the Host header', async () => {
    const client = createClient({ baseUrl: `http://payfac-rules-test.localhost:${port}`, credential: 'sandbox_sk_x', maxRetries: 0 })
    await client.request({ method: 'GET', path: '/named' })
    expect(seen.at(-1)?.host).toBe(`payfac-rules-test.localhost:${port}`)
  })

  it('are answered by the lookup at once, without the resolver', () => {
    const answers: unknown[] = []
    localhostLookup('deep.name.localhost', { all: true }, (error, addresses) => answers.push(error, addresses))
    localhostLookup('LOCALHOST.', { family: 6 }, (error, address, family) => answers.push(error, address, family))
    // Synchronous: nothing was asked of DNS.
    expect(answers).toEqual([
      null,
      [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ],
      null,
      '::1',
      6,
    ])
  })

  it.each([
    ['127.0.0.1', true, false],
    ['127.1.2.3', true, false],
    ['[::1]', true, false],
    ['localhost', false, true],
    ['a.b.localhost', false, true],
    ['localhost.example', false, false],
    ['example.test', false, false],
  ])('%s: literal loopback %s, localhost name %s', (host, literal, name) => {
    expect(isLiteralLoopback(host)).toBe(literal)
    expect(isLocalhostName(host)).toBe(name)
  })
})
