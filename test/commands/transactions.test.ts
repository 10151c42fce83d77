// The transactions topic against the emulator (each answer as JSON and as a table), and the
// checks that refuse bad input before anything is sent (against a recording server).
import { describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'
import { newCustomer, paidByPayTo } from '../helpers/flows.js'

const { ctx, payfac, json, marketplace } = useEmulator()
const asMarketplace = marketplace.payfac

/** A PayTo payment of `amount` AUD, made with commands only: agreement, token, order, pay. */
const payByPayTo = (amount: string) => paidByPayTo(json, amount, 'txn')

let cards = 0
/** A card payment authorised only (not_captured), through a 3DS challenge confirmed with authoriseOnly. */
async function authorisedCardPayment() {
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
  const order = await json('orders', 'create', '--amount', '20', '--currency', 'AUD', '--reference', `card-${++cards}`)
  const challenge = await json('orders', 'pay', order.orderId, '--token', token.paymentTokenId, '--method', 'card', '--request-3ds')
  expect(challenge).toHaveProperty('ThreeDSAuthorisationRequired')
  // The customer passes the challenge (the emulator's simulation, as its challenge page would record it).
  const { threeDSAuthorisationId } = challenge.ThreeDSAuthorisationRequired
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
  const paid = confirmed.PayOrderComplete ?? confirmed
  expect(paid.transactionStatus).toBe('not_captured')
  return paid.transactionId as string
}

describe('transactions against the emulator', () => {
  it('gets a paid transaction with its payment status and timeline', async () => {
    const { transactionId, orderId } = await payByPayTo('12.50')
    const got = await json('transactions', 'get', transactionId)
    expect(got.purchaseDetails).toMatchObject({
      transactionId,
      orderId,
      status: 'paid',
      amount: { minorCurrencyUnits: 1250, currency: 'AUD' },
      refundedAmount: 0,
    })
    expect(got.paymentMethod.paymentStatus).toBe('Settled')

    const table = await payfac('transactions', 'get', transactionId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('12.50 AUD')
    expect(table.stdout).toContain('Settled')
    expect(table.stdout).toMatch(/PaymentSucceed 12\.50 AUD at \d{4}-\d{2}-\d{2} /)
  })

  it('lists transactions by order, status, amount and merchant filter', async () => {
    const { transactionId, orderId } = await payByPayTo('3.30')
    const byOrder = await json('transactions', 'list', '--order-id', orderId)
    expect(byOrder.map((t: { purchaseDetails: { transactionId: string } }) => t.purchaseDetails.transactionId)).toEqual([transactionId])

    const byAmount = await json('transactions', 'list', '--amount', '3.30', '--currency', 'AUD', '--status', 'paid')
    expect(byAmount.map((t: { purchaseDetails: { transactionId: string } }) => t.purchaseDetails.transactionId)).toContain(transactionId)
    expect(byAmount.every((t: { purchaseDetails: { amount: { minorCurrencyUnits: number } } }) => t.purchaseDetails.amount.minorCurrencyUnits === 330)).toBe(
      true,
    )

    const none = await json('transactions', 'list', '--status', 'disputed', '--order-id', orderId)
    expect(none).toEqual([])

    // A marketplace sees every merchant's transactions; --merchant-id filters them.
    const mine = await asMarketplace('transactions', 'list', '--merchant', ctx.emulator.ids.merchantId, '--order-id', orderId, '--json')
    expect(mine.code, mine.stderr).toBe(0)
    expect(JSON.parse(mine.stdout)).toHaveLength(1)
    const theirs = await asMarketplace('transactions', 'list', '--merchant', ctx.emulator.ids.subMerchantId, '--order-id', orderId, '--json')
    expect(JSON.parse(theirs.stdout)).toEqual([])

    const table = await payfac('transactions', 'list', '--order-id', orderId)
    expect(table.code).toBe(0)
    expect(table.stdout).toContain(transactionId)
    expect(table.stdout).toContain('3.30 AUD')
  })

  it('refunds part, refuses more than remains before sending, then refunds the rest', async () => {
    const { transactionId } = await payByPayTo('12.50')
    const partial = await json('transactions', 'refund', transactionId, '--amount', '5.00')
    expect(partial.purchaseDetails).toMatchObject({ status: 'partially_refunded', refundedAmount: 500 })
    expect(partial.purchaseDetails.refundIds).toHaveLength(1)
    expect(partial.timelines.map((e: { eventType: string }) => e.eventType)).toEqual(['PaymentSucceed', 'PaymentRefunded'])

    const tooMuch = await payfac('transactions', 'refund', transactionId, '--amount', '8.00')
    expect(tooMuch.code).toBe(6)
    expect(tooMuch.stderr).toContain('7.50 AUD of 12.50 AUD')
    const unchanged = await json('transactions', 'get', transactionId)
    expect(unchanged.purchaseDetails.refundedAmount).toBe(500)

    const rest = await payfac('transactions', 'refund', transactionId, '--amount', '7.50', '--currency', 'aud')
    expect(rest.code, rest.stderr).toBe(0)
    expect(rest.stdout).toContain('refunded')
    expect(rest.stdout).toContain('12.50 AUD')
    const done = await json('transactions', 'get', transactionId)
    expect(done.purchaseDetails).toMatchObject({ status: 'refunded', refundedAmount: 1250 })
    expect(done.purchaseDetails.refundIds).toHaveLength(2)

    const again = await payfac('transactions', 'refund', transactionId, '--amount', '0.01')
    expect(again.code).toBe(6)
    expect(again.stderr).toMatch(/Nothing remains to refund/i)
  })

  it('captures an authorised card payment, then cancels it', async () => {
    const transactionId = await authorisedCardPayment()
    const captured = await json('transactions', 'capture', transactionId)
    expect(captured.purchaseDetails.status).toBe('accepted')
    expect(captured.paymentMethod.paymentStatus).toBe('Captured')

    const twice = await payfac('transactions', 'capture', transactionId)
    expect(twice.code).toBe(6)

    const cancelled = await payfac('transactions', 'cancel-authorisation', transactionId)
    expect(cancelled.code, cancelled.stderr).toBe(0)
    expect(cancelled.stdout).toContain('cancelled')
    expect(cancelled.stdout).toContain('PaymentCancelled')
  })

  it('refuses to capture or cancel a settled PayTo payment (exit 6)', async () => {
    const { transactionId } = await payByPayTo('1.00')
    expect((await payfac('transactions', 'capture', transactionId)).code).toBe(6)
    expect((await payfac('transactions', 'cancel-authorisation', transactionId, '--data', '{}')).code).toBe(6)
  })

  it('transfers funds to a sub-merchant and reverses the transfer, as the marketplace', async () => {
    const { transactionId } = await payByPayTo('10.00')
    const transferred = await asMarketplace(
      'transactions',
      'transfer',
      transactionId,
      '--to',
      ctx.emulator.ids.subMerchantId,
      '--amount',
      '2.50',
      '--description',
      'Seller share',
      '--json',
    )
    expect(transferred.code, transferred.stderr).toBe(0)
    expect(JSON.parse(transferred.stdout).timelines.map((e: { eventType: string }) => e.eventType)).toContain('FundsTransferred')

    const shown = await asMarketplace('transactions', 'get', transactionId)
    expect(shown.stdout).toMatch(/Transfers\s+trf_[\w-]+ 2\.50 AUD to mcht_LocalSubMerch001 \(Transferred\)/)
    const got = await asMarketplace('transactions', 'get', transactionId, '--json')
    const [transfer] = JSON.parse(got.stdout).transfers
    expect(transfer).toMatchObject({ destinationMerchantId: ctx.emulator.ids.subMerchantId, amount: { minorCurrencyUnits: 250, currency: 'AUD' } })

    const partly = await asMarketplace('transactions', 'reverse-transfer', transactionId, '--transfer', transfer.transferId, '--amount', '1.00')
    expect(partly.code, partly.stderr).toBe(0)
    expect(partly.stdout).toContain('FundsTransferReversed 1.00 AUD')
    const rest = await asMarketplace('transactions', 'reverse-transfer', transactionId, '--transfer', transfer.transferId, '--json')
    expect(rest.code, rest.stderr).toBe(0)
    const after = JSON.parse((await asMarketplace('transactions', 'get', transactionId, '--json')).stdout)
    expect(after.transfers[0]).toMatchObject({ status: 'Reversed', reversedAmount: 250 })

    const byMerchant = await payfac('transactions', 'transfer', transactionId, '--to', ctx.emulator.ids.subMerchantId, '--amount', '1.00')
    expect(byMerchant.code).toBe(4)
  })
})

describe('bad input exits 2 and sends nothing', () => {
  const TRAN = 'tran_ZqCNoNcm_22WeZ-j'
  const recording = useRecordingServer(() => ({ status: 200, body: [], headers: { 'Page-Count': '0', 'Total-Record-Count': '0' } }))
  const { cli, server } = recording

  const cases: RefusalCase[] = [
    ['an id without its prefix', ['transactions', 'get', 'ordr_ZqCNoNcm_22WeZ-j'], /tran_/],
    ['a status outside the field notes', ['transactions', 'list', '--status', 'settled'], /settled/],
    ['--amount without --currency', ['transactions', 'list', '--amount', '5'], /currency/],
    ['--currency without --amount', ['transactions', 'list', '--currency', 'AUD'], /amount/],
    ['a filter amount with too many decimals', ['transactions', 'list', '--amount', '5.001', '--currency', 'AUD'], /decimal places/],
    ['a merchant filter without its prefix', ['transactions', 'list', '--merchant', 'LocalMerchant'], /mcht_/],
    ['a bad date', ['transactions', 'list', '--created-after', '21/11/2026'], /YYYY-MM-DD/],
    ['a refund that is not an amount', ['transactions', 'refund', TRAN, '--amount', 'five'], /not an amount/],
    ['a refund of zero', ['transactions', 'refund', TRAN, '--amount', '0.00'], /greater than zero/],
    ['a negative refund', ['transactions', 'refund', TRAN, '--amount=-5'], /not an amount/],
    ['a refund with more decimals than its currency', ['transactions', 'refund', TRAN, '--amount', '5.001', '--currency', 'AUD'], /decimal places/],
    ['a refund in an unknown currency', ['transactions', 'refund', TRAN, '--amount', '5', '--currency', 'XYZ'], /Unknown currency/],
    ['a refund without --amount', ['transactions', 'refund', TRAN], /amount/],
    ['a transfer without --to', ['transactions', 'transfer', TRAN, '--amount', '1'], /--to/],
    ['a transfer to a non-merchant', ['transactions', 'transfer', TRAN, '--to', 'cust_ZqCNoNcm_22WeZ-j', '--amount', '1'], /mcht_/],
    ['a transfer with --data and flags', ['transactions', 'transfer', TRAN, '--to', 'mcht_ZqCNoNcm_22WeZ-j', '--data', '{}'], /cannot also be provided|--data/],
    ['a reversal without --transfer', ['transactions', 'reverse-transfer', TRAN], /--transfer/],
    ['capture --data holding another action', ['transactions', 'capture', TRAN, '--data', '{"CreateRefund":{"refundAmount":5}}'], /CaptureFunds/],
    ['capture --data that is not JSON', ['transactions', 'capture', TRAN, '--data', '{nope'], /not valid JSON/],
  ]

  itRefusesBeforeSending(cases, recording)

  const transaction = (amount: number, refunded: number) => ({
    purchaseDetails: {
      transactionId: TRAN,
      status: refunded ? 'partially_refunded' : 'paid',
      amount: { minorCurrencyUnits: amount, currency: 'AUD' },
      refundedAmount: refunded,
      refundIds: [],
    },
    paymentMethod: { paymentStatus: 'Settled' },
    timelines: [],
  })

  it('reads the transaction, then refuses a refund above what remains without sending it (exit 6: the state refuses it)', async () => {
    server.respond(() => ({ body: transaction(1250, 500) }))
    const result = await cli('transactions', 'refund', TRAN, '--amount', '7.51')
    expect(result.code).toBe(6)
    expect(result.stderr).toContain('7.51 AUD is more than what remains to refund: 7.50 AUD of 12.50 AUD')
    // the transaction, and (the journal's identity) which merchant the key acts for: reads only
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /transactions/${TRAN}`, 'GET /merchants'])
  })

  it("refuses a refund in another currency than the transaction's, after reading it", async () => {
    server.respond(() => ({ body: transaction(1250, 0) }))
    const result = await cli('transactions', 'refund', TRAN, '--amount', '1', '--currency', 'NZD')
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/not the transaction's currency \(AUD\)/)
    expect(server.requests.map((r) => r.method)).toEqual(['GET'])
  })

  it('sends the refund in minor units of the transaction currency, once', async () => {
    server.respond((r) =>
      r.method === 'GET' ? { body: transaction(1250, 0) } : { status: 503, body: { statusCode: 503, errorCode: 'unavailable', message: 'Try later' } },
    )
    const result = await cli('transactions', 'refund', TRAN, '--amount', '12.5')
    expect(result.code).toBe(7)
    const patches = server.requests.filter((r) => r.method === 'PATCH')
    expect(patches).toHaveLength(1)
    expect(patches[0]?.json).toEqual({ CreateRefund: { refundAmount: 1250 } })
  })

  it('sends --merchant-id of transactions list as a repeated filter, not as the Merchant-Id header', async () => {
    const result = await cli(
      'transactions',
      'list',
      '--merchant-id',
      'mcht_AAAAAAAAAAAAAAAA',
      '--merchant-id',
      'mcht_BBBBBBBBBBBBBBBB',
      '--amount',
      '12.50',
      '--currency',
      'AUD',
      '--status',
      'paid',
    )
    expect(result.code, result.stderr).toBe(0)
    const [request] = server.requests
    expect(request?.query.getAll('merchantId')).toEqual(['mcht_AAAAAAAAAAAAAAAA', 'mcht_BBBBBBBBBBBBBBBB'])
    expect(request?.query.get('amount')).toBe('1250')
    expect(request?.headers['merchant-id']).toBeUndefined()
  })

  it('builds TransferFunds and ReverseFundsTransfer from flags', async () => {
    server.respond(() => ({ body: transaction(1000, 0) }))
    expect((await cli('transactions', 'transfer', TRAN, '--to', 'mcht_AAAAAAAAAAAAAAAA', '--amount', '2.5', '--description', 'share')).code).toBe(0)
    expect((await cli('transactions', 'reverse-transfer', TRAN, '--transfer', 'trf_AAAAAAAAAAAAAAAA', '--amount', '1', '--currency', 'AUD')).code).toBe(0)
    expect((await cli('transactions', 'capture', TRAN)).code).toBe(0)
    // Each action reads the transaction first (its currency, and the state a re-run compares with).
    expect(server.requests.filter((r) => r.method !== 'GET').map((r) => [r.method, r.json])).toEqual([
      ['PATCH', { TransferFunds: { amount: 250, destinationMerchantId: 'mcht_AAAAAAAAAAAAAAAA', description: 'share' } }],
      ['PATCH', { ReverseFundsTransfer: { transferId: 'trf_AAAAAAAAAAAAAAAA', amount: 100 } }],
      ['PATCH', { CaptureFunds: {} }],
    ])
  })
})
