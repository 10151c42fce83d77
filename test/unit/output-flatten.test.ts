import { describe, expect, it } from 'vitest'
import { flatten, getPath, isMoney } from '../../src/output/flatten.js'

describe('flatten', () => {
  it('turns nested objects into dot paths, keeping arrays, nulls and empty objects as leaves', () => {
    expect(
      flatten({
        id: 'x',
        amount: { minorCurrencyUnits: 1250, currency: 'AUD' },
        billing: { address: { city: 'Sydney' }, name: null },
        items: [{ a: 1 }],
        metadata: {},
      }),
    ).toEqual([
      ['id', 'x'],
      ['amount.minorCurrencyUnits', 1250],
      ['amount.currency', 'AUD'],
      ['billing.address.city', 'Sydney'],
      ['billing.name', null],
      ['items', [{ a: 1 }]],
      ['metadata', {}],
    ])
  })

  it('gives a scalar as a single leaf', () => {
    expect(flatten('text')).toEqual([['', 'text']])
    expect(flatten(null, 'x')).toEqual([['x', null]])
  })
})

describe('getPath', () => {
  const record = { a: { b: { c: 1 } }, 'd.e': 2, f: { 'g.h': 3 }, list: [1] }

  it('reads every path flatten produces', () => {
    for (const [path, value] of flatten(record)) expect(getPath(record, path)).toEqual(value)
  })

  it('reads intermediate objects and misses cleanly', () => {
    expect(getPath(record, 'a.b')).toEqual({ c: 1 })
    expect(getPath(record, 'a.x.c')).toBeUndefined()
    expect(getPath(record, 'list.0')).toBeUndefined()
    expect(getPath('scalar', 'a')).toBeUndefined()
  })
})

describe('isMoney', () => {
  it('knows the Money shape', () => {
    expect(isMoney({ minorCurrencyUnits: 1250, currency: 'AUD' })).toBe(true)
    expect(isMoney({ minorCurrencyUnits: 1250, currency: 'AUD', extra: true })).toBe(true)
    expect(isMoney({ minorCurrencyUnits: 12.5, currency: 'AUD' })).toBe(false)
    expect(isMoney({ amount: 1250, currency: 'AUD' })).toBe(false)
    expect(isMoney(null)).toBe(false)
  })
})

describe('parseColumnsFlag', () => {
  it('splits on commas, trims, and drops empty entries', async () => {
    const { parseColumnsFlag } = await import('../../src/output/format.js')
    expect(parseColumnsFlag(' id, amount.currency,,createdAt ')).toEqual(['id', 'amount.currency', 'createdAt'])
    expect(parseColumnsFlag('')).toEqual([])
  })
})
