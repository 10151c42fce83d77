// The contract's one-off PayTo flow, run with commands only, through to a partial refund and the
// settlement report saved as CSV. The PayTo steps use `payfac api` (the payto commands are
// another topic's).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

import { useEmulator, useTempDir } from '../helpers/command-harness.js'
import { advanceClock } from '../helpers/flows.js'

const { payfac, json } = useEmulator()
const dir = useTempDir('payfac-flow-')

describe('the one-off PayTo flow, with commands only', () => {
  it('agreement, token, order, payment, partial refund, then the settlement report as CSV', async () => {
    const from = new Date(Date.now() - 60_000).toISOString()

    // (1) Send a one-off agreement and keep its token.
    const sent = await json(
      'api',
      'POST',
      '/payto/agreement',
      '--data',
      JSON.stringify({
        customerName: 'Jo Citizen',
        customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
        terms: { AgreementRequestTermsOneOff: { amount: { amount: 2000, currency: 'AUD' } } },
        purpose: 'Order flow-1',
      }),
    )
    expect(sent.token).toBeTruthy()

    // (2) Poll until Active (emulator time moves forward instead of waiting).
    let status = ''
    for (let attempt = 0; attempt < 5 && status !== 'Active'; attempt++) {
      status = (await json('api', 'GET', `/payto/agreement?token=${encodeURIComponent(sent.token)}`)).status
      if (status !== 'Active') await advanceClock(json, 3)
    }
    expect(status).toBe('Active')

    // (3) A PayTo payment token for the agreement's amount.
    const token = await json('tokens', 'create', '--payto', '--agreement', sent.token, '--amount', '20.00', '--currency', 'AUD')
    expect(token.paymentTokenId).toMatch(/^ptkn_/)

    // (4) An order of the same amount; (5) paid with the token.
    const order = await json('orders', 'create', '--amount', '20.00', '--currency', 'AUD', '--reference', 'flow-1', '--description', 'Flow test')
    const paid = await json('orders', 'pay', order.orderId, '--token', token.paymentTokenId)
    expect(paid).toMatchObject({ transactionStatus: 'paid', amount: 2000, currency: 'AUD' })
    expect(paid.transactionDetails.paymentMethod.paymentStatus).toBe('Settled')
    const transactionId: string = paid.transactionId

    // A partial refund.
    const refunded = await json('transactions', 'refund', transactionId, '--amount', '5.00')
    expect(refunded.purchaseDetails).toMatchObject({ status: 'partially_refunded', refundedAmount: 500 })
    const [refundId] = refunded.purchaseDetails.refundIds
    expect(refundId).toMatch(/^rfnd_/)
    const shown = await payfac('transactions', 'get', transactionId)
    expect(shown.stdout).toMatch(/Status\s+partially_refunded/)
    expect(shown.stdout).toMatch(/Refunded\s+5\.00 AUD/)

    // The settlement report of the period, as CSV, saved with --out.
    const to = new Date(Date.now() + 24 * 3600_000).toISOString()
    const file = join(dir(), 'settlement.csv')
    const report = await payfac('settlement', 'report', '--currency', 'AUD', '--from', from, '--to', to, '--csv', '--out', file)
    expect(report.code, report.stderr).toBe(0)
    expect(report.stdout).toBe('')
    const csv = readFileSync(file, 'utf8')
    expect(report.stderr).toContain(`Saved ${Buffer.byteLength(csv)} bytes to ${file}`)
    const [header, ...rows] = csv.trim().split(/\r?\n/)
    const columns = (header as string).split(',')
    const ofTransaction = rows.map((row) => row.split(',')).filter((cells) => cells[columns.indexOf('transactionId')] === transactionId)
    const byType = Object.fromEntries(ofTransaction.map((cells) => [cells[columns.indexOf('type')], cells[columns.indexOf('amountMinorUnits')]]))
    expect(byType).toMatchObject({ Payment: '2000', Refund: '-500' })
    expect(csv).toContain(refundId)
  })
})
