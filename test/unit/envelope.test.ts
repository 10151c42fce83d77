import { describe, expect, it } from 'vitest'
import { EnvelopeError, isEnvelope, unwrap, unwrapOneOf, wrap } from '../../src/client/envelope.js'
import { InvalidInputError } from '../../src/client/errors.js'

describe('envelopes', () => {
  it('wraps a value under its kind', () => {
    expect(wrap('CreateRefund', { refundAmount: 500 })).toEqual({ CreateRefund: { refundAmount: 500 } })
    expect(wrap('AgreementRequestTermsOpen', {})).toEqual({ AgreementRequestTermsOpen: {} })
  })

  it('refuses an empty kind', () => {
    expect(() => wrap('', {})).toThrow(EnvelopeError)
  })

  it('unwraps a single-key body into kind and value', () => {
    expect(unwrap({ PayOrderComplete: { transactionId: 'tran_1' } })).toEqual({ kind: 'PayOrderComplete', value: { transactionId: 'tran_1' } })
  })

  it('round-trips wrap and unwrap', () => {
    const value = { paymentTokenId: 'ptkn_x' }
    expect(unwrap(wrap('PayByPayTo', value))).toEqual({ kind: 'PayByPayTo', value })
  })

  it.each([
    [{}, /no keys/],
    [{ A: 1, B: 2 }, /2 keys \(A, B\)/],
    [[], /an array/],
    [null, /null/],
    ['text', /a string/],
    [undefined, /a undefined/],
  ])('refuses %j with a clear message', (body, message) => {
    expect(() => unwrap(body)).toThrow(message)
  })

  it('is an InvalidInputError, so a bad envelope from a caller is a usage problem', () => {
    expect(() => unwrap({})).toThrow(InvalidInputError)
  })

  it('unwrapOneOf accepts only the listed kinds', () => {
    expect(unwrapOneOf({ PayToToken: { a: 1 } }, ['PayToToken', 'SavedPaymentSourceToken']).kind).toBe('PayToToken')
    expect(() => unwrapOneOf({ Other: {} }, ['PayToToken'])).toThrow('Expected one of PayToToken, got "Other"')
  })

  it('isEnvelope tells single-key objects apart', () => {
    expect(isEnvelope({ A: {} })).toBe(true)
    expect(isEnvelope({ A: {}, B: {} })).toBe(false)
    expect(isEnvelope(['A'])).toBe(false)
  })
})
