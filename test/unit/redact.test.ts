import { describe, expect, it } from 'vitest'
import { REDACTED, isSensitiveKey, redactBodyText, redactHeaders, redactJson, redactSecrets, redactUrl } from '../../src/client/redact.js'

describe('redactHeaders', () => {
  it('hides the bearer credential but keeps the scheme', () => {
    expect(redactHeaders({ Authorization: 'Bearer sandbox_sk_abc', Accept: 'application/json' })).toEqual({
      Authorization: `Bearer ${REDACTED}`,
      Accept: 'application/json',
    })
  })

  it('hides cookies and secret-named headers, keeps context headers', () => {
    const out = redactHeaders({ cookie: 'a=b', 'x-api-key': 'k', 'merchant-id': 'mcht_1', 'set-cookie': ['a', 'b'] })
    expect(out).toEqual({ cookie: REDACTED, 'x-api-key': REDACTED, 'merchant-id': 'mcht_1', 'set-cookie': REDACTED })
  })
})

describe('redactJson', () => {
  it('hides tokens, secrets, passwords, credentials and API keys at any depth', () => {
    const input = {
      customToken: 'jwt',
      paymentTokenId: 'ptkn_1',
      agreementToken: 'agr',
      secret: 'whsec',
      nested: [{ password: 'p', apiKey: 'k', api_key: 'k2', credential: 'c', keep: 'visible' }],
    }
    expect(redactJson(input)).toEqual({
      customToken: REDACTED,
      paymentTokenId: REDACTED,
      agreementToken: REDACTED,
      secret: REDACTED,
      nested: [{ password: REDACTED, apiKey: REDACTED, api_key: REDACTED, credential: REDACTED, keep: 'visible' }],
    })
  })

  it('keeps plain identifiers and amounts', () => {
    const input = { orderId: 'ordr_1', customerId: 'cust_1', amount: { minorCurrencyUnits: 100, currency: 'AUD' } }
    expect(redactJson(input)).toEqual(input)
  })

  it('hides bank account identifiers: Bban.value, Alias.value, account numbers, BSBs', () => {
    const body = {
      customerName: 'Ada',
      customerAccIdentifier: { Bban: { value: '062000 12345678' } },
      bankAccount: { bsb: '062-000', accountNumber: '12345678', accountName: 'Ada' },
      other: { Alias: { aliasType: 'Phone', value: '+61400000000' } },
    }
    expect(redactJson(body)).toEqual({
      customerName: 'Ada',
      customerAccIdentifier: { Bban: { value: REDACTED } },
      bankAccount: { bsb: REDACTED, accountNumber: REDACTED, accountName: 'Ada' },
      other: { Alias: { aliasType: 'Phone', value: REDACTED } },
    })
  })

  it('walks envelope keys that merely contain "Token" instead of hiding them whole', () => {
    const answer = { PayToToken: { paymentTokenId: 'ptkn_1', amount: { minorCurrencyUnits: 5, currency: 'AUD' }, accountIdentifierHint: 'xxx678' } }
    expect(redactJson(answer)).toEqual({
      PayToToken: { paymentTokenId: REDACTED, amount: { minorCurrencyUnits: 5, currency: 'AUD' }, accountIdentifierHint: 'xxx678' },
    })
  })

  it('hides a whole object under a secret-named camelCase key', () => {
    expect(redactJson({ credentials: { a: 1, b: 'x' } })).toEqual({ credentials: REDACTED })
  })

  it('does not touch the value of a "value" key outside Bban/Alias', () => {
    expect(redactJson({ metadata: { value: 'kept' } })).toEqual({ metadata: { value: 'kept' } })
  })

  it('knows which keys are sensitive', () => {
    expect(isSensitiveKey('paymentTokenId')).toBe(true)
    expect(isSensitiveKey('serviceToken')).toBe(true)
    expect(isSensitiveKey('accountIdentifierHint')).toBe(false)
    expect(isSensitiveKey('value', 'Bban')).toBe(true)
    expect(isSensitiveKey('orderId')).toBe(false)
  })
})

describe('redactUrl', () => {
  it('hides the token query parameter and keeps the rest', () => {
    expect(redactUrl('https://x.test/payto/agreement?token=abc123&limit=5')).toBe(`https://x.test/payto/agreement?token=${REDACTED}&limit=5`)
  })

  it('leaves a URL without a query alone', () => {
    expect(redactUrl('https://x.test/orders/ordr_1')).toBe('https://x.test/orders/ordr_1')
  })
})

describe('redactSecrets and redactBodyText', () => {
  it('replaces every occurrence of a known secret, raw or URL-encoded', () => {
    expect(redactSecrets('a sk/1+2 b sk%2F1%2B2', ['sk/1+2'])).toBe(`a ${REDACTED} b ${REDACTED}`)
  })

  it('ignores empty or very short secrets rather than shredding the text', () => {
    expect(redactSecrets('abc', ['', 'a'])).toBe('abc')
  })

  it('redacts JSON bodies by key and text bodies by known secret, and truncates', () => {
    expect(redactBodyText('{"customToken":"t","x":1}')).toBe(`{"customToken":"${REDACTED}","x":1}`)
    expect(redactBodyText('<html>key sandbox_sk_1234</html>', ['sandbox_sk_1234'])).toBe(`<html>key ${REDACTED}</html>`)
    expect(redactBodyText('x'.repeat(50), [], 10)).toBe(`${'x'.repeat(10)}… (40 more characters)`)
  })
})
