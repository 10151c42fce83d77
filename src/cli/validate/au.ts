// Australian bank and business identifiers, checked before anything is sent.
import { UsageError } from '../errors/index.js'

/** BSB: six digits, written `062000`, `062-000` or `062 000`. Returns the six digits. */
export function checkBsb(input: string, flag: string): string {
  const digits = input.replace(/[\s-]/g, '')
  if (!/^\d{6}$/.test(digits)) throw new UsageError(`${flag}: a BSB is six digits, such as 062-000 (got "${input}")`)
  return digits
}

/** Account number: 5 to 9 digits. */
export function checkAccountNumber(input: string, flag: string): string {
  const digits = input.replace(/[\s-]/g, '')
  if (!/^\d{5,9}$/.test(digits)) throw new UsageError(`${flag}: an account number is 5 to 9 digits (got "${input}")`)
  return digits
}

/**
 * A BBAN (BSB and account number together), with or without separators:
 * `062-000 12345678`, `062000 12345678` or `06200012345678`. Returns `{bsb, account, value}`
 * where value is the form sent to the service (`062000 12345678`).
 */
export function checkBban(input: string, flag: string) {
  const text = input.trim()
  const split = /^(\d{3}[-\s]?\d{3})[\s-]+(\d[\d\s-]*)$/.exec(text)
  const joined = /^(\d{6})(\d{5,9})$/.exec(text)
  const parts = split ?? joined
  if (!parts) {
    throw new UsageError(`${flag} takes a BSB and an account number, such as "062-000 12345678" (got "${input}")`)
  }
  const bsb = checkBsb(parts[1] as string, flag)
  const account = checkAccountNumber(parts[2] as string, flag)
  return { bsb, account, value: `${bsb} ${account}` }
}

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]

/** ABN: 11 digits whose weighted sum (first digit less one) is a multiple of 89. */
export function isValidAbn(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false
  const sum = [...digits].reduce((acc, d, i) => acc + (Number(d) - (i === 0 ? 1 : 0)) * (ABN_WEIGHTS[i] as number), 0)
  return sum % 89 === 0
}

/** ACN (and ARBN, ARSN, which use the same rule): 9 digits, the last a check digit. */
export function isValidAcn(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false
  const sum = [...digits.slice(0, 8)].reduce((acc, d, i) => acc + Number(d) * (8 - i), 0)
  return (10 - (sum % 10)) % 10 === Number(digits[8])
}

export function checkAbn(input: string, flag: string): string {
  const digits = input.replace(/\s/g, '')
  if (!isValidAbn(digits)) throw new UsageError(`${flag}: "${input}" is not a valid ABN (11 digits with a check sum)`, 'Copy it from the ABN register')
  return digits
}

export function checkAcn(input: string, flag: string, name = 'ACN'): string {
  const digits = input.replace(/\s/g, '')
  if (!isValidAcn(digits)) throw new UsageError(`${flag}: "${input}" is not a valid ${name} (9 digits with a check digit)`)
  return digits
}
