// payto charge against the emulator: one payment on an active agreement, at most once, resumable.
import { afterEach, describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'

const { ctx, payfac, json, control } = useEmulator()
afterEach(async () => {
  await control('DELETE', '/faults')
})

/** An open agreement the customer approved: what payto charge takes. */
async function activeAgreement(name: string): Promise<string> {
  const sent = await json('payto', 'agree', '--name', name, '--bban', '062-000 12345678', '--open')
  await json('simulate', 'SetPayToAgreementStatus', '--data', JSON.stringify({ token: sent.token, status: 'Active' }))
  return sent.token as string
}

describe('payto charge', () => {
  it('charges an active agreement once: a re-run with the same reference is exit 6 naming the transaction', async () => {
    const token = await activeAgreement('Charge Once')
    const first = await payfac('payto', 'charge', token, '--amount', '9.90', '--currency', 'AUD', '--reference', 'charge-once', '--json')
    expect(first.code, first.stderr).toBe(0)
    const tx = JSON.parse(first.stdout)
    expect(tx.purchaseDetails).toMatchObject({ status: 'paid', referenceOrderId: 'charge-once', amount: { minorCurrencyUnits: 990, currency: 'AUD' } })
    expect(first.stderr).toContain(`[1/5] Agreement ${token} (given: charging it)`)
    const again = await payfac('payto', 'charge', token, '--amount', '9.90', '--currency', 'AUD', '--reference', 'charge-once')
    expect(again.code).toBe(6)
    expect(again.stderr).toContain(tx.transactionId)
    // The same agreement and amount within the repeat window is a repeat under another reference too (issue 34): --again charges on purpose.
    const refused = await payfac('payto', 'charge', token, '--amount', '9.90', '--currency', 'AUD', '--reference', 'charge-twice')
    expect(refused.code, refused.stderr).toBe(6)
    expect(refused.stderr).toContain(tx.transactionId)
    const next = await payfac('payto', 'charge', token, '--amount', '9.90', '--currency', 'AUD', '--reference', 'charge-twice', '--again', '--json')
    expect(next.code, next.stderr).toBe(0)
    expect(ctx.emulator.app.store.orders.all().filter((o) => o.referenceOrderId?.startsWith('charge-'))).toHaveLength(2)
  })

  it('after a pay whose answer was lost exits 7; the same command finds the payment and pays nothing more', async () => {
    const token = await activeAgreement('Charge Dropped')
    await control('POST', '/faults', { method: 'POST', pathPattern: '/orders/*/pay', fault: 'drop-after-commit' })
    const first = await payfac('payto', 'charge', token, '--amount', '5', '--currency', 'AUD', '--reference', 'charge-dropped')
    expect(first.code, first.stderr).toBe(7)
    await control('DELETE', '/faults')
    const again = await payfac('payto', 'charge', token, '--amount', '5', '--currency', 'AUD', '--reference', 'charge-dropped', '--json')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('payto charge charge-dropped')
    const orders = ctx.emulator.app.store.orders.all().filter((o) => o.referenceOrderId === 'charge-dropped')
    expect(orders).toHaveLength(1)
    const paid = ctx.emulator.app.store.transactions.all().filter((t) => t.orderId === orders[0]?.orderId)
    expect(paid).toHaveLength(1)
  })

  it('another amount for the same reference is refused (exit 2), and a token that is not an agreement too', async () => {
    const token = await activeAgreement('Charge Changed')
    expect((await payfac('payto', 'charge', token, '--amount', '3', '--currency', 'AUD', '--reference', 'charge-changed')).code).toBe(0)
    const changed = await payfac('payto', 'charge', token, '--amount', '4', '--currency', 'AUD', '--reference', 'charge-changed')
    expect(changed.code).toBe(2)
    expect(changed.stderr).toMatch(/another amount/)
    expect((await payfac('payto', 'charge', 'ordr_x', '--amount', '3', '--currency', 'AUD', '--reference', 'x')).code).toBe(2)
  })

  it('order metadata keeps the run marker for --json, but tables leave it out', async () => {
    const order = ctx.emulator.app.store.orders.all().find((o) => o.referenceOrderId === 'charge-once')
    const asJson = await json('orders', 'get', order?.orderId as string)
    expect(asJson.metadata).toHaveProperty('payfacRun')
    const table = await payfac('orders', 'get', order?.orderId as string)
    expect(table.code).toBe(0)
    expect(table.stdout).toContain('Metadata')
    expect(table.stdout).not.toContain('payfacRun')
  })
})
