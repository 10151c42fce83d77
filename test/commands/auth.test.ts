// The auth topic against the emulator: sign-in and service tokens, each answer rendered as JSON
// and as a table; every validation rule exits 2 with nothing sent; the custom token and service
// token secrets never appear in --debug output or errors.
import { beforeAll, describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'
import { runCommand } from '../helpers/run-command.js'

const { ctx, payfac, json, marketplace } = useEmulator()
const asMarketplace = marketplace.payfac

describe('auth signin against the emulator', () => {
  let consumerId: string
  let organisationId: string
  let delegateId: string

  beforeAll(async () => {
    consumerId = (await json('customers', 'upsert', '--email', 'signin@example.com')).customerId
    organisationId = (await json('customers', 'upsert', '--organisation', '--reference', 'acme-signin')).customerId
    delegateId = (await json('customers', 'delegates', 'upsert', '--customer', organisationId, '--email', 'sam@acme.example')).customerDelegateId
  })

  it('signs in a consumer customer and prints the custom token', async () => {
    const signedIn = await json('auth', 'signin', '--customer', consumerId)
    expect(signedIn.customerId).toBe(consumerId)
    expect(signedIn.customToken).toMatch(/^sandbox_ct_/)

    const table = await payfac('auth', 'signin', '--customer', consumerId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(consumerId)
    expect(table.stdout).toMatch(/Custom token\s+sandbox_ct_/)

    // The token works as a customer credential: the customer may read itself.
    const asCustomer = await runCommand(['customers', 'get', consumerId, '--json'], {
      env: { ...ctx.envWith(signedIn.customToken), PAYFAC_CREDENTIAL_KIND: 'customer-jwt' },
    })
    expect(asCustomer.code, asCustomer.stderr).toBe(0)
  })

  it('signs in a delegate by id, by reference and e-mail, and with a --data envelope', async () => {
    const byId = await json('auth', 'signin', '--delegate', delegateId)
    expect(byId).toMatchObject({ customerId: organisationId, customerDelegateId: delegateId })
    expect(byId.customToken).toMatch(/^sandbox_ct_/)

    const byReference = await payfac('auth', 'signin', '--delegate-reference', 'acme-signin', '--email', 'sam@acme.example')
    expect(byReference.code, byReference.stderr).toBe(0)
    expect(byReference.stdout).toContain(delegateId)
    expect(byReference.stdout).toContain(organisationId)

    const byData = await json('auth', 'signin', '--data', JSON.stringify({ SignInDelegate: { customerDelegateId: delegateId } }))
    expect(byData.customerDelegateId).toBe(delegateId)
  })

  it('never shows the custom token in --debug output', async () => {
    const result = await payfac('auth', 'signin', '--customer', consumerId, '--json', '--debug')
    expect(result.code, result.stderr).toBe(0)
    const { customToken } = JSON.parse(result.stdout)
    expect(result.stderr).toContain('/auth/signin')
    expect(result.stderr).not.toContain(customToken)
  })

  it('maps a refusal to its exit code: an organisation cannot sign in as a consumer', async () => {
    const result = await payfac('auth', 'signin', '--customer', organisationId)
    expect(result.code).toBe(6)
    expect(result.stderr).toMatch(/delegate/i)
  })
})

describe('auth tokens against the emulator', () => {
  it('creates, gets, lists, updates and revokes a merchant service token', async () => {
    const merchantId = ctx.emulator.ids.merchantId
    const created = await payfac('auth', 'tokens', 'create', '--description', 'CI pipeline', '--expires-in', '90d', '--json')
    expect(created.code, created.stderr).toBe(0)
    expect(created.stderr).toMatch(/only this once/)
    const token = JSON.parse(created.stdout)
    expect(token).toMatchObject({ merchantId, description: 'CI pipeline', status: 'Active', expired: false })
    expect(token.token).toMatch(/^sandbox_sk_/)

    // The new secret works as the merchant's credential.
    const withToken = await runCommand(['customers', 'list', '--json'], { env: ctx.envWith(token.token) })
    expect(withToken.code, withToken.stderr).toBe(0)

    const got = await json('auth', 'tokens', 'get', token.serviceTokenId)
    expect(got.serviceTokenId).toBe(token.serviceTokenId)
    expect(got.token).toBeUndefined()
    const table = await payfac('auth', 'tokens', 'get', token.serviceTokenId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('CI pipeline')
    expect(table.stdout).not.toContain(token.token)

    const listed = await json('auth', 'tokens', 'list', '--merchant', merchantId, '--status', 'Active', '--no-expired', '--created-from', '2020-01-01')
    expect(listed.map((t: { serviceTokenId: string }) => t.serviceTokenId)).toContain(token.serviceTokenId)
    const expiredOnly = await json('auth', 'tokens', 'list', '--merchant', merchantId, '--expired')
    expect(expiredOnly.map((t: { serviceTokenId: string }) => t.serviceTokenId)).not.toContain(token.serviceTokenId)
    const listTable = await payfac('auth', 'tokens', 'list', '--merchant', merchantId, '--expires-to', '2099-01-01')
    expect(listTable.code, listTable.stderr).toBe(0)
    expect(listTable.stdout).toContain(token.serviceTokenId)

    const renamed = await json('auth', 'tokens', 'update', token.serviceTokenId, '--description', 'CI (rotated)', '--expires-at', '2099-06-30')
    expect(renamed).toMatchObject({ description: 'CI (rotated)', expiresAt: '2099-06-30T00:00:00.000Z' })

    const revoked = await payfac('auth', 'tokens', 'update', token.serviceTokenId, '--revoke')
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(revoked.stdout).toMatch(/Status\s+Revoked/)
    const afterRevoke = await runCommand(['customers', 'list'], { env: ctx.envWith(token.token) })
    expect(afterRevoke.code).toBe(4)

    const revokedList = await json('auth', 'tokens', 'list', '--merchant', merchantId, '--status', 'Revoked')
    expect(revokedList.map((t: { serviceTokenId: string }) => t.serviceTokenId)).toEqual([token.serviceTokenId])

    const again = await payfac('auth', 'tokens', 'update', token.serviceTokenId, '--description', 'back?')
    expect(again.code).toBe(6)
  })

  it('creates a marketplace token with the marketplace API key and lists it by --marketplace-id', async () => {
    const marketplaceId = ctx.emulator.ids.marketplaceId
    const created = await asMarketplace('auth', 'tokens', 'create', '--owner', marketplaceId, '--data', '{"description":"reporting"}', '--json', '--debug')
    expect(created.code, created.stderr).toBe(0)
    const token = JSON.parse(created.stdout)
    expect(created.stderr).toContain('/auth/servicetokens')
    expect(created.stderr).not.toContain(token.token)
    expect(token).toMatchObject({ ownerType: 'Marketplace', marketplaceId, description: 'reporting' })
    expect(token.token).toMatch(/^sandbox_api_/)

    const listed = await asMarketplace('auth', 'tokens', 'list', '--marketplace', marketplaceId)
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toContain(token.serviceTokenId)
    expect(listed.stdout).toContain('Marketplace')
  })

  it('a token for a sub-merchant made by the marketplace with --owner', async () => {
    const sub = ctx.emulator.ids.subMerchantId
    const created = await asMarketplace('auth', 'tokens', 'create', '--owner', sub, '--json')
    expect(created.code, created.stderr).toBe(0)
    expect(JSON.parse(created.stdout).merchantId).toBe(sub)
  })
})

describe('auth: bad input exits 2 and sends nothing', () => {
  const recording = useRecordingServer()
  const { cli, server } = recording

  const cases: RefusalCase[] = [
    ['sign-in without a way to sign in', ['auth', 'signin'], /customer|delegate|data/],
    ['sign-in with two ways', ['auth', 'signin', '--customer', 'cust_ZqCNoNcm_22WeZ-j', '--delegate', 'custd_ZqCNoNcm_22WeZ-j'], /customer|delegate/],
    ['a customer id with the wrong prefix', ['auth', 'signin', '--customer', 'custd_ZqCNoNcm_22WeZ-j'], /cust_/],
    ['a delegate id with the wrong prefix', ['auth', 'signin', '--delegate', 'cust_ZqCNoNcm_22WeZ-j'], /custd_/],
    ['--delegate-reference without --email', ['auth', 'signin', '--delegate-reference', 'acme-01'], /email/],
    ['--email without --delegate-reference', ['auth', 'signin', '--customer', 'cust_ZqCNoNcm_22WeZ-j', '--email', 'a@b.example'], /delegate-reference/],
    ['a bad delegate e-mail', ['auth', 'signin', '--delegate-reference', 'acme-01', '--email', 'nobody'], /e-mail/],
    ['--data of an unknown envelope', ['auth', 'signin', '--data', '{"SignInSomeone":{}}'], /SignInConsumer/],
    ['--data that is a bare body', ['auth', 'signin', '--data', '{"customerId":"cust_ZqCNoNcm_22WeZ-j"}'], /envelope/],
    [
      'SignInConsumer with a field it does not have',
      ['auth', 'signin', '--data', '{"SignInConsumer":{"customerId":"cust_ZqCNoNcm_22WeZ-j","email":"a@b.example"}}'],
      /emailAddress/,
    ],
    ['SignInConsumer with a bad customer id', ['auth', 'signin', '--data', '{"SignInConsumer":{"customerId":"nope"}}'], /cust_/],
    ['listing tokens without a merchant or marketplace', ['auth', 'tokens', 'list', '--status', 'Active'], /--merchant-id or --marketplace-id/],
    ['a merchant filter with the wrong prefix', ['auth', 'tokens', 'list', '--merchant', 'mktp_ZqCNoNcm_22WeZ-j'], /mcht_/],
    ['a marketplace filter with the wrong prefix', ['auth', 'tokens', 'list', '--marketplace', 'mcht_ZqCNoNcm_22WeZ-j'], /mktp_/],
    ['a bad --created-from', ['auth', 'tokens', 'list', '--merchant', 'mcht_ZqCNoNcm_22WeZ-j', '--created-from', 'yesterday'], /YYYY-MM-DD/],
    ['a bad --expires-to', ['auth', 'tokens', 'list', '--merchant', 'mcht_ZqCNoNcm_22WeZ-j', '--expires-to', '2026-13-45'], /YYYY-MM-DD/],
    ['a bad --expires-in', ['auth', 'tokens', 'create', '--expires-in', 'forever'], /duration/],
    ['--expires-in with --expires-at', ['auth', 'tokens', 'create', '--expires-in', '1d', '--expires-at', '2099-01-01'], /expires/],
    ['an --owner that is neither merchant nor marketplace', ['auth', 'tokens', 'create', '--owner', 'cust_ZqCNoNcm_22WeZ-j'], /mcht_|mktp_/],
    ['an update that changes nothing', ['auth', 'tokens', 'update', 'stkn_ZqCNoNcm_22WeZ-j'], /Nothing to update/],
    [
      'an update --data envelope of another kind',
      ['auth', 'tokens', 'update', 'stkn_ZqCNoNcm_22WeZ-j', '--data', '{"CreateServiceToken":{}}'],
      /UpdateServiceToken/,
    ],
    ['an empty token id', ['auth', 'tokens', 'get', ' '], /must not be empty/],
  ]

  itRefusesBeforeSending(cases, recording)

  it('sends the token list filters as query parameters, never as context headers', async () => {
    server.respond(() => ({ status: 200, headers: { 'Page-Count': '1', 'Total-Record-Count': '0' }, body: [] }))
    const result = await cli(
      'auth',
      'tokens',
      'list',
      '--merchant-id',
      'mcht_ZqCNoNcm_22WeZ-j',
      '--merchant-id',
      'mcht_Pq3x8sK1mZ0aB2cD',
      '--marketplace-id',
      'mktp_ZqCNoNcm_22WeZ-j',
      '--status',
      'Active',
      '--status',
      'Revoked',
      '--no-expired',
      '--created-from',
      '2026-01-01',
      '--created-to',
      '2026-02-01T00:00:00Z',
      '--expires-from',
      '2026-03-01',
      '--expires-to',
      '2026-04-01',
    )
    expect(result.code, result.stderr).toBe(0)
    const [request] = server.requests.splice(0)
    expect(request?.path).toBe('/auth/servicetokens')
    expect(request?.query.getAll('merchantId')).toEqual(['mcht_ZqCNoNcm_22WeZ-j', 'mcht_Pq3x8sK1mZ0aB2cD'])
    expect(request?.query.getAll('marketplaceId')).toEqual(['mktp_ZqCNoNcm_22WeZ-j'])
    expect(request?.query.getAll('status')).toEqual(['Active', 'Revoked'])
    expect(request?.query.get('expired')).toBe('false')
    expect(request?.query.get('createdFromInclusive')).toBe('2026-01-01T00:00:00.000Z')
    expect(request?.query.get('createdToExclusive')).toBe('2026-02-01T00:00:00Z')
    expect(request?.query.get('expiresAtFromInclusive')).toBe('2026-03-01T00:00:00.000Z')
    expect(request?.query.get('expiresAtToExclusive')).toBe('2026-04-01T00:00:00.000Z')
    expect(request?.headers['merchant-id']).toBeUndefined()
    expect(request?.headers['marketplace-id']).toBeUndefined()

    const plain = await cli('auth', 'tokens', 'list', '--merchant', 'mcht_ZqCNoNcm_22WeZ-j')
    expect(plain.code, plain.stderr).toBe(0)
    expect(server.requests.splice(0)[0]?.query.has('expired')).toBe(false)
  })

  it('sends the sign-in envelopes the flags name', async () => {
    server.respond(() => ({
      status: 200,
      body: { customerId: 'cust_ZqCNoNcm_22WeZ-j', customerDelegateId: 'custd_ZqCNoNcm_22WeZ-j', customToken: 'ct_secret_value_123' },
    }))
    expect((await cli('auth', 'signin', '--delegate', 'custd_ZqCNoNcm_22WeZ-j')).code).toBe(0)
    expect((await cli('auth', 'signin', '--delegate-reference', 'acme-01', '--email', 'sam@acme.example')).code).toBe(0)
    expect(server.requests.splice(0).map((r) => r.json)).toEqual([
      { SignInDelegate: { customerDelegateId: 'custd_ZqCNoNcm_22WeZ-j' } },
      { SignInDelegateByReferenceId: { referenceCustomerId: 'acme-01', emailAddress: 'sam@acme.example' } },
    ])
  })

  it('keeps the custom token out of an error report', async () => {
    server.respond(() => ({ status: 422, body: { statusCode: 422, errorCode: 'nope', message: 'Refused', customToken: 'ct_secret_value_456' } }))
    const result = await cli('auth', 'signin', '--customer', 'cust_ZqCNoNcm_22WeZ-j', '--debug')
    server.requests.splice(0)
    expect(result.code).toBe(6)
    expect(result.stderr + result.stdout).not.toContain('ct_secret_value_456')
  })
})
