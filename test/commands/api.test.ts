// payfac api: any operation, with the same credentials, context, errors and exit codes as every
// command. Against a recording server, so the exact request on the wire is asserted.
import { describe, expect, it } from 'vitest'

import { itRefusesBeforeSending, useRecordingServer } from '../helpers/command-harness.js'

const recording = useRecordingServer(() => ({ body: { ok: true } }))
const { cli, server } = recording

describe('payfac api', () => {
  it('sends the method, path, query, body and extra headers as given, and prints the JSON answer', async () => {
    const result = await cli(
      'api',
      'post',
      '/simulation?dryRun=true&tag=a&tag=b',
      '--data',
      '{"AdvanceClock":{"seconds":60}}',
      '-H',
      'Merchant-Id: mcht_ZqCNoNcm_22WeZ-j',
      '-H',
      'X-Trace: 1',
    )
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ ok: true })
    const [request] = server.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/simulation')
    expect(request?.query.getAll('tag')).toEqual(['a', 'b'])
    expect(request?.query.get('dryRun')).toBe('true')
    expect(request?.json).toEqual({ AdvanceClock: { seconds: 60 } })
    expect(request?.headers['merchant-id']).toBe('mcht_ZqCNoNcm_22WeZ-j')
    expect(request?.headers['x-trace']).toBe('1')
    expect(request?.headers.authorization).toMatch(/^Bearer sandbox_sk_/)
  })

  it('walks every page with --paginate and prints one JSON array', async () => {
    server.respond(({ query }) => {
      const page = Number(query.get('page') ?? '1')
      return { body: page <= 2 ? [{ n: page }] : [], headers: { 'Page-Count': '2', 'Total-Record-Count': '2' } }
    })
    const result = await cli('api', 'GET', '/orders', '--paginate')
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual([{ n: 1 }, { n: 2 }])
    expect(server.requests.map((r) => r.query.get('page'))).toEqual(['1', '2'])
  })

  it('exits by the status of the answer, with the error as JSON under --json', async () => {
    server.respond(() => ({ status: 409, body: { statusCode: 409, errorCode: 'order_already_paid', message: 'Already paid', tracer: 'req_1' } }))
    const result = await cli('api', 'POST', '/orders/ordr_x/pay', '--data', '{}', '--json')
    expect(result.code).toBe(6)
    expect(result.stdout).toBe('')
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { status: 409, errorCode: 'order_already_paid', tracer: 'req_1' } })
    expect(server.requests).toHaveLength(1)
  })
})

describe('payfac api refuses before sending', () => {
  itRefusesBeforeSending(
    [
      ['--data that is not JSON', ['api', 'POST', '/orders', '--data', '{not json'], /not valid JSON/],
      ['a method it does not know', ['api', 'FETCH', '/orders'], /METHOD must be one of/],
      ['a path without its leading slash', ['api', 'GET', 'orders'], /must start with \//],
      ['a header without a colon', ['api', 'GET', '/orders', '-H', 'Merchant-Id'], /-H takes "Name: value"/],
    ],
    recording,
  )
})
