// The webhooks topic against the emulator (rendered as JSON and as a table), and its input rules
// against a recording server (exit 2, nothing sent).
import { describe, expect, it } from 'vitest'

import { RECORDING_MARKETPLACE_KEY, type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const { ctx, payfac, json, marketplace } = useEmulator()
const SUB_MERCHANT = 'mcht_LocalSubMerch001'
const MARKETPLACE = 'mktp_LocalMarket00001'

describe('webhooks against the emulator', () => {
  it('creates a merchant-level subscription with merchant credentials and shows its secret once', async () => {
    const created = await json(
      'webhooks',
      'create',
      '--url',
      'https://hooks.example.com/m1',
      '--events',
      'TransactionPaid',
      '--events',
      'OrderCreated',
      '--description',
      'Payments',
      '--metadata',
      'team=payments',
    )
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/m1',
      events: ['TransactionPaid', 'OrderCreated'],
      description: 'Payments',
      metadata: { team: 'payments' },
      status: 'Active',
    })
    expect(created.id).toMatch(/^webhook_/)
    expect(created.merchantId).toBe(ctx.emulator.ids.merchantId)
    expect(created.secret).toEqual(expect.any(String))

    const table = await payfac('webhooks', 'create', '--url', 'http://127.0.0.1:8080/hook', '--events', 'OrderCreated')
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/Secret\s+whsec_/)
    expect(table.stdout).toContain('http://127.0.0.1:8080/hook')
  })

  it('hides the secret from get, list, enable and disable unless --show-secret', async () => {
    const created = await json('webhooks', 'create', '--url', 'https://hooks.example.com/m2', '--events', 'TransactionRefunded')

    const got = await json('webhooks', 'get', created.id)
    expect(got).toMatchObject({ id: created.id, url: 'https://hooks.example.com/m2', status: 'Active' })
    expect(got).not.toHaveProperty('secret')
    const gotTable = await payfac('webhooks', 'get', created.id)
    expect(gotTable.stdout).toContain(created.id)
    expect(gotTable.stdout).not.toContain(created.secret)
    expect(gotTable.stdout).not.toMatch(/Secret/)
    const gotCsv = await payfac('webhooks', 'get', created.id, '--csv')
    expect(gotCsv.stdout).not.toContain(created.secret)

    const debug = await payfac('webhooks', 'get', created.id, '--debug')
    expect(debug.code, debug.stderr).toBe(0)
    expect(debug.stderr).toContain('GET')
    expect(`${debug.stdout}${debug.stderr}`).not.toContain(created.secret)

    const shown = await json('webhooks', 'get', created.id, '--show-secret')
    expect(shown.secret).toBe(created.secret)
    const shownTable = await payfac('webhooks', 'get', created.id, '--show-secret')
    expect(shownTable.stdout).toContain(created.secret)

    const listed = await json('webhooks', 'list', '--all')
    expect(listed.map((s: { id: string }) => s.id)).toContain(created.id)
    for (const s of listed) expect(s).not.toHaveProperty('secret')
    const listCsv = await payfac('webhooks', 'list', '--csv')
    expect(listCsv.stdout).not.toContain(created.secret)
    const listTable = await payfac('webhooks', 'list')
    expect(listTable.stdout).toContain(created.id)
    expect(listTable.stdout).toContain('TransactionRefunded')

    const disabled = await json('webhooks', 'disable', created.id)
    expect(disabled).toMatchObject({ id: created.id, status: 'Suspended' })
    expect(disabled).not.toHaveProperty('secret')
    const suspended = await json('webhooks', 'list', '--status', 'Suspended')
    expect(suspended.map((s: { id: string }) => s.id)).toEqual([created.id])

    const enabled = await payfac('webhooks', 'enable', created.id)
    expect(enabled.code, enabled.stderr).toBe(0)
    expect(enabled.stdout).toMatch(/Status\s+Active/)
    expect(enabled.stdout).not.toContain(created.secret)
  })

  it('makes a marketplace-level subscription with the marketplace key, and a merchant-level one with --merchant-id', async () => {
    const level = await marketplace.json('webhooks', 'create', '--url', 'https://hooks.example.com/mk', '--events', 'MerchantCreated')
    expect(level.marketplaceId).toBe(MARKETPLACE)
    expect(level.merchantId).toBeUndefined()

    const sub = await marketplace.json(
      'webhooks',
      'create',
      '--url',
      'https://hooks.example.com/sub',
      '--events',
      'TransactionPaid',
      '--merchant-id',
      SUB_MERCHANT,
    )
    expect(sub.merchantId).toBe(SUB_MERCHANT)
    expect(sub.marketplaceId).toBeUndefined()

    // --merchant-id and --marketplace-id of `webhooks list` are filters, not context headers.
    const bySub = await marketplace.json('webhooks', 'list', '--merchant', SUB_MERCHANT)
    expect(bySub.map((s: { id: string }) => s.id)).toEqual([sub.id])
    const byMarketplace = await marketplace.json('webhooks', 'list', '--marketplace', MARKETPLACE)
    expect(byMarketplace.map((s: { id: string }) => s.id)).toEqual([level.id])
    const table = await marketplace.payfac('webhooks', 'list', '--marketplace', MARKETPLACE)
    expect(table.stdout).toContain(level.id)
    expect(table.stdout).toContain(MARKETPLACE)
  })
})

describe('webhooks list sends its filters as query parameters, not headers', () => {
  const { cli, server, env } = useRecordingServer(() => ({ body: [], headers: { 'Page-Count': '0', 'Total-Record-Count': '0' } }), {
    credential: RECORDING_MARKETPLACE_KEY,
  })

  it('repeats merchantId and sends no Merchant-Id header', async () => {
    const result = await cli('webhooks', 'list', '--merchant', 'mcht_AAAAAAAAAAAAAAAA', '--merchant', 'mcht_BBBBBBBBBBBBBBBB', '--status', 'Active')
    expect(result.code, result.stderr).toBe(0)
    const [request] = server.requests
    expect(request?.query.getAll('merchantId')).toEqual(['mcht_AAAAAAAAAAAAAAAA', 'mcht_BBBBBBBBBBBBBBBB'])
    expect(request?.query.get('status')).toBe('Active')
    expect(request?.headers['merchant-id']).toBeUndefined()
  })

  it('still takes the filters by their old names for a release, saying they are deprecated, and sends them as filters', async () => {
    // oclif's deprecation warning goes to the process's stderr: a real process shows it.
    const result = await spawnCli(['webhooks', 'list', '--merchant-id', 'mcht_AAAAAAAAAAAAAAAA', '--marketplace-id', 'mktp_AAAAAAAAAAAAAAAA'], { env: env() })
    expect(result.code, result.stderr).toBe(0)
    // oclif wraps its warnings at 80 columns, each line marked with ›.
    const said = result.stderr.replace(/\s*›\s*/g, ' ')
    expect(said).toMatch(/"--merchant-id" flag has been deprecated\. Use "--merchant"/)
    expect(said).toMatch(/"--marketplace-id" flag has been deprecated\. Use "--marketplace"/)
    const request = server.requests.at(-1)
    expect(request?.query.getAll('merchantId')).toEqual(['mcht_AAAAAAAAAAAAAAAA'])
    expect(request?.query.getAll('marketplaceId')).toEqual(['mktp_AAAAAAAAAAAAAAAA'])
    expect(request?.headers['merchant-id']).toBeUndefined()
    expect(request?.headers['marketplace-id']).toBeUndefined()
  })
})

describe('bad webhook input exits 2 and sends nothing', () => {
  const recording = useRecordingServer()

  const cases: RefusalCase[] = [
    ['a plain http URL to another host', ['webhooks', 'create', '--url', 'http://hooks.example.com/x', '--events', 'TransactionPaid'], /https/],
    ['a URL that is not a URL', ['webhooks', 'create', '--url', 'hooks.example.com', '--events', 'TransactionPaid'], /absolute URL/],
    ['an ftp URL', ['webhooks', 'create', '--url', 'ftp://127.0.0.1/x', '--events', 'TransactionPaid'], /https/],
    ['a lower-case event name', ['webhooks', 'create', '--url', 'https://h.example.com', '--events', 'transaction.paid'], /event name/],
    ['a one-word event name', ['webhooks', 'create', '--url', 'https://h.example.com', '--events', 'Paid'], /event name/],
    ['no events', ['webhooks', 'create', '--url', 'https://h.example.com'], /events/],
    ['metadata without =', ['webhooks', 'create', '--url', 'https://h.example.com', '--events', 'TransactionPaid', '--metadata', 'oops'], /key=value/],
    ['a subscription id without its prefix', ['webhooks', 'get', 'wh_123'], /webhook_/],
    ['enable with a wrong prefix', ['webhooks', 'enable', 'ordr_ZqCNoNcm_22WeZ-j'], /webhook_/],
    ['disable with no id', ['webhooks', 'disable'], /id/i],
    ['an unknown status filter', ['webhooks', 'list', '--status', 'Paused'], /status/],
    ['a merchant filter without its prefix', ['webhooks', 'list', '--merchant', 'LocalSubMerch001'], /mcht_/],
    ['a marketplace filter without its prefix', ['webhooks', 'list', '--marketplace', 'mcht_LocalSubMerch001'], /mktp_/],
  ]

  itRefusesBeforeSending(cases, recording)
})
