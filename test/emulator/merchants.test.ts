// Merchants over HTTP: list, create (marketplace), get, the PATCH actions, balances from the
// ledger, onboarding files (multipart, checked by content, 10 MB), wallet-pay domains, beneficial
// owners and the industry list.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { KEYS, MARKETPLACE, MERCHANT, SUB_MERCHANT } from './helpers.js'
import { asMarketplace, expectError, payOverHttp, unanswered, useHttpEmulator } from './money-http.js'
import { routesUnder } from './contract-routes.js'

const http = useHttpEmulator()

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest of a png')])
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('rest of a jpeg')])
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n')

function form(content: Buffer, fileName: string, type: string, fields: Record<string, string> = {}): FormData {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.append(name, value)
  data.append('file', new Blob([content], { type }), fileName)
  return data
}

describe('industries', () => {
  it('lists industries with codes, and /merchants/industries is not taken for a merchant id', async () => {
    const industries = await http.ok('GET', '/merchants/industries', { credential: KEYS.merchantPublicKey })
    expect(industries.length).toBeGreaterThan(10)
    expect(industries[0]).toEqual({ industryCode: expect.stringMatching(/^\d{4}$/), name: expect.any(String), b2bCommon: expect.any(Boolean) })
    expect(industries.map((i: { name: string }) => i.name)).toContain('Retail')
    expectError(await http.call('PATCH', '/merchants/industries', { body: {} }), 405, 'method_not_allowed')
  })
})

describe('reading merchants', () => {
  it('gets a merchant with its bank accounts and public key', async () => {
    const merchant = await http.ok('GET', `/merchants/${MERCHANT}`)
    expect(merchant).toMatchObject({
      merchantId: MERCHANT,
      marketplaceId: MARKETPLACE,
      industry: 'Retail',
      industryCode: '5399',
      status: 'Active',
      manualPayoutsEnabled: true,
      publicKey: KEYS.merchantPublicKey,
      bankAccounts: [{ bankAccountId: 'bank_LocalMerchBank01', bsb: '062-000', accountNumber: '12345678', isPrimary: true }],
    })
  })

  it('hides another merchant: 404 for a merchant credential, visible to the marketplace', async () => {
    expectError(await http.call('GET', `/merchants/${SUB_MERCHANT}`), 404, 'not_found')
    expect((await http.ok('GET', `/merchants/${SUB_MERCHANT}`, asMarketplace)).merchantId).toBe(SUB_MERCHANT)
    expectError(await http.call('GET', `/merchants/${MERCHANT}`, { credential: KEYS.merchantPublicKey }), 403, 'credential_not_allowed')
  })

  it('lists merchants the caller may see, with filters and page headers', async () => {
    const own = await http.call('GET', '/merchants')
    expect(own.body.map((m: { merchantId: string }) => m.merchantId)).toEqual([MERCHANT])
    const all = await http.call('GET', '/merchants?sort=name&limit=1', asMarketplace)
    expect(Number(all.headers.get('total-record-count'))).toBeGreaterThanOrEqual(2)
    expect(all.headers.get('page-count')).toBe(all.headers.get('total-record-count'))
    expect(all.body[0].name).toBe('Local Merchant Pty Ltd')
    const named = await http.ok('GET', '/merchants?name=sub-merchant', asMarketplace)
    expect(named.map((m: { merchantId: string }) => m.merchantId)).toEqual([SUB_MERCHANT])
    expect(await http.ok('GET', `/merchants?merchantId=${SUB_MERCHANT}&industry=5399`, asMarketplace)).toHaveLength(1)
    expectError(await http.call('GET', '/merchants?sort=colour'), 400, 'invalid_sort')
  })
})

describe('creating a sub-merchant', () => {
  it('is done by the marketplace; the new merchant has keys that work, and MerchantCreated is recorded', async () => {
    const created = await http.ok('POST', '/merchants', {
      ...asMarketplace,
      body: {
        name: 'Harbour Hardware Pty Ltd',
        industry: 'Building materials and hardware',
        emailAddress: 'accounts@harbour.example',
        businessNumber: '51824753556',
        supportsB2B: true,
        bankAccount: { bsb: '062000', accountNumber: '11223344', accountName: 'Harbour Hardware' },
        walletPayDomains: ['shop.harbour.example'],
      },
    })
    expect(created).toMatchObject({
      merchantId: expect.stringMatching(/^mcht_[A-Za-z0-9_-]{16}$/),
      marketplaceId: MARKETPLACE,
      industry: 'Building materials and hardware',
      industryCode: '5211',
      status: 'Active',
      manualPayoutsEnabled: false,
      supportsB2B: true,
      publicKey: expect.stringMatching(/^sandbox_pk_/),
      secretKey: expect.stringMatching(/^sandbox_sk_/),
      bankAccounts: [{ bsb: '062-000', accountNumber: '11223344', isPrimary: true }],
    })
    const fetched = await http.ok('GET', `/merchants/${created.merchantId}`, { credential: created.secretKey })
    expect(fetched.secretKey).toBeUndefined()
    expect(fetched.businessNumber).toBe('51824753556')
    const event = http.emulator.app.store.events.find((e) => e.webhookEventType === 'MerchantCreated' && e.merchantId === created.merchantId)
    expect(event).toMatchObject({ marketplaceId: MARKETPLACE, event: { merchant: { merchantId: created.merchantId } } })
    const walletpay = await http.ok('GET', `/merchants/${created.merchantId}/walletpay`, asMarketplace)
    expect(walletpay).toEqual({
      merchantId: created.merchantId,
      domains: [{ domain: 'shop.harbour.example', status: 'Verified', registeredAt: expect.any(String) }],
    })
  })

  it('refuses a merchant credential (403), an unknown industry (422), a bad ABN (422); accepts and reports unknown fields', async () => {
    const body = { name: 'X Pty Ltd', industry: 'Retail' }
    expectError(await http.call('POST', '/merchants', { body }), 403, 'marketplace_only')
    expectError(await http.call('POST', '/merchants', { ...asMarketplace, body: { ...body, industry: 'Alchemy' } }), 422, 'unknown_industry')
    expectError(await http.call('POST', '/merchants', { ...asMarketplace, body: { ...body, businessNumber: '51824753557' } }), 422, 'invalid_business_number')
    expect((await http.call('POST', '/merchants', { ...asMarketplace, body: { ...body, colour: 'blue' } })).headers.get('emulator-warning')).toContain(
      '"colour"',
    )
    expectError(await http.call('POST', '/merchants', { ...asMarketplace, body: { industry: 'Retail' } }), 400, 'invalid_request')
    expectError(await http.call('POST', '/merchants', { ...asMarketplace, headers: { 'Merchant-Id': SUB_MERCHANT }, body }), 400, 'unexpected_merchant_context')
  })
})

describe('merchant actions', () => {
  it('adds bank accounts, checks BSB and account number, and moves the primary account', async () => {
    const added = await http.ok('PATCH', `/merchants/${SUB_MERCHANT}`, {
      ...asMarketplace,
      body: { AddMerchantBankAccount: { bsb: '083-170', accountNumber: '99887', accountName: 'Sub-Merchant Savings' } },
    })
    const account = added.bankAccounts.find((b: { accountNumber: string }) => b.accountNumber === '99887')
    expect(account).toMatchObject({ bankAccountId: expect.stringMatching(/^bank_/), bsb: '083-170', isPrimary: false })
    const bad = (fields: Record<string, unknown>) =>
      http.call('PATCH', `/merchants/${SUB_MERCHANT}`, {
        ...asMarketplace,
        body: { AddMerchantBankAccount: { bsb: '083-170', accountNumber: '123456', accountName: 'A', ...fields } },
      })
    expectError(await bad({ bsb: '08317' }), 400, 'invalid_request')
    expectError(await bad({ accountNumber: '1234' }), 400, 'invalid_request')
    expectError(await bad({ accountNumber: '1234567890' }), 400, 'invalid_request')
    expectError(await bad({ accountName: '' }), 400, 'invalid_request')
    expectError(await bad({ accountNumber: '99887' }), 409, 'bank_account_exists')

    const moved = await http.ok('PATCH', `/merchants/${SUB_MERCHANT}`, {
      ...asMarketplace,
      body: { SetMerchantPrimaryBankAccount: { bankAccountId: account.bankAccountId } },
    })
    expect(moved.bankAccounts.filter((b: { isPrimary: boolean }) => b.isPrimary).map((b: { bankAccountId: string }) => b.bankAccountId)).toEqual([
      account.bankAccountId,
    ])
    expectError(
      await http.call('PATCH', `/merchants/${SUB_MERCHANT}`, { ...asMarketplace, body: { SetMerchantPrimaryBankAccount: { bankAccountId: 'bank_nope' } } }),
      404,
      'not_found',
    )
    expectError(
      await http.call('PATCH', `/merchants/${SUB_MERCHANT}`, { body: { SetMerchantPrimaryBankAccount: { bankAccountId: account.bankAccountId } } }),
      404,
      'not_found',
    )
  })

  it('updates the business profile: known fields checked, other fields kept', async () => {
    const updated = await http.ok('PATCH', `/merchants/${MERCHANT}`, {
      body: { UpdateMerchantBusinessProfile: { websiteUrl: 'https://local.example', tradingHours: 'Mon-Fri 9-5', walletPayDomains: ['local.example'] } },
    })
    expect(updated).toMatchObject({ websiteUrl: 'https://local.example', businessProfile: { tradingHours: 'Mon-Fri 9-5' } })
    expect((await http.ok('GET', `/merchants/${MERCHANT}/walletpay`)).domains.map((d: { domain: string }) => d.domain)).toEqual(['local.example'])
    expectError(
      await http.call('PATCH', `/merchants/${MERCHANT}`, { body: { UpdateMerchantBusinessProfile: { emailAddress: 'not-an-address' } } }),
      400,
      'invalid_request',
    )
    expectError(
      await http.call('PATCH', `/merchants/${MERCHANT}`, { body: { UpdateMerchantBusinessProfile: { industry: 'Alchemy' } } }),
      422,
      'unknown_industry',
    )
    expectError(await http.call('PATCH', `/merchants/${MERCHANT}`, { body: { RenameMerchant: {} } }), 400, 'unknown_action')
  })
})

describe('balances', () => {
  it('are computed from the ledger: money waits two days, fees count at once', async () => {
    const before = (await http.ok('GET', `/merchants/${MERCHANT}/balances`)).balances[0]
    await payOverHttp(http, 10_000)
    const after = await http.ok('GET', `/merchants/${MERCHANT}/balances`)
    expect(after.merchantId).toBe(MERCHANT)
    const aud = after.balances.find((b: { currency: string }) => b.currency === 'AUD')
    // fee on 100.00: 1.50 + 0.30 + 10 % GST = 1.98
    expect(aud.available.minorCurrencyUnits - before.available.minorCurrencyUnits).toBe(-198)
    expect(aud.pending.minorCurrencyUnits - before.pending.minorCurrencyUnits).toBe(10_000)
    expect(aud.total.minorCurrencyUnits).toBe(aud.available.minorCurrencyUnits + aud.pending.minorCurrencyUnits)
    await http.simulate({ AdvanceClock: { seconds: 2 * 86_400 } })
    const later = (await http.ok('GET', `/merchants/${MERCHANT}/balances`)).balances.find((b: { currency: string }) => b.currency === 'AUD')
    expect(later.pending.minorCurrencyUnits).toBe(0)
    expect(later.available.minorCurrencyUnits).toBe(aud.total.minorCurrencyUnits)
    expectError(await http.call('GET', `/merchants/${SUB_MERCHANT}/balances`), 404, 'not_found')
  })
})

describe('onboarding files', () => {
  it('accepts PNG, JPEG and PDF by content and keeps size and SHA-256', async () => {
    const png = await http.ok('POST', `/merchants/${MERCHANT}/files`, {
      form: form(PNG, 'licence.png', 'image/png', { purpose: 'IdentityDocument', side: 'front' }),
    })
    expect(png).toMatchObject({
      fileId: expect.stringMatching(/^file_[A-Za-z0-9_-]{16}$/),
      merchantId: MERCHANT,
      fileName: 'licence.png',
      contentType: 'image/png',
      size: PNG.length,
      sha256: createHash('sha256').update(PNG).digest('hex'),
      purpose: 'IdentityDocument',
      fields: { side: 'front' },
    })
    expect(await http.ok('GET', `/merchants/${MERCHANT}/files/${png.fileId}`)).toEqual(png)
    // The declared type does not matter, the content does.
    expect((await http.ok('POST', `/merchants/${MERCHANT}/files`, { form: form(JPEG, 'scan.bin', 'application/octet-stream') })).contentType).toBe('image/jpeg')
    expect((await http.ok('POST', `/merchants/${MERCHANT}/files`, { form: form(PDF, 'statement.pdf', 'application/pdf') })).contentType).toBe('application/pdf')
    expectError(await http.call('GET', `/merchants/${MERCHANT}/files/file_doesNotExist0000`), 404, 'not_found')
    expectError(await http.call('GET', `/merchants/${SUB_MERCHANT}/files/${png.fileId}`, asMarketplace), 404, 'not_found')
  })

  it('refuses other content, an empty file, a form without "file", and a body that is not a form', async () => {
    expectError(
      await http.call('POST', `/merchants/${MERCHANT}/files`, { form: form(Buffer.from('hello'), 'a.png', 'image/png') }),
      422,
      'unsupported_file_type',
    )
    expectError(
      await http.call('POST', `/merchants/${MERCHANT}/files`, { form: form(Buffer.from('GIF89a....'), 'a.gif', 'image/gif') }),
      422,
      'unsupported_file_type',
    )
    expectError(await http.call('POST', `/merchants/${MERCHANT}/files`, { form: form(Buffer.alloc(0), 'empty.png', 'image/png') }), 422, 'empty_file')
    const noFile = new FormData()
    noFile.append('document', new Blob([PNG], { type: 'image/png' }), 'x.png')
    expectError(await http.call('POST', `/merchants/${MERCHANT}/files`, { form: noFile }), 400, 'file_required')
    expectError(await http.call('POST', `/merchants/${MERCHANT}/files`, { body: { file: 'aGVsbG8=' } }), 400, 'multipart_required')
    expectError(
      await http.call('POST', `/merchants/${MERCHANT}/files`, { raw: { bytes: 'garbage', contentType: 'multipart/form-data; boundary=xyz' } }),
      400,
      'invalid_multipart',
    )
  })

  it('accepts exactly 10 MB and refuses one byte more', async () => {
    const limit = 10 * 1024 * 1024
    const big = Buffer.alloc(limit + 1, 0x20)
    PDF.copy(big, 0)
    const atLimit = await http.ok('POST', `/merchants/${MERCHANT}/files`, { form: form(big.subarray(0, limit), 'big.pdf', 'application/pdf') })
    expect(atLimit.size).toBe(limit)
    expectError(await http.call('POST', `/merchants/${MERCHANT}/files`, { form: form(big, 'too-big.pdf', 'application/pdf') }), 422, 'file_too_large')
  })
})

describe('beneficial owners', () => {
  it('creates, lists, reads, overwrites and deletes', async () => {
    const owner = await http.ok('POST', `/merchants/${MERCHANT}/owners`, {
      body: { givenName: 'Ada', familyName: 'Lovelace', role: 'Director', ownershipPercentage: 60, dateOfBirth: '1980-12-10' },
    })
    expect(owner).toMatchObject({
      ownerId: expect.stringMatching(/^owner_[A-Za-z0-9_-]{16}$/),
      merchantId: MERCHANT,
      givenName: 'Ada',
      ownershipPercentage: 60,
    })
    expect((await http.ok('GET', `/merchants/${MERCHANT}/owners`)).map((o: { ownerId: string }) => o.ownerId)).toContain(owner.ownerId)
    expect(await http.ok('GET', `/merchants/${MERCHANT}/owners/${owner.ownerId}`)).toEqual(owner)

    const replaced = await http.ok('PUT', `/merchants/${MERCHANT}/owners/${owner.ownerId}`, {
      body: { givenName: 'Augusta', familyName: 'King', ownershipPercentage: 40 },
    })
    expect(replaced).toMatchObject({
      ownerId: owner.ownerId,
      givenName: 'Augusta',
      familyName: 'King',
      role: null,
      dateOfBirth: null,
      createdAt: owner.createdAt,
    })

    expectError(
      await http.call('POST', `/merchants/${MERCHANT}/owners`, { body: { givenName: 'B', familyName: 'C', ownershipPercentage: 61 } }),
      422,
      'ownership_exceeds_100',
    )
    expectError(await http.call('POST', `/merchants/${MERCHANT}/owners`, { body: { givenName: 'B' } }), 400, 'invalid_request')
    expectError(await http.call('PUT', `/merchants/${MERCHANT}/owners/owner_doesNotExist000`, { body: { givenName: 'B', familyName: 'C' } }), 404, 'not_found')

    expect(await http.ok('DELETE', `/merchants/${MERCHANT}/owners/${owner.ownerId}`)).toEqual({ ownerId: owner.ownerId, merchantId: MERCHANT, deleted: true })
    expectError(await http.call('GET', `/merchants/${MERCHANT}/owners/${owner.ownerId}`), 404, 'not_found')
    expectError(await http.call('DELETE', `/merchants/${MERCHANT}/owners/${owner.ownerId}`), 404, 'not_found')
  })
})

describe('coverage', () => {
  it('answered 2xx over HTTP on every merchant operation', () => {
    const keys = routesUnder('/merchants')
    expect(unanswered(http, keys)).toEqual([])
  })
})
