// payto charge under attack, against the emulator: racing runs, a lost answer and a re-run
// charge once; a loser exits 6 naming the winner's payment.
import { afterEach, describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { race } from '../helpers/race.js'

const { ctx, payfac, json, control } = useEmulator()
afterEach(async () => {
  await control('DELETE', '/faults')
})

async function activeAgreement(name: string): Promise<string> {
  const sent = await json('payto', 'agree', '--name', name, '--bban', '062-000 12345678', '--open')
  await json('simulate', 'SetPayToAgreementStatus', '--data', JSON.stringify({ token: sent.token, status: 'Active' }))
  return sent.token as string
}

const ordersOf = (reference: string) => ctx.emulator.app.store.orders.all().filter((o) => o.referenceOrderId === reference)
const paymentsOf = (reference: string) => {
  const ids = new Set(ordersOf(reference).map((o) => o.orderId))
  return ctx.emulator.app.store.transactions.all().filter((t) => t.orderId !== undefined && ids.has(t.orderId))
}

describe('payto charge under attack', () => {
  it('two processes racing with one reference pay once; the other says it was made', async () => {
    const token = await activeAgreement('Race Same')
    const results = await race(2, ['payto', 'charge', token, '--amount', '2.00', '--currency', 'AUD', '--reference', 'race-same'], ctx.env)
    const codes = results.map((r) => r.code).sort()
    expect(codes, results.map((r) => r.stderr).join('\n---\n')).toEqual([0, 6])
    expect(ordersOf('race-same')).toHaveLength(1)
    expect(paymentsOf('race-same')).toHaveLength(1)
  })

  it('a pay answered 500 after it was applied is unknown (exit 7); the re-run finds it and pays nothing more', async () => {
    const token = await activeAgreement('Pay 500')
    await control('POST', '/faults', { method: 'POST', pathPattern: '/orders/*/pay', fault: 'commit-then-status=500' })
    const first = await payfac('payto', 'charge', token, '--amount', '3', '--currency', 'AUD', '--reference', 'pay-500')
    expect(first.code, first.stderr).toBe(7)
    await control('DELETE', '/faults')
    const again = await payfac('payto', 'charge', token, '--amount', '3', '--currency', 'AUD', '--reference', 'pay-500')
    expect(again.code, again.stderr).toBe(0)
    expect(paymentsOf('pay-500')).toHaveLength(1)
    const third = await payfac('payto', 'charge', token, '--amount', '3', '--currency', 'AUD', '--reference', 'pay-500')
    expect(third.code, third.stderr).toBe(6)
    expect(paymentsOf('pay-500')).toHaveLength(1)
  })

  it('--dry-run sends nothing that changes anything', async () => {
    const token = await activeAgreement('Dry Run')
    const seen = ((await control('GET', '/requests?limit=500')) as { seq: number }[]).length
    const dry = await payfac('payto', 'charge', token, '--amount', '3', '--currency', 'AUD', '--reference', 'dry-1', '--dry-run')
    expect(dry.code, dry.stderr).toBe(0)
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, sent: false })
    const sent = ((await control('GET', '/requests?limit=500')) as { method: string; url: string }[]).slice(seen)
    expect(sent.filter((r) => r.method !== 'GET' && !r.url.startsWith('/__emulator'))).toEqual([])
    expect(ordersOf('dry-1')).toHaveLength(0)
  })
})
