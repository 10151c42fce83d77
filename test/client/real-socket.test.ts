// The transport against real sockets (no MockAgent): refused, reset, hung and well-behaved servers.
import { type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ConnectionError, OutcomeUnknownError, TimeoutError, createClient } from '../../src/client/index.js'

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  if (server) await new Promise<void>((resolve) => server!.close(() => resolve()))
  server = undefined
})

async function listen(handler: (res: ServerResponse, body: string, url: string) => void): Promise<string> {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => handler(res, body, req.url ?? ''))
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()))
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
}

const quick = { sleep: async () => undefined, random: () => 0 }

describe('real sockets', () => {
  it('a refused connection is a ConnectionError that never reached the service, retried even for POST', async () => {
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
    const port = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const sleeps: number[] = []
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      credential: 'sandbox_sk_x',
      maxRetries: 2,
      random: () => 0,
      sleep: async (ms) => void sleeps.push(ms),
    })
    const error = (await client.orders
      .create({ CreateOnlineOrder: { amount: { minorCurrencyUnits: 1, currency: 'AUD' } } })
      .catch((e: unknown) => e)) as ConnectionError
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error.code).toBe('ECONNREFUSED')
    expect(error.mayHaveReachedService).toBe(false)
    expect(sleeps).toHaveLength(2)
  })

  it('a socket closed mid-request is an unknown outcome (a ConnectionError that may have reached the service), not retried for POST', async () => {
    let hits = 0
    const base = await listen((res) => {
      hits++
      res.socket?.destroy()
    })
    const client = createClient({ baseUrl: base, credential: 'sandbox_sk_x', ...quick })
    const error = (await client.orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } }).catch((e: unknown) => e)) as OutcomeUnknownError
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.cause).toBeInstanceOf(ConnectionError)
    expect((error.cause as ConnectionError).mayHaveReachedService).toBe(true)
    expect(hits).toBe(1)
  })

  it('a server that never answers gives TimeoutError; a GET is retried', async () => {
    let hits = 0
    const base = await listen(() => {
      hits++
    })
    const client = createClient({ baseUrl: base, credential: 'sandbox_sk_x', timeoutMs: 100, maxRetries: 1, ...quick })
    const error = await client.orders.get('ordr_1').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(hits).toBe(2)
  })

  it('round-trips JSON with a real server', async () => {
    const base = await listen((res, body, url) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ PayOrderComplete: { transactionId: 'tran_1', transactionStatus: 'paid', echo: JSON.parse(body), url } }))
    })
    const client = createClient({ baseUrl: base, credential: 'sandbox_sk_x' })
    const result = await client.orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: 'ptkn_1' } })
    expect(result).toMatchObject({ kind: 'PayOrderComplete', transaction: { echo: { PayByPayTo: { paymentTokenId: 'ptkn_1' } }, url: '/orders/ordr_1/pay' } })
  })
})

describe('a walk over real sockets', () => {
  it('reads pages sent in many small writes, with a byte order mark and characters split across writes', async () => {
    const all = Array.from({ length: 7 }, (_, i) => ({
      orderId: `ordr_${i}`,
      description: `Crème brûlée ☕ ${i}`,
      amount: { minorCurrencyUnits: 100 + i, currency: 'AUD' },
    }))
    const base = await listen((res, _body, url) => {
      const page = Number(new URL(url, 'http://x').searchParams.get('page') ?? 1)
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(all.slice((page - 1) * 3, page * 3)))])
      res.writeHead(200, { 'content-type': 'application/json', 'page-count': '3', 'total-record-count': '7' })
      // Three bytes at a time: the multi-byte characters arrive in pieces.
      let at = 0
      const next = () => {
        if (at >= bytes.length) return res.end()
        res.write(bytes.subarray(at, (at += 3)))
        setImmediate(next)
      }
      next()
    })
    const client = createClient({ baseUrl: base, credential: 'sandbox_sk_x', ...quick })
    const seen: unknown[] = []
    for await (const order of client.orders.iterate({ limit: 3 })) seen.push(order)
    expect(seen).toEqual(all)
  })
})
