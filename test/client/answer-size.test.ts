// One JSON (or error) answer is read up to a cap (64 MiB; lowered here through the transport's
// maxBodyBytes): a declared Content-Length over it is refused before reading, and a body that
// grows past it is cut off at the cap. Over real HTTP from a hostile test double.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { OutcomeUnknownError, ResponseFormatError } from '../../src/client/errors.js'
import { MAX_JSON_BODY_BYTES, Transport } from '../../src/client/transport.js'
import { type HostileService, startHostileService } from '../helpers/hostile-answers.js'

let service: HostileService
beforeAll(async () => {
  service = await startHostileService()
})
afterAll(() => service.close())

const transport = (maxBodyBytes?: number) => new Transport({ baseUrl: service.url, credential: 'sandbox_sk_test', maxRetries: 0, maxBodyBytes })
const big = JSON.stringify({ orderId: 'ordr_1', padding: 'x'.repeat(10_000) })

describe('the answer size cap', () => {
  it('is 64 MiB', () => {
    expect(MAX_JSON_BODY_BYTES).toBe(64 * 1024 * 1024)
  })

  it('reads an answer at the cap', async () => {
    service.answer(() => ({ body: big }))
    const answer = await transport(big.length).send({ method: 'GET', path: '/orders/ordr_1' })
    expect((answer.body as { orderId: string }).orderId).toBe('ordr_1')
  })

  it('stops reading a body one byte over the cap (no Content-Length)', async () => {
    service.answer(() => ({ body: big, chunked: true }))
    const error = await transport(big.length - 1)
      .send({ method: 'GET', path: '/orders/ordr_1' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseFormatError)
    expect((error as Error).message).toContain(`did not match the contract: it is longer than the ${big.length - 1} bytes payfac reads`)
  })

  it('refuses a declared Content-Length over the cap before reading (the body never comes)', async () => {
    service.answer(() => ({ headers: { 'content-length': String(64 * 1024 * 1024 + 1) }, cut: 'hold' }))
    const error = await transport()
      .send({ method: 'GET', path: '/orders/ordr_1' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseFormatError)
    expect((error as Error).message).toMatch(/declares 67108865 bytes \(Content-Length\), more than the 64 MiB payfac reads/)
  })

  it('caps list pages read later the same way', async () => {
    service.answer(() => ({ body: `[${big}]` }))
    const error = await transport(1000)
      .send({ method: 'GET', path: '/orders', responseType: 'json-later' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseFormatError)
  })

  it('makes an oversized answer to a POST an unknown outcome', async () => {
    service.answer(() => ({ status: 201, body: big }))
    const error = await transport(1000)
      .send({ method: 'POST', path: '/orders', body: { CreateOnlineOrder: {} } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect((error as OutcomeUnknownError).lost).toBe('answer')
    expect((error as Error).message).toMatch(
      /POST \/orders: the service answered 201 but its answer did not match the contract \(it is longer than the 1000 bytes payfac reads\)/,
    )
  })

  it('makes a non-JSON answer to a PATCH an unknown outcome', async () => {
    service.answer(() => ({ headers: { 'content-type': 'text/html' }, body: '<html>done?</html>' }))
    const error = await transport()
      .send({ method: 'PATCH', path: '/transactions/tran_1', body: { CreateRefund: { refundAmount: 1 } } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(ResponseFormatError)
  })
})
