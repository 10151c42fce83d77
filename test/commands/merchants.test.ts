// The merchants topic against the emulator: each command's answer rendered as JSON and as a
// table; every validation rule (files by content and size, BSB and account numbers, ABN/ACN,
// owners) exits 2 with nothing sent.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer, useTempDir } from '../helpers/command-harness.js'

const { ctx, payfac, json, marketplace } = useEmulator()
const asMarketplace = marketplace.payfac
const dir = useTempDir('payfac-merchant-files-')

/** Writes a file of the given bytes in the temporary folder and returns its path. */
function file(name: string, bytes: Uint8Array | string): string {
  const path = join(dir(), name)
  writeFileSync(path, bytes)
  return path
}
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const png = () => new Uint8Array([...PNG_HEAD, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
const jpeg = () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46])

describe('merchants against the emulator', () => {
  it('lists and gets merchants, the get showing bank accounts (masked in tables) and the public key', async () => {
    const { merchantId } = ctx.emulator.ids
    const listed = await json('merchants', 'list')
    expect(listed.map((m: { merchantId: string }) => m.merchantId)).toEqual([merchantId])

    const marketplaceList = await asMarketplace('merchants', 'list', '--name', 'sub-merchant')
    expect(marketplaceList.code, marketplaceList.stderr).toBe(0)
    expect(marketplaceList.stdout).toContain(ctx.emulator.ids.subMerchantId)
    expect(marketplaceList.stdout).not.toContain(merchantId)

    const got = await json('merchants', 'get', merchantId)
    expect(got.bankAccounts[0]).toMatchObject({ bsb: '062-000', accountNumber: '12345678', isPrimary: true })
    expect(got.publicKey).toBe(ctx.emulator.credentials.merchantPublicKey)

    const table = await payfac('merchants', 'get', merchantId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/Bank accounts\s+\S+: 062-000 \*\*\*\*5678 .*\(primary\)/)
    expect(table.stdout).not.toContain('12345678')
    expect(table.stdout).toContain(ctx.emulator.credentials.merchantPublicKey)
  })

  it('creates a sub-merchant with the marketplace API key, showing its secret key once', async () => {
    const created = await asMarketplace(
      'merchants',
      'create',
      '--name',
      'Harbour Cafe Pty Ltd',
      '--industry',
      '5812',
      '--email',
      'accounts@harbour.example',
      '--phone',
      '+61 2 9999 0000',
      '--business-number',
      '51 824 753 556',
      '--address',
      '1 Harbour St|Sydney|NSW|2000|AU',
      '--website',
      'https://harbour.example',
      '--supports-b2b',
      '--manual-payouts',
      '--currency',
      'aud',
      '--bsb',
      '062-000',
      '--account-number',
      '11112222',
      '--account-name',
      'Harbour Cafe',
      '--wallet-domain',
      'shop.harbour.example',
      '--metadata',
      'crm=77',
      '--json',
    )
    expect(created.code, created.stderr).toBe(0)
    expect(created.stderr).toMatch(/only this once/)
    const merchant = JSON.parse(created.stdout)
    expect(merchant).toMatchObject({
      name: 'Harbour Cafe Pty Ltd',
      industry: 'Restaurants and cafes',
      marketplaceId: ctx.emulator.ids.marketplaceId,
      emailAddress: 'accounts@harbour.example',
      phoneNumber: '+61299990000',
      businessNumber: '51824753556',
      address: { line1: '1 Harbour St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' },
      websiteUrl: 'https://harbour.example',
      supportsB2B: true,
      manualPayoutsEnabled: true,
      currency: 'AUD',
      metadata: { crm: '77' },
    })
    expect(merchant.bankAccounts).toHaveLength(1)
    expect(merchant.secretKey).toMatch(/^sandbox_sk_/)

    const table = await asMarketplace('merchants', 'create', '--name', 'Acme Supplies', '--industry', 'Industrial supplies')
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/Secret key \(shown once\)\s+sandbox_sk_/)
    expect(table.stdout).toContain('Acme Supplies')

    const walletpay = await asMarketplace('merchants', 'walletpay', merchant.merchantId)
    expect(walletpay.code, walletpay.stderr).toBe(0)
    expect(walletpay.stdout).toContain('shop.harbour.example')

    const refused = await payfac('merchants', 'create', '--name', 'Not Mine', '--industry', '5812')
    expect(refused.code).toBe(4)
  })

  it('adds bank accounts, sets the primary one, and updates the business profile', async () => {
    const { merchantId } = ctx.emulator.ids
    const added = await json('merchants', 'bank-accounts', 'add', merchantId, '--bsb', '083004', '--account-number', '87654321', '--account-name', 'Payouts 2')
    const second = added.bankAccounts.find((b: { accountNumber: string }) => b.accountNumber === '87654321')
    expect(second).toMatchObject({ bsb: '083-004', isPrimary: false })

    const primary = await payfac('merchants', 'bank-accounts', 'set-primary', merchantId, '--bank-account', second.bankAccountId)
    expect(primary.code, primary.stderr).toBe(0)
    expect(primary.stdout).toMatch(new RegExp(`${second.bankAccountId}: 083-004 \\*\\*\\*\\*4321 Payouts 2 \\(primary\\)`))

    const third = await payfac(
      'merchants',
      'bank-accounts',
      'add',
      merchantId,
      '--bsb',
      '062 001',
      '--account-number',
      '5555666',
      '--account-name',
      'Payouts 3',
      '--primary',
    )
    expect(third.code, third.stderr).toBe(0)
    expect(third.stdout).toMatch(/062-001 \*\*\*\*5666 Payouts 3 \(primary\)/)

    const profile = await json(
      'merchants',
      'update-profile',
      merchantId,
      '--data',
      '{"tradingHours":"9-5"}',
      '--website',
      'https://local.example',
      '--wallet-domain',
      'pay.local.example',
    )
    expect(profile).toMatchObject({ websiteUrl: 'https://local.example', businessProfile: { tradingHours: '9-5' } })
    const profileTable = await payfac('merchants', 'update-profile', merchantId, '--name', 'Local Merchant (renamed)')
    expect(profileTable.code, profileTable.stderr).toBe(0)
    expect(profileTable.stdout).toContain('Local Merchant (renamed)')
    expect(profileTable.stdout).toContain('tradingHours')

    const walletpay = await json('merchants', 'walletpay', merchantId)
    expect(walletpay.domains.map((d: { domain: string }) => d.domain)).toEqual(['pay.local.example'])
  })

  it('shows balances per currency as money, available and pending', async () => {
    const { merchantId } = ctx.emulator.ids
    const transfer = await payfac(
      'api',
      'POST',
      '/simulation',
      '--data',
      JSON.stringify({
        IncomingBankTransfer: { merchantId, amount: { minorCurrencyUnits: 1250, currency: 'AUD' } },
      }),
    )
    expect(transfer.code, transfer.stderr).toBe(0)

    const balances = await json('merchants', 'balances', merchantId)
    expect(balances.balances[0]).toMatchObject({ currency: 'AUD', available: { minorCurrencyUnits: 1250, currency: 'AUD' } })

    const table = await payfac('merchants', 'balances', merchantId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/Available AUD\s+12\.50 AUD/)
    expect(table.stdout).toMatch(/Pending AUD\s+0\.00 AUD/)

    const csv = await payfac('merchants', 'balances', merchantId, '--csv')
    expect(csv.stdout.split('\n')[0]).toContain('available.AUD.minorCurrencyUnits')
  })

  it('uploads onboarding files (PNG, JPEG, PDF by content) and gets their details', async () => {
    const { merchantId } = ctx.emulator.ids
    const uploaded = await json('merchants', 'files', 'upload', merchantId, file('scan.png', png()), '--purpose', 'IdentityDocument', '--field', 'side=front')
    expect(uploaded).toMatchObject({
      merchantId,
      fileName: 'scan.png',
      contentType: 'image/png',
      size: 16,
      purpose: 'IdentityDocument',
      fields: { side: 'front' },
    })

    // The type comes from the content: a JPEG named .bin is still a JPEG.
    const jpg = await payfac('merchants', 'files', 'upload', merchantId, file('photo.bin', jpeg()))
    expect(jpg.code, jpg.stderr).toBe(0)
    expect(jpg.stdout).toContain('image/jpeg')

    const pdf = await json('merchants', 'files', 'upload', merchantId, file('licence.pdf', '%PDF-1.4\n%%EOF\n'))
    expect(pdf.contentType).toBe('application/pdf')

    const got = await json('merchants', 'files', 'get', merchantId, uploaded.fileId)
    expect(got.sha256).toBe(uploaded.sha256)
    const table = await payfac('merchants', 'files', 'get', merchantId, uploaded.fileId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('scan.png')
    expect(table.stdout).toContain('IdentityDocument')

    const missing = await payfac('merchants', 'files', 'get', merchantId, 'file_AAAAAAAAAAAAAAAA')
    expect(missing.code).toBe(5)
  })

  it('creates, lists, gets, replaces and deletes beneficial owners', async () => {
    const { merchantId } = ctx.emulator.ids
    const ada = await json(
      'merchants',
      'owners',
      'create',
      merchantId,
      '--given-name',
      'Ada',
      '--family-name',
      'Lovelace',
      '--role',
      'Director',
      '--ownership',
      '60%',
      '--date-of-birth',
      '1985-02-14',
      '--email',
      'ada@example.com',
      '--phone',
      '+61401234567',
      '--address',
      '1 Market St|Sydney|NSW|2000|AU',
    )
    expect(ada).toMatchObject({ givenName: 'Ada', familyName: 'Lovelace', role: 'Director', ownershipPercentage: 60, dateOfBirth: '1985-02-14' })

    const sam = await payfac('merchants', 'owners', 'create', merchantId, '--data', '{"givenName":"Sam","familyName":"Lee"}', '--ownership', '30')
    expect(sam.code, sam.stderr).toBe(0)
    expect(sam.stdout).toContain('Sam Lee')
    expect(sam.stdout).toContain('30 %')

    const listed = await json('merchants', 'owners', 'list', merchantId)
    expect(listed.map((o: { givenName: string }) => o.givenName).sort()).toEqual(['Ada', 'Sam'])
    const listTable = await payfac('merchants', 'owners', 'list', merchantId)
    expect(listTable.stdout).toContain('Ada Lovelace')
    expect(listTable.stdout).toContain('60 %')

    const got = await payfac('merchants', 'owners', 'get', merchantId, ada.ownerId)
    expect(got.code, got.stderr).toBe(0)
    expect(got.stdout).toContain('1 Market St, Sydney NSW 2000, AU')

    const replaced = await json('merchants', 'owners', 'replace', merchantId, ada.ownerId, '--given-name', 'Ada', '--family-name', 'King', '--ownership', '65')
    expect(replaced).toMatchObject({ ownerId: ada.ownerId, familyName: 'King', ownershipPercentage: 65, role: null, dateOfBirth: null })

    const tooMuch = await payfac('merchants', 'owners', 'replace', merchantId, ada.ownerId, '--given-name', 'Ada', '--family-name', 'King', '--ownership', '80')
    expect(tooMuch.code).toBe(6)

    const deleted = await payfac('merchants', 'owners', 'delete', merchantId, ada.ownerId)
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.stdout).toContain(ada.ownerId)
    expect((await payfac('merchants', 'owners', 'get', merchantId, ada.ownerId)).code).toBe(5)
  })

  it('lists the industries', async () => {
    const industries = await json('merchants', 'industries')
    expect(industries.length).toBeGreaterThan(5)
    const table = await payfac('merchants', 'industries')
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('Restaurants and cafes')
    expect(table.stdout).toContain('5812')
  })
})

describe('merchants: bad input exits 2 and sends nothing', () => {
  const recording = useRecordingServer()
  const { cli, server } = recording
  const M = 'mcht_ZqCNoNcm_22WeZ-j'

  const cases: RefusalCase[] = [
    ['a merchant id with the wrong prefix', () => ['merchants', 'get', 'mktp_ZqCNoNcm_22WeZ-j'], /mcht_/],
    ['a merchant without --industry', () => ['merchants', 'create', '--name', 'Acme'], /--industry/],
    ['an invalid ABN', () => ['merchants', 'create', '--name', 'Acme', '--industry', '5812', '--business-number', '51824753557'], /ABN/],
    ['an unknown currency', () => ['merchants', 'create', '--name', 'Acme', '--industry', '5812', '--currency', 'XYZ'], /currency/i],
    ['a website that is not http(s)', () => ['merchants', 'create', '--name', 'Acme', '--industry', '5812', '--website', 'ftp://acme.example'], /http/],
    ['an address with missing parts', () => ['merchants', 'create', '--name', 'Acme', '--industry', '5812', '--address', '1 Market St|Sydney'], /line1/],
    ['half a bank account on create', () => ['merchants', 'create', '--name', 'Acme', '--industry', '5812', '--bsb', '062-000'], /together/],
    ['a bad wallet domain', () => ['merchants', 'create', '--name', 'Acme', '--industry', '5812', '--wallet-domain', 'not a domain'], /domain/],
    ['a BSB of five digits', () => ['merchants', 'bank-accounts', 'add', M, '--bsb', '06200', '--account-number', '12345678', '--account-name', 'A'], /BSB/],
    [
      'an account number of four digits',
      () => ['merchants', 'bank-accounts', 'add', M, '--bsb', '062-000', '--account-number', '1234', '--account-name', 'A'],
      /account number/,
    ],
    [
      'an empty account name',
      () => ['merchants', 'bank-accounts', 'add', M, '--bsb', '062-000', '--account-number', '12345678', '--account-name', ' '],
      /account-name/,
    ],
    ['an account without --bsb', () => ['merchants', 'bank-accounts', 'add', M, '--account-number', '12345678', '--account-name', 'A'], /bsb/],
    ['set-primary without --bank-account', () => ['merchants', 'bank-accounts', 'set-primary', M], /bank-account/],
    ['an update that changes nothing', () => ['merchants', 'update-profile', M], /Nothing to update/],
    ['an update with a bad e-mail', () => ['merchants', 'update-profile', M, '--email', 'nobody'], /e-mail/],
    ['an update with --data not an object', () => ['merchants', 'update-profile', M, '--data', '"x"'], /JSON object/],
    ['a GIF upload', () => ['merchants', 'files', 'upload', M, file('anim.gif', 'GIF89a-not-allowed')], /not a JPEG, PNG or PDF/],
    ['a text file named .pdf', () => ['merchants', 'files', 'upload', M, file('fake.pdf', 'just text, not a PDF')], /checked by its content/],
    ['an empty file', () => ['merchants', 'files', 'upload', M, file('empty.png', '')], /empty/],
    [
      'a file over 10 MB',
      () => ['merchants', 'files', 'upload', M, file('huge.png', new Uint8Array([...PNG_HEAD, ...new Uint8Array(10 * 1024 * 1024)]))],
      /at most 10 MB/,
    ],
    ['a file that does not exist', () => ['merchants', 'files', 'upload', M, join(dir(), 'nope.pdf')], /Cannot read/],
    ['a folder instead of a file', () => ['merchants', 'files', 'upload', M, dir()], /not a file/],
    ['a form field without =', () => ['merchants', 'files', 'upload', M, file('ok.png', png()), '--field', 'side'], /name=value/],
    ['an owner without --family-name', () => ['merchants', 'owners', 'create', M, '--given-name', 'Ada'], /--family-name/],
    ['an ownership over 100', () => ['merchants', 'owners', 'create', M, '--given-name', 'Ada', '--family-name', 'L', '--ownership', '120'], /percentage/],
    ['an unknown owner role', () => ['merchants', 'owners', 'create', M, '--given-name', 'Ada', '--family-name', 'L', '--role', 'Boss'], /role/],
    [
      'an impossible date of birth',
      () => ['merchants', 'owners', 'create', M, '--given-name', 'Ada', '--family-name', 'L', '--date-of-birth', '1985-02-30'],
      /YYYY-MM-DD/,
    ],
    [
      'an owner phone not in E.164',
      () => ['merchants', 'owners', 'replace', M, 'owner_1', '--given-name', 'Ada', '--family-name', 'L', '--phone', '0401'],
      /E\.164/,
    ],
    ['a replace without the whole owner', () => ['merchants', 'owners', 'replace', M, 'owner_1', '--role', 'Director'], /--given-name/],
    ['an empty owner id', () => ['merchants', 'owners', 'get', M, ' '], /must not be empty/],
    ['balances of a marketplace id', () => ['merchants', 'balances', 'mktp_ZqCNoNcm_22WeZ-j'], /mcht_/],
  ]

  itRefusesBeforeSending(cases, recording)

  it('uploads as multipart with the file in the part named "file"', async () => {
    server.respond(() => ({ status: 200, body: { fileId: 'file_1' } }))
    const result = await cli('merchants', 'files', 'upload', M, file('part.png', png()), '--purpose', 'Licence')
    expect(result.code, result.stderr).toBe(0)
    const [request] = server.requests.splice(0)
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    expect(request?.body).toMatch(/name="file"; filename="part.png"/)
    expect(request?.body).toMatch(/Content-Type: image\/png/i)
    expect(request?.body).toMatch(/name="purpose"\r\n\r\nLicence/)
  })
})
