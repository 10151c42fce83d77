import { describe, expect, it } from 'vitest'

import { UsageError } from '../../src/cli/errors/index.js'
import { checkBban, isValidAbn, isValidAcn } from '../../src/cli/validate/au.js'

describe('Australian identifiers', () => {
  it.each([
    ['062-000 12345678', '062000 12345678'],
    ['062000 12345678', '062000 12345678'],
    ['06200012345678', '062000 12345678'],
    ['062 000 1234-5678', '062000 12345678'],
  ])('reads the BBAN %s', (input, value) => {
    expect(checkBban(input, '--bban').value).toBe(value)
  })

  it.each(['062-00 12345678', '062-000 1234', '062-000 1234567890', 'abc', '062-000'])('refuses the BBAN %s', (input) => {
    expect(() => checkBban(input, '--bban')).toThrow(UsageError)
  })

  it('checks ABN check sums', () => {
    expect(isValidAbn('51824753556')).toBe(true)
    expect(isValidAbn('53004085616')).toBe(true)
    expect(isValidAbn('51824753557')).toBe(false)
    expect(isValidAbn('5182475355')).toBe(false)
  })

  it('checks ACN check digits', () => {
    expect(isValidAcn('000000019')).toBe(true)
    expect(isValidAcn('004085616')).toBe(true)
    expect(isValidAcn('010499966')).toBe(true)
    expect(isValidAcn('004085617')).toBe(false)
  })
})
