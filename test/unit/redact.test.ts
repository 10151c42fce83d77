import { describe, expect, it } from 'vitest'
import { REDACTED, isSensitiveKey, redactBodyText, redactHeaders, redactJson, redactSecrets, redactText, redactUrl } from '../../src/client/redact.js'

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

  it('hides bank account identifiers, keeping a hint of account numbers: Bban.value, Alias.value, account numbers, BSBs', () => {
    const body = {
      customerName: 'Ada',
      customerAccIdentifier: { Bban: { value: '062000 12345678' } },
      bankAccount: { bsb: '062-000', accountNumber: '12345678', accountName: 'Ada' },
      other: { Alias: { aliasType: 'Phone', value: '+61400000000' } },
    }
    expect(redactJson(body)).toEqual({
      customerName: 'Ada',
      customerAccIdentifier: { Bban: { value: '***678' } },
      bankAccount: { bsb: REDACTED, accountNumber: '***678', accountName: 'Ada' },
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

describe('cards, URL passwords and free text', () => {
  it('keeps the last four digits of a card number and hides the security code whole', () => {
    const body = { CreateCardPaymentSource: { cardNumber: '4111 1111 1111 1111', cvc: '123', expiryMonth: 12, cardholderName: 'Ada' } }
    expect(redactJson(body)).toEqual({ CreateCardPaymentSource: { cardNumber: '****1111', cvc: REDACTED, expiryMonth: 12, cardholderName: 'Ada' } })
    expect(redactJson({ card: { pan: 4111111111111111, cvv: 999, securityCode: '0000' } })).toEqual({
      card: { pan: '****1111', cvv: REDACTED, securityCode: REDACTED },
    })
  })

  it('hides the password of a URL and keeps the user and host', () => {
    expect(redactUrl('https://ann:s3cret@api.example.com/orders?limit=5')).toBe(`https://ann:${REDACTED}@api.example.com/orders?limit=5`)
    expect(redactText('cannot reach http://u:p%40ss@h.test:8080 now')).toBe(`cannot reach http://u:${REDACTED}@h.test:8080 now`)
  })

  it('masks card numbers in free text (Luhn-valid runs only) and leaves other numbers alone', () => {
    expect(redactText('card 4111111111111111 declined')).toBe('card ****1111 declined')
    expect(redactText('card 4111-1111-1111-1111 declined')).toBe('card ****1111 declined')
    expect(redactText('order 1234567890123456 and amount 1250')).toBe('order 1234567890123456 and amount 1250')
    expect(redactSecrets('{"detail":"5555555555554444 refused"}', [])).toBe('{"detail":"****4444 refused"}')
  })
})
