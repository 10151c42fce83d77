// What a re-run after a lost answer counts as "added since the intent": found by what each
// timeline entry is, whatever order the service lists the timeline in (the contract does not say);
// and the hash that tells two request bodies apart.
import { describe, expect, it } from 'vitest'

import type { Transaction } from '../../src/client/schemas/transactions.js'
import { bodyHash, entriesSince, snapshotOf } from '../../src/cli/safety/transaction-ops.js'

const entry = (eventType: string, amount: number, identifier: string | null, eventTime: string) => ({ eventType, amount, identifier, eventTime })
const tx = (timelines: ReturnType<typeof entry>[]) =>
  ({ purchaseDetails: { status: 'paid', refundedAmount: 0, refundIds: [] }, timelines }) as unknown as Transaction

const paid = entry('PaymentSucceed', 5000, null, '2026-11-25T10:00:00Z')
const oldRefund = entry('PaymentRefunded', 500, 'rfnd_old', '2026-11-25T10:05:00Z')
const newRefund = entry('PaymentRefunded', 1000, 'rfnd_new', '2026-11-25T11:00:00Z')

describe('entries added since a snapshot', () => {
  it('are the new ones when the service lists its timeline newest first', () => {
    const before = snapshotOf(tx([oldRefund, paid]))
    const added = entriesSince(tx([newRefund, oldRefund, paid]), before, 'PaymentRefunded')
    expect(added?.map((e) => e.identifier)).toEqual(['rfnd_new'])
  })

  it('are none when nothing was added, in any order', () => {
    const before = snapshotOf(tx([paid, oldRefund]))
    expect(entriesSince(tx([oldRefund, paid]), before, 'PaymentRefunded')).toEqual([])
  })

  it('count a second entry identical to an old one', () => {
    const twin = entry('PaymentRefunded', 500, null, '2026-11-25T10:05:00Z')
    const before = snapshotOf(tx([paid, twin]))
    expect(entriesSince(tx([twin, paid, twin]), before, 'PaymentRefunded')).toHaveLength(1)
  })

  it('fall back to the position for a snapshot written before entries were kept', () => {
    const { entries: _dropped, ...before } = snapshotOf(tx([paid]))
    expect(entriesSince(tx([paid, newRefund]), before, 'PaymentRefunded')?.map((e) => e.identifier)).toEqual(['rfnd_new'])
  })
})

describe('the hash of a request body', () => {
  it('is the same for the same body written in another key order, at every depth', () => {
    const a = { amount: { minorCurrencyUnits: 701, currency: 'AUD' }, description: 'x' }
    const b = { description: 'x', amount: { currency: 'AUD', minorCurrencyUnits: 701 } }
    expect(bodyHash(a)).toBe(bodyHash(b))
    expect(bodyHash(a)).not.toBe(bodyHash({ ...a, amount: { minorCurrencyUnits: 702, currency: 'AUD' } }))
    expect(bodyHash({ list: [1, 2] })).not.toBe(bodyHash({ list: [2, 1] }))
  })
})
