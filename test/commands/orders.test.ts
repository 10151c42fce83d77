// The orders topic against the emulator: each command's answer rendered as JSON and as a table.
import { describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { activeAgreement } from '../helpers/flows.js'

const { payfac, json } = useEmulator()

describe('orders against the emulator', () => {
  it('creates, gets, lists, renames and cancels an order', async () => {
    const created = await json('orders', 'create', '--amount', '12.50', '--currency', 'AUD', '--reference', 'cmd-1', '--metadata', 'k=v')
    expect(created).toMatchObject({ referenceOrderId: 'cmd-1', amount: { minorCurrencyUnits: 1250, currency: 'AUD' }, metadata: { k: 'v' } })
    expect(created.orderId).toMatch(/^ordr_/)

    const table = await payfac('orders', 'get', created.orderId)
    expect(table.code).toBe(0)
    expect(table.stdout).toContain('12.50 AUD')
    expect(table.stdout).toContain('cmd-1')

    const renamed = await json('orders', 'set-reference', created.orderId, 'cmd-1b')
    expect(renamed.referenceOrderId).toBe('cmd-1b')

    const listed = await json('orders', 'list', '--reference', 'cmd-1b')
    expect(listed.map((o: { orderId: string }) => o.orderId)).toEqual([created.orderId])

    const listTable = await payfac('orders', 'list', '--limit', '5')
    expect(listTable.code).toBe(0)
    expect(listTable.stdout).toContain(created.orderId)

    await json('orders', 'cancel', created.orderId)
    const payCancelled = await payfac('orders', 'pay', created.orderId, '--token', 'ptkn_AAAAAAAAAAAAAAAA')
    expect([5, 6]).toContain(payCancelled.code)
    expect(payCancelled.stderr).toMatch(/^Error: /)
  })

  it('pays an order with a PayTo token and shows the paid transaction', async () => {
    const token = await activeAgreement(json, { oneOff: 1250 })
    const minted = await payfac(
      'api',
      'POST',
      '/tokens',
      '--data',
      JSON.stringify({ CreatePayToToken: { amount: { minorCurrencyUnits: 1250, currency: 'AUD' }, agreementToken: token } }),
    )
    expect(minted.code, minted.stderr).toBe(0)
    const paymentTokenId = JSON.parse(minted.stdout).PayToToken.paymentTokenId

    const order = await json('orders', 'create', '--amount', '12.50', '--currency', 'AUD', '--reference', 'cmd-2')
    const paid = await json('orders', 'pay', order.orderId, '--token', paymentTokenId)
    expect(paid).toMatchObject({ transactionStatus: 'paid', amount: 1250, currency: 'AUD' })

    const twice = await payfac('orders', 'pay', order.orderId, '--token', paymentTokenId)
    expect(twice.code).toBe(6)
  })
})
