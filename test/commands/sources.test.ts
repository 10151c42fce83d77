// The sources topic against the emulator (each answer as JSON and as a table), and the checks
// that refuse bad input before anything is sent.
import { describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'
import { activeAgreement, newCustomer } from '../helpers/flows.js'

const { ctx, payfac, json } = useEmulator()

describe('sources against the emulator', () => {
  it('saves an open PayTo agreement for a customer, shows, lists, uses and deletes it', async () => {
    const customerId = await newCustomer(json)
    const agreement = await activeAgreement(json, 'open')
    const created = await json('sources', 'create', '--customer-id', customerId, '--agreement', agreement, '--usage-scope', 'ScopeOrganisation')
    expect(created).toMatchObject({ customerId, merchantId: ctx.emulator.ids.merchantId, usageScope: null })
    expect(created.paymentSourceId).toMatch(/^psrc_/)
    expect(created.sourceMethod.PayToMethodResp).toMatchObject({ accountIdentifierHint: '062-000 *****678' })

    const table = await payfac('sources', 'get', created.paymentSourceId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/Method\s+PayTo/)
    expect(table.stdout).toContain('062-000 *****678')
    expect(table.stdout).toContain(created.sourceMethod.PayToMethodResp.agreementUid)

    const listed = await json('sources', 'list', '--customer', customerId)
    expect(listed.map((s: { paymentSourceId: string }) => s.paymentSourceId)).toEqual([created.paymentSourceId])
    const listTable = await payfac('sources', 'list', '--customer', customerId)
    expect(listTable.stdout).toContain(created.paymentSourceId)
    expect(listTable.stdout).toContain('PayTo')

    const token = await json('tokens', 'create', '--saved-source', created.paymentSourceId, '--amount', '40', '--currency', 'AUD')
    expect(token).toMatchObject({ paymentSourceId: created.paymentSourceId, amount: { minorCurrencyUnits: 4000, currency: 'AUD' } })

    const again = await payfac('sources', 'create', '--customer-id', customerId, '--agreement', agreement)
    expect(again.code).toBe(6)

    const deleted = await json('sources', 'delete', created.paymentSourceId)
    expect(deleted.paymentSourceId).toBe(created.paymentSourceId)
    expect((await payfac('sources', 'get', created.paymentSourceId)).code).toBe(5)
  })

  it('saves a card from --data and shows it as brand and last four digits', async () => {
    const customerId = await newCustomer(json)
    const created = await json(
      'sources',
      'create',
      '--customer-id',
      customerId,
      '--data',
      JSON.stringify({
        CreateCardPaymentSource: { cardNumber: '4242424242424242', expiryMonth: 12, expiryYear: 2099, cvc: '123', cardholderName: 'Jo Citizen' },
      }),
    )
    expect(created.sourceMethod.CardMethodResp).toMatchObject({ last4: '4242' })
    const table = await payfac('sources', 'list', '--customer', customerId, '--source-id', created.paymentSourceId)
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/Card\s+Visa ending 4242/)
    const detail = await payfac('sources', 'get', created.paymentSourceId)
    expect(detail.stdout).toMatch(/Expiry\s+12\/2099/)
  })

  it('refuses a one-off agreement as a saved source (exit 6)', async () => {
    const customerId = await newCustomer(json)
    const oneOff = await activeAgreement(json, { oneOff: 100 })
    const result = await payfac('sources', 'create', '--customer-id', customerId, '--agreement', oneOff)
    expect(result.code).toBe(6)
    expect(result.stderr).toMatch(/agreement_not_open/)
  })

  it('lists blocked-card events and unblocks one', async () => {
    const customerId = await newCustomer(json)
    const now = '2026-11-01T00:00:00.000Z'
    ctx.emulator.app.store.blockedCards.set('cblk_TestBlockedCard01', {
      cardBlockId: 'cblk_TestBlockedCard01',
      merchantId: ctx.emulator.ids.merchantId,
      customerId,
      paymentSourceId: null,
      cardHint: 'Visa ending 0002',
      reason: 'Repeated declines',
      status: 'Blocked',
      createdAt: now,
      updatedAt: now,
    })
    const listed = await json('sources', 'blocked-cards', 'list', '--status', 'Blocked', '--customer', customerId)
    expect(listed.map((b: { cardBlockId: string }) => b.cardBlockId)).toEqual(['cblk_TestBlockedCard01'])
    const table = await payfac('sources', 'blocked-cards', 'list', '--customer', customerId)
    expect(table.code).toBe(0)
    expect(table.stdout).toContain('Visa ending 0002')

    const unblocked = await json('sources', 'blocked-cards', 'update', 'cblk_TestBlockedCard01', '--data', '{"UnblockCard":{"reason":"customer called"}}')
    expect(unblocked).toMatchObject({ status: 'Unblocked', reason: 'customer called' })
    const twice = await payfac('sources', 'blocked-cards', 'update', 'cblk_TestBlockedCard01', '--data', '{"UnblockCard":{}}')
    expect(twice.code).toBe(6)

    const none = await payfac('sources', 'blocked-cards', 'list', '--status', 'Blocked', '--customer', customerId)
    expect(none.code).toBe(0)
    expect(none.stderr).toContain('No records.')
  })
})

describe('bad input exits 2 and sends nothing', () => {
  const recording = useRecordingServer(() => ({ status: 200, body: { paymentSourceId: 'psrc_ZqCNoNcm_22WeZ-j' } }))
  const { cli, server } = recording
  const CUSTOMER = ['--customer-id', 'cust_ZqCNoNcm_22WeZ-j']

  const cases: RefusalCase[] = [
    ['a source id without its prefix', ['sources', 'get', 'ptkn_ZqCNoNcm_22WeZ-j'], /psrc_/],
    ['delete with a wrong prefix', ['sources', 'delete', 'cust_ZqCNoNcm_22WeZ-j'], /psrc_/],
    ['create without --agreement or --data', ['sources', 'create', ...CUSTOMER], /--agreement/],
    ['create without a customer', ['sources', 'create', '--agreement', 'ptagr_AAAAAAAAAAAAAAAA'], /customer/],
    [
      'an unknown usage scope',
      ['sources', 'create', ...CUSTOMER, '--agreement', 'ptagr_AAAAAAAAAAAAAAAA', '--usage-scope', 'ScopeEveryone'],
      /ScopeOrganisation/,
    ],
    [
      '--data together with --agreement',
      ['sources', 'create', ...CUSTOMER, '--agreement', 'ptagr_AAAAAAAAAAAAAAAA', '--data', '{}'],
      /--data|cannot also be provided/,
    ],
    [
      'a previous-generation field in a PayTo source',
      ['sources', 'create', ...CUSTOMER, '--data', '{"sourceMethod":{"PayToMethod":{"agreementToken":"t"}},"email":"a@b.co"}'],
      /emailAddress/,
    ],
    [
      'a PayTo source body the contract refuses',
      ['sources', 'create', ...CUSTOMER, '--data', '{"CreateSavedPaymentSource":{"sourceMethod":{"PayToMethod":{}}}}'],
      /agreementToken/,
    ],
    ['a customer filter without its prefix', ['sources', 'list', '--customer', 'ZqCNoNcm'], /cust_/],
    ['a blocked-card update without --data', ['sources', 'blocked-cards', 'update', 'cblk_A'], /data/],
    [
      'a blocked-card update that is not one envelope',
      ['sources', 'blocked-cards', 'update', 'cblk_A', '--data', '{"UnblockCard":{},"BlockCard":{}}'],
      /one action envelope/,
    ],
  ]

  itRefusesBeforeSending(cases, recording)

  it('sends CreateSavedPaymentSource with the customer in the Customer-Id header', async () => {
    const result = await cli('sources', 'create', ...CUSTOMER, '--agreement', 'ptagr_AAAAAAAAAAAAAAAA', '--usage-scope', 'ScopeOrganisation')
    expect(result.code, result.stderr).toBe(0)
    const [request] = server.requests
    expect(request?.headers['customer-id']).toBe('cust_ZqCNoNcm_22WeZ-j')
    expect(request?.json).toEqual({
      CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken: 'ptagr_AAAAAAAAAAAAAAAA' } }, usageScope: 'ScopeOrganisation' },
    })
  })

  it('warns about previous-generation names in a card body, whose shape the contract does not show, and sends it', async () => {
    const result = await cli('sources', 'create', ...CUSTOMER, '--data', '{"CreateCardPaymentSource":{"cardNumber":"4242424242424242","firstName":"Jo"}}')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/Warning: --data uses "firstName".*givenName/)
    expect(server.requests).toHaveLength(1)
  })
})
