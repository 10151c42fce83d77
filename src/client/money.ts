// Money is exact: integers in minor units on the wire, decimal strings for people.
// Nothing here uses floating point; conversion is done on the digits of the string.
import { InvalidInputError } from './errors.js'

export interface Money {
  minorCurrencyUnits: number
  currency: string
}

// ISO 4217 minor-unit exponents. Codes not listed in the exceptions use 2.
const EXPONENT_0 = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'
const EXPONENT_3 = 'BHD IQD JOD KWD LYD OMR TND'
const EXPONENT_4 = 'CLF UYW'
const EXPONENT_2 =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
  'CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS ' +
  'GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL ' +
  'MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK ' +
  'PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS ' +
  'TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD YER ZAR ZMW ZWG'

const EXPONENTS: ReadonlyMap<string, number> = new Map([
  ...EXPONENT_0.split(' ').map((c) => [c, 0] as const),
  ...EXPONENT_2.split(' ').map((c) => [c, 2] as const),
  ...EXPONENT_3.split(' ').map((c) => [c, 3] as const),
  ...EXPONENT_4.split(' ').map((c) => [c, 4] as const),
])

/** The number of minor-unit digits of an ISO 4217 currency, or undefined when the code is unknown. */
export function currencyExponent(currency: string): number | undefined {
  return EXPONENTS.get(currency.toUpperCase())
}

/** Every ISO 4217 code payfac knows, sorted (what `--currency` accepts). */
export function currencyCodes(): string[] {
  return [...EXPONENTS.keys()].sort()
}

export function isKnownCurrency(currency: string): boolean {
  return EXPONENTS.has(currency.toUpperCase())
}

/** Normalises a currency code, refusing unknown ones. */
export function parseCurrency(input: string): string {
  const code = input.trim().toUpperCase()
  if (!/^[A-Z]{3}$/.test(code) || !EXPONENTS.has(code)) {
    throw new InvalidInputError(`Unknown currency "${input}"`, 'Use an ISO 4217 code such as AUD, NZD, USD or JPY.')
  }
  return code
}

/**
 * Converts a decimal amount in major units ("12.50") to integer minor units (1250) by the
 * currency's exponent. Refuses more decimal places than the currency has, signs, exponents,
 * and anything that is not a plain decimal number.
 */
export function toMinorUnits(amount: string, currency: string, options: { allowNegative?: boolean; allowZero?: boolean } = {}): number {
  const code = parseCurrency(currency)
  const exponent = EXPONENTS.get(code) as number
  const text = amount.trim()
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text)
  if (!match) {
    throw new InvalidInputError(`"${amount}" is not an amount`, `Write the amount in major units with a dot, such as 12.50.`)
  }
  const [, sign, whole, fraction = ''] = match
  if (sign && !options.allowNegative) {
    throw new InvalidInputError(`The amount must not be negative (got "${amount}")`)
  }
  if (fraction.length > exponent) {
    const example = exponent === 0 ? '1250' : `12.${'5'.padEnd(exponent, '0')}`
    throw new InvalidInputError(
      `${code} has ${exponent} decimal place${exponent === 1 ? '' : 's'}; "${amount}" has ${fraction.length}`,
      `Write it with at most ${exponent} decimal place${exponent === 1 ? '' : 's'}, such as ${example}.`,
    )
  }
  const digits = (whole + fraction.padEnd(exponent, '0')).replace(/^0+(?=\d)/, '')
  const minor = BigInt(digits)
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InvalidInputError(`The amount "${amount}" is too large`)
  }
  const value = Number(minor) * (sign ? -1 : 1)
  if (value === 0 && !options.allowZero) {
    throw new InvalidInputError(`The amount must be greater than zero (got "${amount}")`)
  }
  return value
}

/** Money from a decimal amount and a currency code. */
export function parseMoney(amount: string, currency: string): Money {
  return { minorCurrencyUnits: toMinorUnits(amount, currency), currency: parseCurrency(currency) }
}

/** Integer minor units as a decimal string in major units: (1250, "AUD") → "12.50". */
export function formatMinorUnits(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) return String(minor)
  const exponent = currencyExponent(currency) ?? 2
  const negative = minor < 0
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0')
  const whole = exponent === 0 ? digits : digits.slice(0, digits.length - exponent)
  const fraction = exponent === 0 ? '' : `.${digits.slice(digits.length - exponent)}`
  return `${negative ? '-' : ''}${whole}${fraction}`
}

/** "12.50 AUD". */
export function formatMoney(money: Money): string {
  return `${formatMinorUnits(money.minorCurrencyUnits, money.currency)} ${money.currency.toUpperCase()}`
}
