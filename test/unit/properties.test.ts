// Property-based tests (fast-check): money parsing and formatting, envelopes, identifiers and
// date ranges hold for every input of their kind, not only the examples of the other tests.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { UsageError } from '../../src/cli/errors/index.js'
import { checkPrefix } from '../../src/cli/flags/index.js'
import { checkDateRange, parseDateInput } from '../../src/cli/validate/dates.js'
import { isEnvelope, unwrap, wrap } from '../../src/client/envelope.js'
import { InvalidInputError } from '../../src/client/errors.js'
import { currencyExponent, formatMinorUnits, toMinorUnits } from '../../src/client/money.js'

const CURRENCIES = ['AUD', 'JPY', 'KWD', 'CLF', 'USD', 'NZD']
const currency = fc.constantFrom(...CURRENCIES)
const minorUnits = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })

describe('money', () => {
  it('formats and parses back to the same integer, for every currency and safe amount', () => {
    fc.assert(
      fc.property(minorUnits, currency, (minor, code) => {
        const text = formatMinorUnits(minor, code)
        const back = toMinorUnits(text, code)
        expect(back).toBe(minor)
        expect(Number.isSafeInteger(back)).toBe(true)
      }),
    )
  })

  it('formats with exactly the currency exponent of decimals, digits only', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), currency, (minor, code) => {
        const exponent = currencyExponent(code) as number
        const text = formatMinorUnits(minor, code)
        expect(text).toMatch(exponent === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${exponent}}$`))
        expect(text).not.toMatch(/e/i)
      }),
    )
  })

  it('parses a decimal string exactly, with no floating-point drift (digits moved, never multiplied)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), currency, (big, code) => {
        const exponent = currencyExponent(code) as number
        const digits = big.toString().padStart(exponent + 1, '0')
        const text = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
        expect(BigInt(toMinorUnits(text, code))).toBe(big)
      }),
    )
  })

  it('reads fewer decimals than the exponent as trailing zeros, and refuses a digit beyond it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), fc.constantFrom('AUD', 'KWD', 'CLF'), fc.integer({ min: 1, max: 9 }), (tenth, code, extra) => {
        const minor = tenth * 10
        const full = formatMinorUnits(minor, code)
        expect(toMinorUnits(full.slice(0, -1), code)).toBe(minor)
        expect(() => toMinorUnits(`${full}${extra}`, code)).toThrow(/decimal place/)
      }),
    )
  })

  it('refuses every string that is not a plain decimal number', () => {
    fc.assert(
      fc.property(fc.string(), currency, (text, code) => {
        fc.pre(!/^\s*\d+(\.\d+)?\s*$/.test(text))
        expect(() => toMinorUnits(text, code)).toThrow(InvalidInputError)
      }),
    )
  })
})

describe('envelopes', () => {
  const kind = fc.stringMatching(/^[A-Z][A-Za-z0-9]{0,30}$/)
  it('wrap then unwrap gives back the kind and the same value', () => {
    fc.assert(
      fc.property(kind, fc.jsonValue(), (k, value) => {
        const envelope = wrap(k, value)
        expect(isEnvelope(envelope)).toBe(true)
        expect(unwrap(envelope)).toEqual({ kind: k, value })
      }),
    )
  })

  it('refuses an object with any number of keys but one, and anything that is not an object', () => {
    fc.assert(
      fc.property(fc.dictionary(kind, fc.jsonValue()), (body) => {
        fc.pre(Object.keys(body).length !== 1)
        expect(() => unwrap(body)).toThrow(InvalidInputError)
      }),
    )
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue())), (body) => {
        expect(() => unwrap(body)).toThrow(InvalidInputError)
      }),
    )
  })
})

describe('identifiers', () => {
  const prefix = fc.constantFrom('ordr', 'tran', 'cust', 'mcht', 'ptagr', 'webhook')
  const body = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)
  it('accepts the prefix and any URL-safe base64 characters after it, of any length', () => {
    fc.assert(
      fc.property(prefix, body, (p, b) => {
        expect(checkPrefix(`${p}_${b}`, p, 'The id')).toBe(`${p}_${b}`)
      }),
    )
  })

  it('refuses any id with nothing after its prefix or a character that could change a path', () => {
    fc.assert(
      fc.property(prefix, fc.string({ maxLength: 40 }), (p, b) => {
        fc.pre(!/^[A-Za-z0-9_-]+$/.test(b.trim()) || b.trim() !== b)
        const id = `${p}_${b}`
        let accepted: string | undefined
        try {
          accepted = checkPrefix(id, p, 'The id')
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError)
          return
        }
        // Only surrounding blanks may be trimmed away; what is kept is a well-formed id.
        expect(accepted).toMatch(new RegExp(`^${p}_[A-Za-z0-9_-]+$`))
        expect(accepted).toBe(id.trim())
      }),
    )
  })
})

describe('dates and ranges', () => {
  // Date flags take 1970-01-01 to 2100-12-31.
  const day = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  it('refuses every day before 1970 or after 2100', () => {
    const outside = fc.oneof(
      fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('1969-12-31T00:00:00Z'), noInvalidDate: true }),
      fc.date({ min: new Date('2101-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }),
    )
    fc.assert(
      fc.property(outside, (d) => {
        expect(parseDateInput(d.toISOString().slice(0, 10))).toBeUndefined()
      }),
    )
  })
  it('accepts every real day written YYYY-MM-DD and reads it as that day', () => {
    fc.assert(
      fc.property(day, (d) => {
        const text = d.toISOString().slice(0, 10)
        const parsed = parseDateInput(text)
        expect(parsed?.epochMs).toBe(Date.parse(`${text}T00:00:00Z`))
      }),
    )
  })

  it('refuses a day past the end of its month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1970, max: 2100 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3 }), (year, month, over) => {
        const last = new Date(Date.UTC(year, month, 0)).getUTCDate()
        const day = last + over
        fc.pre(day <= 99)
        const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
        expect(parseDateInput(text)).toBeUndefined()
      }),
    )
  })

  it('a range passes exactly when its start is before its end', () => {
    fc.assert(
      fc.property(day, day, (a, b) => {
        const [from, to] = [a.toISOString(), b.toISOString()]
        if (a.getTime() < b.getTime()) expect(() => checkDateRange(from, to, ['--from', '--to'])).not.toThrow()
        else expect(() => checkDateRange(from, to, ['--from', '--to'])).toThrow(/is not before/)
      }),
    )
  })
})
