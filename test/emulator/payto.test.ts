// PayTo agreements with a fake clock: activation, test values, identifiers, alias look-up.
import { describe, expect, it } from 'vitest'
import { isValidAbn, isValidAcn, parseBban } from '../../src/emulator/resources/payto.js'
import { KEYS, aud, oneOffAgreementBody, ok, openAgreementBody, testApp } from './helpers.js'

function statusOf(app: ReturnType<typeof testApp>, token: string): string {
  return ok(app.request('GET', `/payto/agreement?token=${token}`)).status
}

describe('PayTo agreement status over emulator time', () => {
  it('starts Pending and becomes Active 2 seconds later', () => {
    const app = testApp()
    const sent = ok(app.request('POST', '/payto/agreement', { body: oneOffAgreementBody(1000) }))
    expect(sent).toEqual({ token: expect.stringMatching(/^ptagr_[A-Za-z0-9_-]{16}$/), status: 'Pending' })
    app.clock.advance(1.999)
    expect(statusOf(app, sent.token)).toBe('Pending')
    app.clock.advance(0.001)
    expect(statusOf(app, sent.token)).toBe('Active')
  })

  it.each([
    [
      '11111111',
      [
        ['Pending', 1],
        ['Declined', 2],
        ['Declined', 3600],
      ],
    ],
    [
      '22222222',
      [
        ['Pending', 2],
        ['Pending', 86_400],
      ],
    ],
    [
      '33333333',
      [
        ['Active', 2],
        ['Active', 61],
        ['Suspended', 62],
      ],
    ],
    [
      '44444444',
      [
        ['Active', 2],
        ['Cancelled', 62],
      ],
    ],
    [
      '66666666',
      [
        ['Pending', 29],
        ['Active', 30],
      ],
    ],
  ] as const)('follows the script of test account %s', (account, steps) => {
    const app = testApp()
    const start = app.clock.now().getTime()
    const { token } = ok(app.request('POST', '/payto/agreement', { body: oneOffAgreementBody(1000, account) }))
    for (const [status, at] of steps) {
      app.clock.advance((start + at * 1000 - app.clock.now().getTime()) / 1000)
      expect(statusOf(app, token), `${account} at ${at}s`).toBe(status)
    }
  })

  it('scripts by customerName whatever the identifier', () => {
    const app = testApp()
    const body = { ...openAgreementBody(), customerName: '  Decline TEST ' }
    const { token } = ok(app.request('POST', '/payto/agreement', { body }))
    app.clock.advance(5)
    expect(statusOf(app, token)).toBe('Declined')
  })

  it('lets SetPayToAgreementStatus override the status and cancel scripted changes', () => {
    const app = testApp()
    const { token } = ok(app.request('POST', '/payto/agreement', { body: oneOffAgreementBody(1000, '33333333') }))
    const set = ok(app.request('POST', '/simulation', { body: { SetPayToAgreementStatus: { token, status: 'Active' } } }))
    expect(set.status).toBe('Active')
    app.clock.advance(3600)
    expect(statusOf(app, token)).toBe('Active')
    ok(app.request('POST', '/simulation', { body: { SetPayToAgreementStatus: { token, status: 'Suspended' } } }))
    expect(statusOf(app, token)).toBe('Suspended')
    expect(app.request('POST', '/simulation', { body: { SetPayToAgreementStatus: { token, status: 'Sleeping' } } }).status).toBe(400)
  })

  it('shows the agreement with a masked identifier', () => {
    const app = testApp()
    const { token } = ok(app.request('POST', '/payto/agreement', { body: oneOffAgreementBody(2500) }))
    const agreement = ok(app.request('GET', `/payto/agreement?token=${token}`))
    expect(agreement).toMatchObject({
      token,
      agreementType: 'OneOff',
      amount: aud(2500),
      accountIdentifierHint: '062-000 *****678',
      customerName: 'Jane Citizen',
      purpose: 'Goods',
    })
    expect(agreement.agreementUid).toMatch(/^[0-9a-f-]{36}$/)
    expect(JSON.stringify(agreement)).not.toContain('12345678')
  })

  it('answers 400 without a token and 404 for an unknown or another merchant’s agreement', () => {
    const app = testApp()
    expect(app.request('GET', '/payto/agreement').status).toBe(400)
    expect(app.request('GET', '/payto/agreement?token=ptagr_nothing0000000000').status).toBe(404)
    const { token } = ok(app.request('POST', '/payto/agreement', { body: oneOffAgreementBody(1000) }))
    const asSub = app.request('GET', `/payto/agreement?token=${token}`, {
      credential: KEYS.marketplaceApiKey,
      headers: { 'Merchant-Id': 'mcht_LocalSubMerch001' },
    })
    expect(asSub.status).toBe(404)
  })
})

describe('PayTo identifiers', () => {
  it('reads a BBAN with or without separators', () => {
    expect(parseBban('062-000 12345678')).toEqual({ bsb: '062000', account: '12345678' })
    expect(parseBban('06200012345678')).toEqual({ bsb: '062000', account: '12345678' })
    expect(parseBban('062 000 12345')).toEqual({ bsb: '062000', account: '12345' })
    expect(parseBban('062000123456789')).toEqual({ bsb: '062000', account: '123456789' })
    for (const bad of ['0620001234', '0620001234567890', '062-000 1234x678', '-06200012345678', '']) expect(parseBban(bad), bad).toBeUndefined()
  })

  it('checks ABN and ACN check digits', () => {
    expect(isValidAbn('51824753556')).toBe(true)
    expect(isValidAbn('51824753557')).toBe(false)
    expect(isValidAcn('000000019')).toBe(true)
    expect(isValidAcn('000000018')).toBe(false)
  })

  const send = (app: ReturnType<typeof testApp>, customerAccIdentifier: unknown) =>
    app.request('POST', '/payto/agreement', { body: { ...openAgreementBody(), customerAccIdentifier } })

  it.each([
    [{ Alias: { aliasType: 'Phone', value: '+61412345678' } }, 200],
    [{ Alias: { aliasType: 'Phone', value: '+61-412345678' } }, 200],
    [{ Alias: { aliasType: 'Phone', value: '0412345678' } }, 200],
    [{ Alias: { aliasType: 'Phone', value: '0412 34 56' } }, 400],
    [{ Alias: { aliasType: 'Email', value: 'jane@example.com' } }, 200],
    [{ Alias: { aliasType: 'Email', value: 'jane.example.com' } }, 400],
    [{ Alias: { aliasType: 'ABN', value: '51 824 753 556' } }, 200],
    [{ Alias: { aliasType: 'ABN', value: '51824753557' } }, 400],
    [{ Alias: { aliasType: 'ACN', value: '004 085 616' } }, 200],
    [{ Alias: { aliasType: 'ARBN', value: '000000018' } }, 400],
    [{ Alias: { aliasType: 'ARSN', value: '123456780' } }, 200],
    [{ Alias: { aliasType: 'OrgId', value: 'ACME-01' } }, 200],
    [{ Alias: { aliasType: 'Fax', value: '123' } }, 400],
    [{ Bban: { value: '062-000 12345678' } }, 200],
    [{ Bban: { value: '062-000 1234' } }, 400],
    [{ Bban: { value: '062-000 12345678' }, Alias: { aliasType: 'Phone', value: '+61412345678' } }, 400],
    [{}, 400],
  ])('accepts or refuses %j', (identifier, status) => {
    const response = send(testApp(), identifier)
    expect(response.status, JSON.stringify(response.body)).toBe(status)
  })

  it('refuses terms that are both or neither one-off and open, and non-AUD amounts', () => {
    const app = testApp()
    const base = oneOffAgreementBody(1000)
    expect(app.request('POST', '/payto/agreement', { body: { ...base, terms: {} } }).status).toBe(400)
    const both = { AgreementRequestTermsOneOff: { amount: { amount: 1, currency: 'AUD' } }, AgreementRequestTermsOpen: {} }
    expect(app.request('POST', '/payto/agreement', { body: { ...base, terms: both } }).status).toBe(400)
    const nzd = { AgreementRequestTermsOneOff: { amount: { amount: 1000, currency: 'NZD' } } }
    expect(app.request('POST', '/payto/agreement', { body: { ...base, terms: nzd } }).status).toBe(422)
  })

  it('looks up aliases: a fixed display name, 404 for the documented unknown ones', () => {
    const app = testApp()
    const first = ok(app.request('GET', '/payto/alias?aliasType=Phone&value=%2B61412345678'))
    expect(first).toMatchObject({ aliasType: 'Phone', value: '+61412345678', displayName: expect.stringMatching(/^\w+ \w+$/) })
    expect(ok(testApp().request('GET', '/payto/alias?aliasType=Phone&value=%2B61412345678')).displayName).toBe(first.displayName)
    expect(ok(app.request('GET', '/payto/alias?aliasType=ABN&value=51824753556')).displayName).toMatch(/Pty Ltd$/)
    expect(app.request('GET', '/payto/alias?aliasType=Phone&value=%2B61491570006').status).toBe(404)
    expect(app.request('GET', '/payto/alias?aliasType=Email&value=nobody@example.com').status).toBe(404)
    expect(app.request('GET', '/payto/alias?aliasType=Phone').status).toBe(400)
    expect(send(app, { Alias: { aliasType: 'Phone', value: '0491 570 006' } }).status).toBe(422)
  })

  it('lets a public key send and read agreements', () => {
    const app = testApp()
    const { token } = ok(app.request('POST', '/payto/agreement', { credential: KEYS.merchantPublicKey, body: oneOffAgreementBody(1000) }))
    expect(ok(app.request('GET', `/payto/agreement?token=${token}`, { credential: KEYS.merchantPublicKey })).token).toBe(token)
  })
})
