import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../src/client/errors.js'
import { currencyExponent, formatMinorUnits, formatMoney, parseCurrency, parseMoney, toMinorUnits } from '../../src/client/money.js'

describe('toMinorUnits', () => {
  it.each([
    ['12.50', 'AUD', 1250],
    ['12.5', 'AUD', 1250],
    ['12', 'AUD', 1200],
    ['0.01', 'aud', 1],
    ['1250', 'JPY', 1250],
    ['1.234', 'KWD', 1234],
    ['1', 'KWD', 1000],
    ['007.10', 'NZD', 710],
    ['90071992547409.91', 'USD', 9007199254740991],
  ])('%s %s → %i', (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor)
  })

  it.each([
    ['12.505', 'AUD', /AUD has 2 decimal places/],
    ['12.5', 'JPY', /JPY has 0 decimal places/],
    ['1.2345', 'KWD', /KWD has 3 decimal places/],
    ['12.50', 'XYZ', /Unknown currency/],
    ['12.50', 'AU', /Unknown currency/],
    ['abc', 'AUD', /not an amount/],
    ['1e3', 'AUD', /not an amount/],
    ['12,50', 'AUD', /not an amount/],
    ['-5', 'AUD', /must not be negative/],
    ['0', 'AUD', /greater than zero/],
    ['90071992547409.92', 'USD', /too large/],
  ])('refuses %s %s', (amount, currency, message) => {
    expect(() => toMinorUnits(amount, currency)).toThrow(InvalidInputError)
    expect(() => toMinorUnits(amount, currency)).toThrow(message)
  })

  it('allows zero and negatives only when asked', () => {
    expect(toMinorUnits('0', 'AUD', { allowZero: true })).toBe(0)
    expect(toMinorUnits('-1.25', 'AUD', { allowNegative: true })).toBe(-125)
  })

  it('never goes through floating point (0.29 AUD is 29, not 28.999…)', () => {
    expect(toMinorUnits('0.29', 'AUD')).toBe(29)
    expect(toMinorUnits('1.15', 'AUD')).toBe(115)
  })
})

describe('formatMinorUnits', () => {
  it.each([
    [1250, 'AUD', '12.50'],
    [1, 'AUD', '0.01'],
    [0, 'AUD', '0.00'],
    [-125, 'AUD', '-1.25'],
    [1250, 'JPY', '1250'],
    [1234, 'KWD', '1.234'],
    [5, 'KWD', '0.005'],
    [1250, 'ZZZ', '12.50'],
  ])('%i %s → %s', (minor, currency, text) => {
    expect(formatMinorUnits(minor, currency)).toBe(text)
  })

  it('formats Money with its code', () => {
    expect(formatMoney({ minorCurrencyUnits: 1250, currency: 'aud' })).toBe('12.50 AUD')
  })

  it('round-trips through parseMoney', () => {
    expect(parseMoney('12.50', 'aud')).toEqual({ minorCurrencyUnits: 1250, currency: 'AUD' })
    expect(formatMinorUnits(toMinorUnits('99.99', 'NZD'), 'NZD')).toBe('99.99')
  })
})

describe('currencies', () => {
  it('knows exponents', () => {
    expect(currencyExponent('JPY')).toBe(0)
    expect(currencyExponent('AUD')).toBe(2)
    expect(currencyExponent('KWD')).toBe(3)
    expect(currencyExponent('XYZ')).toBeUndefined()
  })

  it('normalises codes', () => {
    expect(parseCurrency(' nzd ')).toBe('NZD')
    expect(() => parseCurrency('dollars')).toThrow(InvalidInputError)
  })
})
