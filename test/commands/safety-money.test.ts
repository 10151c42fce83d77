// Money moves at most once through payfac: against the emulator, a money-moving command whose
// answer is lost (the connection dropped after the emulator applied it, or a 503/504 after it
// applied it) exits 7 naming the command that shows whether it happened; running the same
// command again finds it on the service and sends nothing; the emulator's records show one
// movement. Plus the guards from the service's state (more than remains, already paid, same
// reference) and the journal's key: the service identity, not the spelling of its URL.
import { describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { paidByPayTo, newCustomer } from '../helpers/flows.js'

const { ctx, payfac, json, marketplace } = useEmulator()

/** A standing fault for the next matching request only (cleared by the caller). */
async function withFault<T>(fault: string, method: string, path: string, run: () => Promise<T>): Promise<T> {
  await json('emulator', 'faults', '--add', fault, '--method', method, '--path', path)
  try {
    return await run()
  } finally {
    await json('emulator', 'faults', '--clear')
  }
}

async function refundsOf(transactionId: string): Promise<{ refundedAmount: number; refundIds: string[] }> {
  const t = await json('transactions', 'get', transactionId)
  return { refundedAmount: t.purchaseDetails.refundedAmount, refundIds: t.purchaseDetails.refundIds }
}

describe('a refund whose answer is lost', () => {
  it.each([['drop-after-commit'], ['commit-then-status=503'], ['commit-then-status=504'], ['commit-then-status=500']])(
    'with %s: exits 7 naming the check; the re-run exits 0 reporting the refund; the emulator holds one refund',
    async (fault) => {
      const { transactionId } = await paidByPayTo(json, '20.00', 'lost-refund')
      const first = await withFault(fault, 'PATCH', '/transactions/*', () => payfac('transactions', 'refund', transactionId, '--amount', '10.00'))
      expect(first.code, first.stderr).toBe(7)
      expect(first.stdout).toBe('')
      expect(first.stderr).toContain(`Outcome unknown: refund of 10.00 AUD on transaction ${transactionId}`)
      expect(first.stderr).toContain('may or may not have happened')
      expect(first.stderr).toContain(`Check whether it happened with: payfac transactions get ${transactionId}`)

      const again = await payfac('transactions', 'refund', transactionId, '--amount', '10.00', '--json')
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toContain('It happened')
      expect(JSON.parse(again.stdout).purchaseDetails).toMatchObject({ transactionId, refundedAmount: 1000 })
      expect(await refundsOf(transactionId)).toMatchObject({ refundedAmount: 1000, refundIds: [expect.any(String)] })
    },
  )

  it('--json carries outcomeUnknown and the check command', async () => {
    const { transactionId } = await paidByPayTo(json, '5.00', 'lost-json')
    const first = await withFault('commit-then-status=503', 'PATCH', '/transactions/*', () =>
      payfac('transactions', 'refund', transactionId, '--amount', '1.00', '--json'),
    )
    expect(first.code).toBe(7)
    expect(first.stdout).toBe('')
    expect(JSON.parse(first.stderr.trim().split('\n').at(-1) as string).error).toMatchObject({
      code: 7,
      outcomeUnknown: true,
      check: `payfac transactions get ${transactionId}`,
      action: `refund of 1.00 AUD on transaction ${transactionId}`,
      status: 503,
    })
  })

  it('is sent on the re-run when the service shows it did not happen (a 503 before anything was applied)', async () => {
    const { transactionId } = await paidByPayTo(json, '8.00', 'not-applied')
    const first = await withFault('503', 'PATCH', '/transactions/*', () => payfac('transactions', 'refund', transactionId, '--amount', '3.00'))
    expect(first.code).toBe(7)
    const again = await payfac('transactions', 'refund', transactionId, '--amount', '3.00')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('did not happen; sending it now')
    expect(await refundsOf(transactionId)).toMatchObject({ refundedAmount: 300, refundIds: [expect.any(String)] })
  })

  it('is found again under another spelling of the same service (localhost for 127.0.0.1)', async () => {
    const { transactionId } = await paidByPayTo(json, '6.00', 'spelling')
    const first = await withFault('drop-after-commit', 'PATCH', '/transactions/*', () => payfac('transactions', 'refund', transactionId, '--amount', '2.00'))
    expect(first.code).toBe(7)
    const localhost = `${ctx.emulator.url.replace('127.0.0.1', 'localhost')}/`
    const again = await payfac('transactions', 'refund', transactionId, '--amount', '2.00', '--base-url', localhost)
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('It happened')
    expect((await refundsOf(transactionId)).refundIds).toHaveLength(1)
  })
})

describe('refund guards', () => {
  it('refuses a second identical refund without --again (exit 6), and makes it with --again', async () => {
    const { transactionId } = await paidByPayTo(json, '10.00', 'again')
    expect((await payfac('transactions', 'refund', transactionId, '--amount', '2.00')).code).toBe(0)
    const twice = await payfac('transactions', 'refund', transactionId, '--amount', '2.00')
    expect(twice.code).toBe(6)
    expect(twice.stderr).toContain('--again')
    expect((await refundsOf(transactionId)).refundIds).toHaveLength(1)
    const deliberate = await payfac('transactions', 'refund', transactionId, '--amount', '2.00', '--again')
    expect(deliberate.code, deliberate.stderr).toBe(0)
    expect(await refundsOf(transactionId)).toMatchObject({ refundedAmount: 400 })
  })

  it('--expect-refunded refuses (exit 6) when someone refunded in between, and passes when it holds', async () => {
    const { transactionId } = await paidByPayTo(json, '10.00', 'expect')
    expect((await payfac('transactions', 'refund', transactionId, '--amount', '1.00', '--expect-refunded', '0')).code).toBe(0)
    const stale = await payfac('transactions', 'refund', transactionId, '--amount', '3.00', '--expect-refunded', '0')
    expect(stale.code).toBe(6)
    expect(stale.stderr).toContain('has 1.00 AUD refunded, not the 0.00 AUD expected')
    expect((await payfac('transactions', 'refund', transactionId, '--amount', '3.00', '--expect-refunded', '1.00')).code).toBe(0)
    expect(await refundsOf(transactionId)).toMatchObject({ refundedAmount: 400 })
  })
})

describe('orders', () => {
  it('create refuses a second order with the same reference (exit 6 naming it); reuse prints it; create makes another', async () => {
    const first = await json('orders', 'create', '--amount', '4.00', '--currency', 'AUD', '--reference', 'dup-ref-1')
    const refused = await payfac('orders', 'create', '--amount', '4.00', '--currency', 'AUD', '--reference', 'dup-ref-1')
    expect(refused.code).toBe(6)
    expect(refused.stderr).toContain(`An identical creation of order with reference dup-ref-1 for 4.00 AUD was already made (${first.orderId})`)
    const reused = await json('orders', 'create', '--amount', '4.00', '--currency', 'AUD', '--reference', 'dup-ref-1', '--if-exists', 'reuse')
    expect(reused.orderId).toBe(first.orderId)
    const another = await json('orders', 'create', '--amount', '4.00', '--currency', 'AUD', '--reference', 'dup-ref-1', '--if-exists', 'create')
    expect(another.orderId).not.toBe(first.orderId)
    expect(await json('orders', 'list', '--reference', 'dup-ref-1')).toHaveLength(2)
  })

  it('create whose answer is lost: exit 7, then the re-run reports the order that exists; one order', async () => {
    const lost = await withFault('drop-after-commit', 'POST', '/orders', () =>
      payfac('orders', 'create', '--amount', '4.00', '--currency', 'AUD', '--reference', 'lost-order-1'),
    )
    expect(lost.code).toBe(7)
    expect(lost.stderr).toContain('payfac orders list --reference lost-order-1')
    const again = await payfac('orders', 'create', '--amount', '4.00', '--currency', 'AUD', '--reference', 'lost-order-1', '--json')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('It happened')
    const orders = await json('orders', 'list', '--reference', 'lost-order-1')
    expect(orders).toHaveLength(1)
    expect(JSON.parse(again.stdout).orderId).toBe(orders[0].orderId)
  })

  it('create without a reference whose answer is lost cannot be looked up: the re-run exits 7 and sends nothing; --again sends', async () => {
    const body = JSON.stringify({ CreateOnlineOrder: { amount: { minorCurrencyUnits: 777, currency: 'AUD' }, description: 'no reference' } })
    const lost = await withFault('drop-after-commit', 'POST', '/orders', () => payfac('orders', 'create', '--data', body))
    expect(lost.code).toBe(7)
    const before = (await json('orders', 'list', '--limit', '500')).length
    const again = await payfac('orders', 'create', '--data', body, '--json')
    expect(again.code).toBe(7)
    expect(JSON.parse(again.stderr.trim().split('\n').at(-1) as string).error).toMatchObject({ outcomeUnknown: true, check: 'payfac orders list' })
    expect((await json('orders', 'list', '--limit', '500')).length).toBe(before)
    expect((await payfac('orders', 'create', '--data', body, '--again')).code).toBe(0)
    expect((await json('orders', 'list', '--limit', '500')).length).toBe(before + 1)
  })

  it.each([['drop-after-commit'], ['commit-then-status=503']])(
    'pay whose answer is lost (%s): the re-run reports the payment; one transaction',
    async (fault) => {
      const { transactionId, orderId } = await paidOrderSetUp(fault)
      const again = await payfac('orders', 'pay', orderId, '--token', 'ptkn_unusedOnRerun001', '--json')
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toContain(`order ${orderId} is paid by transaction`)
      const transactions = await json('transactions', 'list', '--order-id', orderId)
      expect(transactions).toHaveLength(1)
      expect(transactions[0].purchaseDetails.transactionId).toBe(transactionId)
    },
  )

  it('pay refuses an order that already has a payment (exit 6, naming it) without sending', async () => {
    const { orderId, transactionId } = await paidByPayTo(json, '3.00', 'paid-twice')
    const twice = await payfac('orders', 'pay', orderId, '--token', 'ptkn_anotherTokenAAAA')
    expect(twice.code).toBe(6)
    expect(twice.stderr).toContain(`An identical payment of order ${orderId} was already made (${transactionId})`)
  })
})

describe('other money commands', () => {
  it('payout request whose answer is lost (drop-after-commit): the re-run reports the payout; one payout', async () => {
    await json(
      'api',
      'POST',
      '/simulation',
      '--data',
      JSON.stringify({ IncomingBankTransfer: { merchantId: ctx.emulator.ids.merchantId, amount: { minorCurrencyUnits: 50000, currency: 'AUD' } } }),
    )
    const before = (await json('payouts', 'list', '--limit', '500')).length
    const lost = await withFault('drop-after-commit', 'POST', '/transactions/payouts', () =>
      payfac('payouts', 'request', '--amount', '123.45', '--currency', 'AUD'),
    )
    expect(lost.code, lost.stderr).toBe(7)
    expect(lost.stderr).toContain('Outcome unknown: payout request of 123.45 AUD')
    const again = await payfac('payouts', 'request', '--amount', '123.45', '--currency', 'AUD', '--json')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('It happened: payout')
    expect((await json('payouts', 'list', '--limit', '500')).length).toBe(before + 1)
  })

  it('transfer and reversal whose answers are lost (commit-then-status=502): the re-runs report them; one transfer, reversed once', async () => {
    const { transactionId } = await paidByPayTo(json, '10.00', 'lost-transfer')
    const transfer = ['transactions', 'transfer', transactionId, '--to', ctx.emulator.ids.subMerchantId, '--amount', '2.50']
    const lost = await withFault('commit-then-status=502', 'PATCH', '/transactions/*', () => marketplace.payfac(...transfer))
    expect(lost.code, lost.stderr).toBe(7)
    const again = await marketplace.payfac(...transfer, '--json')
    expect(again.code, again.stderr).toBe(0)
    const [made, ...others] = JSON.parse(again.stdout).transfers
    expect(others).toEqual([])

    const reverse = ['transactions', 'reverse-transfer', transactionId, '--transfer', made.transferId, '--amount', '1.00']
    expect((await withFault('commit-then-status=502', 'PATCH', '/transactions/*', () => marketplace.payfac(...reverse))).code).toBe(7)
    const reversed = await marketplace.payfac(...reverse, '--json')
    expect(reversed.code, reversed.stderr).toBe(0)
    expect(JSON.parse(reversed.stdout).transfers[0]).toMatchObject({ reversedAmount: 100 })
  })

  it('cancel-authorisation whose answer is lost (drop-after-commit): the re-run reports the cancelled payment', async () => {
    const transactionId = await authorisedCardPayment()
    const lost = await withFault('drop-after-commit', 'PATCH', '/transactions/*', () => payfac('transactions', 'cancel-authorisation', transactionId))
    expect(lost.code).toBe(7)
    const again = await payfac('transactions', 'cancel-authorisation', transactionId, '--json')
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout).purchaseDetails.status).toBe('cancelled')
  })

  it('capture whose answer is lost (commit-then-status=504): the re-run reports the captured payment', async () => {
    const transactionId = await authorisedCardPayment()
    const lost = await withFault('commit-then-status=504', 'PATCH', '/transactions/*', () => payfac('transactions', 'capture', transactionId))
    expect(lost.code).toBe(7)
    const again = await payfac('transactions', 'capture', transactionId, '--json')
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout).purchaseDetails.status).toBe('accepted')
  })
})

/** An order paid by PayTo whose pay answer was lost under `fault`. */
async function paidOrderSetUp(fault: string) {
  const { activeAgreement } = await import('../helpers/flows.js')
  const agreement = await activeAgreement(json, { oneOff: 700 })
  const token = await json('tokens', 'create', '--payto', '--agreement', agreement, '--amount', '7.00', '--currency', 'AUD')
  const order = await json('orders', 'create', '--amount', '7.00', '--currency', 'AUD', '--reference', `lost-pay-${fault}`)
  const lost = await withFault(fault, 'POST', '/orders/*/pay', () => payfac('orders', 'pay', order.orderId, '--token', token.paymentTokenId))
  expect(lost.code, lost.stderr).toBe(7)
  expect(lost.stderr).toContain(`payfac transactions list --order-id ${order.orderId}`)
  const [transaction] = await json('transactions', 'list', '--order-id', order.orderId)
  return { orderId: order.orderId as string, transactionId: transaction.purchaseDetails.transactionId as string }
}

let cards = 0
async function authorisedCardPayment(): Promise<string> {
  const customerId = await newCustomer(json)
  const source = await json(
    'sources',
    'create',
    '--customer-id',
    customerId,
    '--data',
    JSON.stringify({
      CreateCardPaymentSource: { cardNumber: '4242424242424242', expiryMonth: 12, expiryYear: 2099, cvc: '123' },
    }),
  )
  const amount = { minorCurrencyUnits: 2000, currency: 'AUD' }
  const token = await json('tokens', 'create', '--data', JSON.stringify({ CardPaymentSourceId: { paymentSourceId: source.paymentSourceId, amount } }))
  const order = await json('orders', 'create', '--amount', '20', '--currency', 'AUD', '--reference', `safety-card-${++cards}`)
  const challenge = await json('orders', 'pay', order.orderId, '--token', token.paymentTokenId, '--method', 'card', '--request-3ds')
  // The customer passes the challenge (the emulator's simulation, as its challenge page would record it).
  const { threeDSAuthorisationId } = challenge.ThreeDSAuthorisationRequired ?? challenge
  await json('api', 'POST', '/simulation', '--data', JSON.stringify({ SetThreeDSOutcome: { threeDSAuthorisationId, outcome: 'passed' } }))
  const confirmed = await json(
    'api',
    'POST',
    `/orders/${order.orderId}/pay`,
    '--data',
    JSON.stringify({
      Confirm3DSComplete: { paymentTokenId: token.paymentTokenId, threeDSResponse: 'ok', authoriseOnly: true },
    }),
  )
  return (confirmed.PayOrderComplete ?? confirmed).transactionId as string
}
