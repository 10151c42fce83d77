// The tokens topic against the emulator (each answer as JSON and as a table), and the checks
// that refuse bad input before anything is sent.
import { describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'
import { activeAgreement } from '../helpers/flows.js'

const { ctx, payfac, json } = useEmulator()

describe('tokens against the emulator', () => {
  it('makes a PayTo token and shows it, as JSON and as a table', async () => {
    const agreement = await activeAgreement(json, { oneOff: 1250 })
    const made = await payfac('tokens', 'create', '--payto', '--agreement', agreement, '--amount', '12.50', '--currency', 'AUD')
    expect(made.code, made.stderr).toBe(0)
    expect(made.stdout).toMatch(/Payment token\s+ptkn_/)
    expect(made.stdout).toContain('12.50 AUD')
    expect(made.stdout).toContain('062-000 *****678')
    expect(made.stdout).toMatch(/Agreement\s+[0-9a-f-]{36}/)
    const paymentTokenId = /ptkn_[\w-]+/.exec(made.stdout)?.[0] as string

    const got = await json('tokens', 'get', paymentTokenId)
    expect(got).toMatchObject({ paymentTokenId, amount: { minorCurrencyUnits: 1250, currency: 'AUD' }, payType: 'payinfull', method: 'PayTo' })
    const table = await payfac('tokens', 'get', paymentTokenId)
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/Status\s+Unused/)
    expect(table.stdout).toContain('12.50 AUD')
  })

  it('prints the bare PayToToken with --json', async () => {
    const agreement = await activeAgreement(json, { oneOff: 500 })
    const token = await json('tokens', 'create', '--payto', '--agreement', agreement, '--amount', '5', '--currency', 'AUD')
    expect(token).toEqual({
      paymentTokenId: expect.stringMatching(/^ptkn_/),
      amount: { minorCurrencyUnits: 500, currency: 'AUD' },
      surchargeAmount: 0,
      agreementUid: expect.any(String),
      accountIdentifierHint: '062-000 *****678',
    })
  })

  it('passes the service refusal of a one-off agreement for another amount (exit 6)', async () => {
    const agreement = await activeAgreement(json, { oneOff: 1000 })
    const result = await payfac('tokens', 'create', '--payto', '--agreement', agreement, '--amount', '9.99', '--currency', 'AUD')
    expect(result.code).toBe(6)
    expect(result.stderr).toMatch(/amount_mismatch/)
  })

  it('sends any variant with --data (an Apple Pay token is refused by the emulator)', async () => {
    const result = await payfac('tokens', 'create', '--data', '{"CreateApplePayToken":{"paymentData":"x"}}')
    expect(result.code).toBe(6)
    expect(result.stderr).toMatch(/wallet_not_supported/)
  })

  it('quotes the surcharge of a card and of PayTo', async () => {
    const card = await json('tokens', 'surcharge-quote', ctx.emulator.ids.merchantId, '--amount', '100', '--currency', 'AUD', '--payment-method', 'Card')
    expect(card).toMatchObject({ paymentMethodType: 'Card', amount: { minorCurrencyUnits: 10000, currency: 'AUD' }, surchargeAmount: 110 })
    const table = await payfac(
      'tokens',
      'surcharge-quote',
      ctx.emulator.ids.merchantId,
      '--data',
      '{"amount":{"minorCurrencyUnits":10000,"currency":"AUD"},"paymentMethodType":"PayTo"}',
    )
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/Surcharge\s+0\.00 AUD/)
    expect(table.stdout).toMatch(/Total\s+100\.00 AUD/)
  })
})

describe('bad input exits 2 and sends nothing', () => {
  const recording = useRecordingServer(() => ({
    status: 200,
    body: { PayToToken: { paymentTokenId: 'ptkn_AAAAAAAAAAAAAAAA', amount: { minorCurrencyUnits: 1250, currency: 'AUD' } } },
  }))
  const { cli, server } = recording
  const MONEY = ['--amount', '12.50', '--currency', 'AUD']

  const cases: RefusalCase[] = [
    ['no way to make the token', ['tokens', 'create', ...MONEY], /Choose one way.*none was given/],
    [
      'two ways at once',
      ['tokens', 'create', '--payto', '--agreement', 'ptagr_AAAAAAAAAAAAAAAA', '--saved-source', 'psrc_AAAAAAAAAAAAAAAA', ...MONEY],
      /got --payto and --saved-source/,
    ],
    ['--payto without --agreement', ['tokens', 'create', '--payto', ...MONEY], /--agreement/],
    ['--payto without an amount', ['tokens', 'create', '--payto', '--agreement', 'ptagr_AAAAAAAAAAAAAAAA'], /--amount and --currency/],
    [
      '--agreement with a saved source',
      ['tokens', 'create', '--saved-source', 'psrc_AAAAAAAAAAAAAAAA', '--agreement', 'ptagr_AAAAAAAAAAAAAAAA', ...MONEY],
      /--agreement goes with --payto/,
    ],
    ['a saved source without its prefix', ['tokens', 'create', '--saved-source', 'src_A', ...MONEY], /psrc_/],
    [
      'too many decimals',
      ['tokens', 'create', '--payto', '--agreement', 'ptagr_AAAAAAAAAAAAAAAA', '--amount', '12.505', '--currency', 'AUD'],
      /decimal places/,
    ],
    ['an unknown currency', ['tokens', 'create', '--payto', '--agreement', 'ptagr_AAAAAAAAAAAAAAAA', '--amount', '1', '--currency', 'ABC'], /Unknown currency/],
    ['--data with --payto', ['tokens', 'create', '--payto', '--data', '{}'], /--data|cannot also be provided/],
    [
      '--data that is not one envelope',
      ['tokens', 'create', '--data', '{"agreementToken":"t","amount":{"minorCurrencyUnits":1,"currency":"AUD"}}'],
      /one token envelope/,
    ],
    ['an unknown token variant', ['tokens', 'create', '--data', '{"CreateMagicToken":{}}'], /CreatePayToToken/],
    [
      'a PayTo token body the contract refuses',
      ['tokens', 'create', '--data', '{"CreatePayToToken":{"agreementToken":"t","amount":{"minorCurrencyUnits":1.5,"currency":"AUD"}}}'],
      /minorCurrencyUnits/,
    ],
    [
      'a previous-generation field in a PayTo token',
      ['tokens', 'create', '--data', '{"CreatePayToToken":{"agreementToken":"t","platform":"x","amount":{"minorCurrencyUnits":1,"currency":"AUD"}}}'],
      /marketplace/,
    ],
    ['a token id without its prefix', ['tokens', 'get', 'psrc_AAAAAAAAAAAAAAAA'], /ptkn_/],
    ['a surcharge quote without a method', ['tokens', 'surcharge-quote', 'mcht_AAAAAAAAAAAAAAAA', ...MONEY], /--payment-method/],
    ['a surcharge quote for an unknown method', ['tokens', 'surcharge-quote', 'mcht_AAAAAAAAAAAAAAAA', ...MONEY, '--payment-method', 'Cash'], /PayTo|Card/],
    ['a surcharge quote for a non-merchant', ['tokens', 'surcharge-quote', 'cust_AAAAAAAAAAAAAAAA', ...MONEY, '--payment-method', 'Card'], /mcht_/],
  ]

  itRefusesBeforeSending(cases, recording)

  it('sends CreatePayToToken and CreateSavedPaymentSourceToken as the contract and field notes show them', async () => {
    expect((await cli('tokens', 'create', '--payto', '--agreement', 'ptagr_AAAAAAAAAAAAAAAA', ...MONEY)).code).toBe(0)
    server.respond(() => ({ body: { SavedPaymentSourceToken: { paymentTokenId: 'ptkn_BBBBBBBBBBBBBBBB' } } }))
    const saved = await cli('tokens', 'create', '--saved-source', 'psrc_AAAAAAAAAAAAAAAA', ...MONEY, '--json')
    expect(saved.code, saved.stderr).toBe(0)
    expect(JSON.parse(saved.stdout)).toEqual({ paymentTokenId: 'ptkn_BBBBBBBBBBBBBBBB' })
    expect(server.requests.map((r) => r.json)).toEqual([
      { CreatePayToToken: { amount: { minorCurrencyUnits: 1250, currency: 'AUD' }, agreementToken: 'ptagr_AAAAAAAAAAAAAAAA' } },
      { CreateSavedPaymentSourceToken: { paymentSourceId: 'psrc_AAAAAAAAAAAAAAAA', amount: { minorCurrencyUnits: 1250, currency: 'AUD' } } },
    ])
  })
})
