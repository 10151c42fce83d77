// The marketplaces topic against the emulator (marketplace API key): each command's answer
// rendered as JSON and as a table; every validation rule exits 2 with nothing sent.
import { describe, expect, it } from 'vitest'

import { RECORDING_MARKETPLACE_KEY, type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'

const { ctx, payfac, marketplace } = useEmulator()
const { payfac: asMarketplace, json } = marketplace

describe('marketplaces against the emulator', () => {
  it('gets the marketplace with its merchants', async () => {
    const { marketplaceId, merchantId, subMerchantId } = ctx.emulator.ids
    const got = await json('marketplaces', 'get', marketplaceId)
    expect(got).toMatchObject({ marketplaceId, name: 'Local Marketplace', merchantCount: 2 })
    expect(got.merchantIds).toEqual(expect.arrayContaining([merchantId, subMerchantId]))

    const table = await asMarketplace('marketplaces', 'get', marketplaceId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('Local Marketplace')
    expect(table.stdout).toContain(subMerchantId)

    const unknown = await asMarketplace('marketplaces', 'get', 'mktp_AAAAAAAAAAAAAAAA')
    expect(unknown.code).toBe(5)
  })

  it('upserts a marketplace customer by e-mail, and lists the merchant customers made for it', async () => {
    const created = await json(
      'marketplaces',
      'customers',
      'upsert',
      '--email',
      'jo@example.com',
      '--given-name',
      'Jo',
      '--family-name',
      'Citizen',
      '--phone',
      '+61401234567',
      '--reference',
      'crm-42',
      '--metadata',
      'tier=gold',
    )
    expect(created).toMatchObject({
      marketplaceId: ctx.emulator.ids.marketplaceId,
      emailAddress: 'jo@example.com',
      givenName: 'Jo',
      familyName: 'Citizen',
      phoneNumber: '+61401234567',
      referenceCustomerId: 'crm-42',
      metadata: { tier: 'gold' },
      created: true,
      merchantCustomers: [],
    })

    // A merchant customer for payments, made with the customer upsert for a sub-merchant.
    const merchantCustomer = await asMarketplace('customers', 'upsert', '--email', 'jo@example.com', '--merchant-id', ctx.emulator.ids.subMerchantId, '--json')
    expect(merchantCustomer.code, merchantCustomer.stderr).toBe(0)
    const { customerId } = JSON.parse(merchantCustomer.stdout)

    const again = await asMarketplace('marketplaces', 'customers', 'upsert', '--email', 'jo@example.com', '--data', '{"middleName":"Q"}')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toContain(created.marketplaceCustomerId)
    expect(again.stdout).toContain('Jo Q Citizen')
    expect(again.stdout).toContain(`${customerId} (${ctx.emulator.ids.subMerchantId})`)
    expect(again.stdout).toMatch(/Created now\s+false/)
  })

  it('is refused with a merchant key (exit 4)', async () => {
    const result = await payfac('marketplaces', 'customers', 'upsert', '--email', 'sam@example.com')
    expect(result.code).toBe(4)
  })
})

describe('marketplaces: bad input exits 2 and sends nothing', () => {
  const recording = useRecordingServer(undefined, { credential: RECORDING_MARKETPLACE_KEY })
  const { cli, server } = recording

  const cases: RefusalCase[] = [
    ['a marketplace id with the wrong prefix', ['marketplaces', 'get', 'mcht_ZqCNoNcm_22WeZ-j'], /mktp_/],
    ['a customer without --email', ['marketplaces', 'customers', 'upsert', '--given-name', 'Jo'], /--email/],
    ['a bad e-mail address', ['marketplaces', 'customers', 'upsert', '--email', 'jo(at)example.com'], /e-mail/],
    ['a phone number not in E.164', ['marketplaces', 'customers', 'upsert', '--email', 'jo@example.com', '--phone', '02 9999 0000'], /E\.164/],
    ['metadata without =', ['marketplaces', 'customers', 'upsert', '--email', 'jo@example.com', '--metadata', 'gold'], /key=value/],
    ['--data that is not JSON', ['marketplaces', 'customers', 'upsert', '--data', '{'], /not valid JSON/],
  ]

  itRefusesBeforeSending(cases, recording)

  it('warns about previous-generation names in --data (the body is not shown) and sends it as given', async () => {
    server.respond(() => ({ status: 200, body: { marketplaceCustomerId: 'mcust_1' } }))
    const result = await cli('marketplaces', 'customers', 'upsert', '--data', '{"emailAddress":"jo@example.com","firstName":"Jo"}')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/firstName.*givenName/)
    expect(server.requests.splice(0)[0]?.json).toEqual({ emailAddress: 'jo@example.com', firstName: 'Jo' })
  })
})
