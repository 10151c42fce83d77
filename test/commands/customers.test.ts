// The customers topic against the emulator: each command's answer rendered as JSON and as a
// table; every validation rule exits 2 with nothing sent.
import { describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'

const { ctx, payfac, json, marketplace } = useEmulator()

describe('customers against the emulator', () => {
  it('upserts a consumer by e-mail, then gets and lists it', async () => {
    const created = await json(
      'customers',
      'upsert',
      '--email',
      'jo@example.com',
      '--given-name',
      'Jo',
      '--family-name',
      'Citizen',
      '--phone',
      '+61 401 234 567',
      '--reference',
      'crm-1',
      '--verified',
      '--metadata',
      'tier=gold',
    )
    expect(created.customerId).toMatch(/^cust_/)
    expect(created.merchantId).toBe(ctx.emulator.ids.merchantId)

    const again = await json('customers', 'upsert', '--email', 'jo@example.com', '--middle-name', 'Q')
    expect(again.customerId).toBe(created.customerId)

    const got = await json('customers', 'get', created.customerId)
    expect(got).toMatchObject({
      emailAddress: 'jo@example.com',
      givenName: 'Jo',
      middleName: 'Q',
      familyName: 'Citizen',
      phoneNumber: '+61401234567',
      referenceCustomerId: 'crm-1',
      isVerified: true,
      metadata: { tier: 'gold' },
    })

    const table = await payfac('customers', 'get', created.customerId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('jo@example.com')
    expect(table.stdout).toContain('Jo Q Citizen')
    expect(table.stdout).toContain('+61401234567')

    const upsertTable = await payfac('customers', 'upsert', '--email', 'jo@example.com')
    expect(upsertTable.code).toBe(0)
    expect(upsertTable.stdout).toContain(created.customerId)

    const listed = await json('customers', 'list', '--email', 'jo@example.com')
    expect(listed.map((c: { customerId: string }) => c.customerId)).toEqual([created.customerId])

    const listTable = await payfac('customers', 'list', '--customer', created.customerId, '--name', 'citizen')
    expect(listTable.code).toBe(0)
    expect(listTable.stdout).toContain(created.customerId)
    expect(listTable.stdout).toContain('jo@example.com')
  })

  it('filters by merchant with --merchant-id (a marketplace credential sees several merchants)', async () => {
    const mine = await json('customers', 'upsert', '--email', 'filter@example.com')
    const result = await marketplace.payfac(
      'customers',
      'list',
      '--merchant-id',
      ctx.emulator.ids.merchantId,
      '--merchant-id',
      ctx.emulator.ids.subMerchantId,
      '--all',
      '--json',
    )
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout).map((c: { customerId: string }) => c.customerId)).toContain(mine.customerId)
    const other = await marketplace.payfac('customers', 'list', '--merchant', ctx.emulator.ids.subMerchantId, '--json')
    expect(other.code, other.stderr).toBe(0)
    expect(JSON.parse(other.stdout).map((c: { customerId: string }) => c.customerId)).not.toContain(mine.customerId)
  })

  it('upserts an organisation by reference, and its delegates: upsert, get, list, link, delete', async () => {
    const acme = await json('customers', 'upsert', '--organisation', '--reference', 'acme-01', '--name', 'Acme Pty Ltd')
    const beta = await json('customers', 'upsert', '--organisation', '--reference', 'beta-01', '--data', '{"organisationName":"Beta Ltd"}')
    const acmeRecord = await json('customers', 'get', acme.customerId)
    expect(acmeRecord).toMatchObject({ customerType: 'Organisation', referenceCustomerId: 'acme-01', organisationName: 'Acme Pty Ltd' })
    expect((await json('customers', 'get', beta.customerId)).organisationName).toBe('Beta Ltd')

    const delegate = await json(
      'customers',
      'delegates',
      'upsert',
      '--customer',
      acme.customerId,
      '--email',
      'sam@acme.example',
      '--given-name',
      'Sam',
      '--family-name',
      'Lee',
    )
    expect(delegate.customerDelegateId).toMatch(/^custd_/)
    expect(delegate.customerId).toBe(acme.customerId)

    const got = await payfac('customers', 'delegates', 'get', delegate.customerDelegateId)
    expect(got.code, got.stderr).toBe(0)
    expect(got.stdout).toContain('Sam Lee')
    expect(got.stdout).toContain('sam@acme.example')

    const listed = await json('customers', 'delegates', 'list', '--customer', acme.customerId)
    expect(listed.map((d: { customerDelegateId: string }) => d.customerDelegateId)).toEqual([delegate.customerDelegateId])
    const listTable = await payfac('customers', 'delegates', 'list', '--email', 'sam@acme.example')
    expect(listTable.stdout).toContain(delegate.customerDelegateId)

    const linked = await json('customers', 'delegates', 'link', delegate.customerDelegateId, '--customer', beta.customerId)
    expect(linked.customerId).toBe(beta.customerId)
    const linkTable = await payfac('customers', 'delegates', 'link', delegate.customerDelegateId, '--customer', beta.customerId)
    expect(linkTable.code).toBe(0)
    expect(linkTable.stdout).toContain(beta.customerId)

    const deleted = await payfac('customers', 'delegates', 'delete', delegate.customerDelegateId)
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.stdout).toContain(delegate.customerDelegateId)
    const gone = await payfac('customers', 'delegates', 'get', delegate.customerDelegateId)
    expect(gone.code).toBe(5)
  })

  it('runs the KYC check (experimental) until every detail is given', async () => {
    const { customerId } = await json('customers', 'upsert', '--email', 'kyc@example.com')
    const first = await json('customers', 'kyc', '--customer', customerId)
    expect(first).toMatchObject({ customerId, kycStatus: 'MoreDetailsRequired', requiredDetails: ['dateOfBirth', 'address', 'identityDocument'] })

    const more = await payfac('customers', 'kyc', '--customer', customerId, '--data', '{"dateOfBirth":"1990-04-01"}')
    expect(more.code, more.stderr).toBe(0)
    expect(more.stdout).toContain('MoreDetailsRequired')
    expect(more.stdout).toContain('address, identityDocument')

    const done = await json(
      'customers',
      'kyc',
      '--customer',
      customerId,
      '--data',
      JSON.stringify({
        address: { line1: '1 Market St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' },
        identityDocument: { documentType: 'Passport', documentNumber: 'PA1234567' },
      }),
    )
    expect(done.kycStatus).toBe('Verified')
    expect((await json('customers', 'get', customerId)).isVerified).toBe(true)
  })

  it('shows the service refusal of an unknown customer with exit 5', async () => {
    const result = await payfac('customers', 'get', 'cust_AAAAAAAAAAAAAAAA')
    expect(result.code).toBe(5)
    expect(result.stderr).toMatch(/^Error: /)
  })
})

describe('customers: bad input exits 2 and sends nothing', () => {
  const recording = useRecordingServer()
  const { cli, server } = recording

  const cases: RefusalCase[] = [
    ['a consumer without --email', ['customers', 'upsert', '--given-name', 'Jo'], /--email/],
    ['an organisation without --reference', ['customers', 'upsert', '--organisation', '--name', 'Acme'], /--reference/],
    ['a consumer-only flag on an organisation', ['customers', 'upsert', '--organisation', '--reference', 'a', '--given-name', 'Jo'], /--given-name/],
    ['--email (a consumer key) on an organisation', ['customers', 'upsert', '--organisation', '--reference', 'a', '--email', 'jo@example.com'], /business key/],
    ['--name on a consumer', ['customers', 'upsert', '--email', 'jo@example.com', '--name', 'Jo'], /--name/],
    ['an e-mail address without @', ['customers', 'upsert', '--email', 'jo.example.com'], /e-mail/],
    ['a phone number not in E.164', ['customers', 'upsert', '--email', 'jo@example.com', '--phone', '0401234567'], /E\.164/],
    ['metadata without =', ['customers', 'upsert', '--email', 'jo@example.com', '--metadata', 'tier'], /key=value/],
    ['a previous-generation field in --data', ['customers', 'upsert', '--data', '{"emailAddress":"jo@example.com","firstName":"Jo"}'], /givenName/],
    ['a previous-generation e-mail field in --data', ['customers', 'upsert', '--data', '{"email":"jo@example.com"}'], /emailAddress/],
    ['an unknown envelope in --data', ['customers', 'upsert', '--data', '{"UpsertSomething":{"emailAddress":"jo@example.com"}}'], /UpsertConsumerCustomer/],
    [
      '--organisation against a consumer envelope',
      ['customers', 'upsert', '--organisation', '--data', '{"UpsertConsumerCustomer":{"emailAddress":"jo@example.com"}}'],
      /conflicts/,
    ],
    ['--data that is not JSON', ['customers', 'upsert', '--data', '{nope'], /not valid JSON/],
    ['a field the consumer shape does not have', ['customers', 'upsert', '--data', '{"emailAddress":"jo@example.com","nickname":"J"}'], /nickname/],
    ['a customer id with the wrong prefix', ['customers', 'get', 'ordr_ZqCNoNcm_22WeZ-j'], /cust_/],
    ['a list filter e-mail without @', ['customers', 'list', '--email', 'nobody'], /e-mail/],
    ['a merchant filter with the wrong prefix', ['customers', 'list', '--merchant', 'mktp_ZqCNoNcm_22WeZ-j'], /mcht_/],
    ['a bad --created-after date', ['customers', 'list', '--created-after', '01/11/2026'], /YYYY-MM-DD/],
    ['KYC for a delegate id', ['customers', 'kyc', '--customer', 'custd_ZqCNoNcm_22WeZ-j'], /cust_/],
    ['KYC --data that is an array', ['customers', 'kyc', '--data', '[1]'], /JSON object/],
    ['a delegate without --customer', ['customers', 'delegates', 'upsert', '--email', 'sam@acme.example'], /--customer/],
    [
      'a delegate with a bad phone',
      ['customers', 'delegates', 'upsert', '--customer', 'cust_ZqCNoNcm_22WeZ-j', '--email', 'sam@acme.example', '--phone', '12'],
      /E\.164/,
    ],
    ['linking without --customer', ['customers', 'delegates', 'link', 'custd_ZqCNoNcm_22WeZ-j'], /customer/],
    ['linking a customer id as the delegate', ['customers', 'delegates', 'link', 'cust_ZqCNoNcm_22WeZ-j', '--customer', 'cust_ZqCNoNcm_22WeZ-j'], /custd_/],
    ['deleting with the wrong prefix', ['customers', 'delegates', 'delete', 'cust_ZqCNoNcm_22WeZ-j'], /custd_/],
  ]

  itRefusesBeforeSending(cases, recording)

  it('sends --merchant-id of customers list as the merchantId filter, not as the Merchant-Id header', async () => {
    server.respond(() => ({ status: 200, headers: { 'Page-Count': '1', 'Total-Record-Count': '0' }, body: [] }))
    const result = await cli(
      'customers',
      'list',
      '--merchant-id',
      'mcht_ZqCNoNcm_22WeZ-j',
      '--merchant-id',
      'mcht_Pq3x8sK1mZ0aB2cD',
      '--email',
      'jo@example.com',
    )
    expect(result.code, result.stderr).toBe(0)
    const [request] = server.requests.splice(0)
    expect(request?.query.getAll('merchantId')).toEqual(['mcht_ZqCNoNcm_22WeZ-j', 'mcht_Pq3x8sK1mZ0aB2cD'])
    expect(request?.query.getAll('emailAddress')).toEqual(['jo@example.com'])
    expect(request?.headers['merchant-id']).toBeUndefined()
  })
})
