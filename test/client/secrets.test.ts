import { inspect } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CREDENTIAL, type MockService, mockService, networkError } from './mock-service.js'

let svc: MockService
beforeEach(() => {
  svc = mockService()
})
afterEach(async () => svc.close())

function expectNoCredential(text: string) {
  expect(text).not.toContain(CREDENTIAL)
  expect(text).not.toContain(encodeURIComponent(CREDENTIAL))
}

function everyViewOf(error: unknown): string[] {
  const e = error as Error
  return [String(e.message), String(e.stack), JSON.stringify(e), inspect(e, { depth: 10 }), String(e)]
}

describe('the credential never leaks', () => {
  it('not in any error, even when the service echoes it back, nor in any debug line', async () => {
    const lines: string[] = []
    const client = svc.client({ debug: (line) => lines.push(line), maxRetries: 1 })
    const echo = `invalid key ${CREDENTIAL}`

    svc.on('GET', '/orders/ordr_1', { status: 401, body: { statusCode: 401, errorCode: 'unauthorised', message: echo, detail: echo } })
    svc.on('GET', '/orders/ordr_2', { status: 403, body: `<html>${echo}</html>`, headers: { 'content-type': 'text/html' } })
    svc.on('GET', '/orders/ordr_3', { body: `not json ${echo}`, headers: { 'content-type': 'text/plain' } })
    svc.fail('GET', '/orders/ordr_4', networkError('ECONNRESET', `socket closed while sending Bearer ${CREDENTIAL}`))
    svc.fail('GET', '/orders/ordr_4', networkError('ECONNRESET', `socket closed while sending Bearer ${CREDENTIAL}`))
    svc.on('GET', '/orders/ordr_5', { body: {} }, { delayMs: 300, times: 2 })

    const errors: unknown[] = []
    for (const id of ['ordr_1', 'ordr_2', 'ordr_3', 'ordr_4']) errors.push(await client.orders.get(id).catch((e: unknown) => e))
    errors.push(
      await svc
        .client({ timeoutMs: 30, maxRetries: 1, debug: (l) => lines.push(l) })
        .orders.get('ordr_5')
        .catch((e: unknown) => e),
    )
    errors.push(await client.orders.pay('ordr_1', { PayByPayTo: { paymentTokenId: CREDENTIAL } }).catch((e: unknown) => e))

    expect(errors.map((e) => (e as Error).name)).toEqual([
      'ApiError',
      'ApiError',
      'ResponseFormatError',
      'ConnectionError',
      'TimeoutError',
      'InvalidInputError',
    ])
    for (const error of errors) for (const view of everyViewOf(error)) expectNoCredential(view)
    expect(lines.length).toBeGreaterThan(8)
    for (const line of lines) expectNoCredential(line)
  })

  it('debug lines show method, URL, status, duration, headers and bodies, with secrets redacted', async () => {
    const lines: string[] = []
    svc.on('POST', '/payto/agreement', { body: { token: 'agr_secret_token', status: 'Pending' }, headers: { 'request-id': 'req_1' } })
    svc.on('GET', '/payto/agreement?token=agr_secret_token', { body: { status: 'Active' } })
    const client = svc.client({ debug: (line) => lines.push(line) })
    const sent = await client.payto.sendAgreement({
      customerName: 'Ada',
      customerAccIdentifier: { Bban: { value: '062000 12345678' } },
      terms: { AgreementRequestTermsOpen: {} },
      purpose: 'Subscription',
    })
    await client.payto.agreement(sent.token)

    expect(lines).toHaveLength(4)
    const [request, response, poll, pollAnswer] = lines as [string, string, string, string]
    expect(request).toMatch(/^→ POST https:\/\/api\.payfac\.test\/payto\/agreement /)
    expect(request).toContain('"Authorization":"Bearer [REDACTED]"')
    expect(request).toContain('"customerAccIdentifier":{"Bban":{"value":"***678"}}')
    expect(request).toContain('"customerName":"Ada"')
    expect(request).not.toContain('12345678')
    expect(response).toMatch(/^← 200 POST https:\/\/api\.payfac\.test\/payto\/agreement \(\d+ ms\) /)
    expect(response).toContain('"request-id":"req_1"')
    expect(response).toContain('"token":"[REDACTED]"')
    expect(poll).toContain('/payto/agreement?token=[REDACTED]')
    expect(pollAnswer).toContain('"status":"Active"')
    for (const line of lines) {
      expect(line).not.toContain('agr_secret_token')
      expectNoCredential(line)
    }
  })

  it('a throwing debug sink does not break the call', async () => {
    svc.on('GET', '/marketplaces/mktp_1', { body: { marketplaceId: 'mktp_1' } })
    const client = svc.client({
      debug: () => {
        throw new Error('sink broken')
      },
    })
    await expect(client.marketplaces.get('mktp_1')).resolves.toEqual({ marketplaceId: 'mktp_1' })
  })
})
