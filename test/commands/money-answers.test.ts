// Answers used for a money decision are checked before deciding (issue 34, item 4): against a
// hostile test double, a refunded amount or a balance that makes no sense stops the command with
// exit 7 (the answer does not match the contract), and nothing that changes anything is sent.
// Before, a look-up answering `refundedAmount: -999999` let a 60.00 refund of a 50.00 transaction through.
import { describe, expect, it } from 'vitest'

import { useHostileAnswers } from '../helpers/hostile-answers.js'

const TRAN = 'tran_BBBBBBBBBBBBBBBB'
const MERCHANT = 'mcht_BBBBBBBBBBBBBBBB'

const hostile = useHostileAnswers('payfac-answers-')
const { payfac, changes } = hostile

describe('a refund judged by a refunded amount that makes no sense is not sent', () => {
  it.each<[string, unknown, RegExp]>([
    ['negative (-999999)', -999_999, /purchaseDetails\.refundedAmount: expected a whole number of minor units, 0 or more/],
    ['not a whole number (1.5)', 1.5, /refundedAmount/],
    ['missing', undefined, /purchaseDetails\.refundedAmount: is required/],
    ['more than was paid', 6000, /refundedAmount: 6000 is more than the amount paid \(5000\)/],
  ])('refundedAmount %s: exit 7, nothing sent', async (_name, refundedAmount, problem) => {
    const purchaseDetails: Record<string, unknown> = { transactionId: TRAN, amount: { minorCurrencyUnits: 5000, currency: 'AUD' }, status: 'paid' }
    if (refundedAmount !== undefined) purchaseDetails.refundedAmount = refundedAmount
    hostile.service.answer(() => ({ body: { purchaseDetails, timelines: [] } }))
    const result = await payfac('transactions', 'refund', TRAN, '--amount', '60.00', '--yes')
    expect(result.code, result.stderr).toBe(7)
    expect(result.stderr).toMatch(problem)
    expect(changes()).toEqual([])
  })
})

describe('a payout judged by a balance that makes no sense is not sent', () => {
  const answer = (line: Record<string, unknown>) =>
    hostile.service.answer((r) => {
      if (r.path === `/merchants/${MERCHANT}/balances`) return { body: { merchantId: MERCHANT, balances: [line] } }
      if (r.path === `/merchants/${MERCHANT}`) return { body: { merchantId: MERCHANT, manualPayoutsEnabled: true, currency: 'AUD' } }
      return { status: 500, body: { errorCode: 'unexpected', message: `not scripted: ${r.method} ${r.path}` } }
    })
  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      'in another currency',
      { currency: 'AUD', available: { minorCurrencyUnits: 999_999, currency: 'USD' } },
      /the AUD balance has its available amount in USD/,
    ],
    ['without an available amount', { currency: 'AUD' }, /the AUD balance has no available amount/],
    ['not a whole number', { currency: 'AUD', available: { minorCurrencyUnits: 12.5, currency: 'AUD' } }, /not a whole number of minor units \(12\.5\)/],
  ])('a balance %s: exit 7, nothing sent', async (_name, line, problem) => {
    answer(line)
    const result = await payfac('payouts', 'request', '--amount', '10.00', '--currency', 'AUD', '--merchant-id', MERCHANT, '--repeat-window', '0', '--yes')
    expect(result.code, result.stderr).toBe(7)
    expect(result.stderr).toMatch(problem)
    expect(changes()).toEqual([])
  })
})
