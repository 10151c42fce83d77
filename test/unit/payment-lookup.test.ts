// Which of an order's transactions counts as its payment when a run looks before paying
// (src/cli/safety/order-ops.ts): a transaction whose status says it took no money does not; one
// without any status does, since paying again on a guess is how money moves twice.
import { describe, expect, it } from 'vitest'

import type { PayfacClient } from '../../src/client/client.js'
import { paymentOf, tookNoMoney } from '../../src/cli/safety/order-ops.js'

function clientWith(items: unknown[]): PayfacClient {
  return { transactions: { list: async () => ({ items }) } } as unknown as PayfacClient
}

const ORDER = 'ordr_LookupOrder000001'
const tx = (transactionId: string, status: string | undefined) => ({
  purchaseDetails: { transactionId, orderId: ORDER, ...(status === undefined ? {} : { status }) },
})

describe('the payment of an order', () => {
  it('skips the transactions that took no money, whatever their case', async () => {
    for (const status of ['failed', 'Declined', 'REJECTED', 'cancelled', 'canceled']) {
      expect(tookNoMoney(status)).toBe(true)
      expect(await paymentOf(clientWith([tx('tran_NoMoney000000001', status)]), ORDER)).toBeUndefined()
    }
  })

  it('counts a transaction without a status, or with a status it does not know, as the payment', async () => {
    expect(tookNoMoney(undefined)).toBe(false)
    expect((await paymentOf(clientWith([tx('tran_NoStatus00000001', undefined)]), ORDER))?.purchaseDetails?.transactionId).toBe('tran_NoStatus00000001')
    expect(
      (await paymentOf(clientWith([tx('tran_Failed000000001', 'failed'), tx('tran_Settling00000001', 'settling')]), ORDER))?.purchaseDetails?.transactionId,
    ).toBe('tran_Settling00000001')
  })

  it('ignores a transaction of another order', async () => {
    expect(
      await paymentOf(clientWith([{ purchaseDetails: { transactionId: 'tran_Other0000000001', orderId: 'ordr_Other0000000001', status: 'paid' } }]), ORDER),
    ).toBeUndefined()
  })
})
