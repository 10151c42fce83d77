// --query's field check: a name the record lacks is said, with the fields it has.
import { describe, expect, it } from 'vitest'

import { missingQueryFields } from '../../src/output/query-fields.js'

describe('--query fields', () => {
  const record = { orderId: 'ordr_1', amount: { minorCurrencyUnits: 1, currency: 'AUD' } }

  it('names a field the record lacks, with the fields it has', () => {
    expect(missingQueryFields('orderid', record)).toEqual({ missing: ['orderid'], has: ['orderId', 'amount'] })
    expect(missingQueryFields('{id: orderId, c: amount.currency}', record)).toBeUndefined()
    expect(missingQueryFields('amount.nope', record)).toBeUndefined()
  })

  it('over a list, reads the fields a projection or filter takes from each record', () => {
    expect(missingQueryFields('[].orderid', [record])?.missing).toEqual(['orderid'])
    expect(missingQueryFields("[?status=='paid'].orderId", [record])?.missing).toEqual(['status'])
    expect(missingQueryFields('[0].orderId', [record])).toBeUndefined()
    expect(missingQueryFields('length(@)', [record])).toBeUndefined()
  })
})
