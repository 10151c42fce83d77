// Charges and dry runs (issue 34, item 3): `payto charge` of the same agreement and amount within
// the repeat window is refused under another --reference too (before, two charges of 49.00
// seconds apart went through), and `--dry-run` runs the same repeat checks, read only, saying
// when the real run would be refused.
import { describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { paidByPayTo } from '../helpers/flows.js'

const { ctx, payfac, json } = useEmulator()

async function activeAgreement(name: string): Promise<string> {
  const sent = await json('payto', 'agree', '--name', name, '--bban', '062-000 12345678', '--open')
  await json('simulate', 'SetPayToAgreementStatus', '--data', JSON.stringify({ token: sent.token, status: 'Active' }))
  return sent.token as string
}

const paymentsOf = (reference: string) => {
  const ids = new Set(
    ctx.emulator.app.store.orders
      .all()
      .filter((o) => o.referenceOrderId === reference)
      .map((o) => o.orderId),
  )
  return ctx.emulator.app.store.transactions.all().filter((t) => t.orderId !== undefined && ids.has(t.orderId))
}

describe('payto charge: one charge of an agreement and amount within the window, whatever the reference', () => {
  it('a second charge of 49.00 under another reference is exit 6 naming the first; --again charges on purpose', async () => {
    const token = await activeAgreement('Monthly Payer')
    const first = await json('payto', 'charge', token, '--amount', '49.00', '--currency', 'AUD', '--reference', 'sub-a')
    const again = await payfac('payto', 'charge', token, '--amount', '49.00', '--currency', 'AUD', '--reference', 'sub-b')
    expect(again.code, again.stderr).toBe(6)
    expect(again.stderr).toContain(first.purchaseDetails.transactionId)
    expect(again.stderr).toContain('reference sub-a')
    expect(paymentsOf('sub-b')).toHaveLength(0)

    // The dry run says the real run would be refused, and sends nothing.
    const dry = await payfac('payto', 'charge', token, '--amount', '49.00', '--currency', 'AUD', '--reference', 'sub-c', '--dry-run')
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stderr).toMatch(/the real run would be refused \(exit 6\)/)
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, sent: false, wouldBeRefused: expect.stringContaining('sub-a') })
    expect(paymentsOf('sub-c')).toHaveLength(0)

    // Another amount is another charge; --again makes the repeat on purpose.
    expect((await payfac('payto', 'charge', token, '--amount', '12.00', '--currency', 'AUD', '--reference', 'sub-d')).code).toBe(0)
    const deliberate = await payfac('payto', 'charge', token, '--amount', '49.00', '--currency', 'AUD', '--reference', 'sub-b', '--again')
    expect(deliberate.code, deliberate.stderr).toBe(0)
    expect(paymentsOf('sub-b')).toHaveLength(1)
  })

  it('--repeat-window 0 leaves the check out', async () => {
    const token = await activeAgreement('Windowless Payer')
    await json('payto', 'charge', token, '--amount', '5.00', '--currency', 'AUD', '--reference', 'win-a')
    const second = await payfac('payto', 'charge', token, '--amount', '5.00', '--currency', 'AUD', '--reference', 'win-b', '--repeat-window', '0')
    expect(second.code, second.stderr).toBe(0)
  })
})

describe('--dry-run runs the repeat checks of the real run', () => {
  it('a refund already made: the dry run says the real run would be refused (exit 6), and sends nothing', async () => {
    const { transactionId } = await paidByPayTo(json, '20.00', 'dry-repeat')
    await json('transactions', 'refund', transactionId, '--amount', '2.00')
    const dry = await payfac('transactions', 'refund', transactionId, '--amount', '2.00', '--dry-run')
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stderr).toMatch(/the real run would be refused \(exit 6\): an identical refund of 2\.00 AUD .* was already made/)
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, wouldBeRefused: expect.stringContaining('already made') })
    const real = await payfac('transactions', 'refund', transactionId, '--amount', '2.00')
    expect(real.code).toBe(6)
    expect(ctx.emulator.app.store.refunds.all().filter((r) => r.transactionId === transactionId)).toHaveLength(1)
    // A new refund: the dry run has nothing to say about a repeat.
    const fresh = await payfac('transactions', 'refund', transactionId, '--amount', '3.00', '--dry-run')
    expect(fresh.code).toBe(0)
    expect(fresh.stderr).not.toContain('would be refused')
    expect(JSON.parse(fresh.stdout).wouldBeRefused).toBeUndefined()
  })
})

describe('payfac journal list|show read the local journal', () => {
  it('shows what was made, by which runner, and how to check it; an unknown record is exit 5', async () => {
    const { transactionId } = await paidByPayTo(json, '20.00', 'journal-list')
    const refund = await json('transactions', 'refund', transactionId, '--amount', '1.50')
    const made = refund.purchaseDetails.refundIds.at(-1)
    const rows = (await json('journal', 'list', '--kind', 'refund')) as Array<{
      id: string
      target: string
      state: string
      resultId: string
      runner: string
      check: string
    }>
    const row = rows.find((r) => r.target === transactionId)
    expect(row).toMatchObject({ state: 'done', resultId: made, check: `payfac transactions get ${transactionId}` })
    expect(row?.runner).toMatch(/@.* pid \d+$/)
    const shown = await json('journal', 'show', row?.id as string)
    expect(shown).toMatchObject({ id: row?.id, resultId: made, amount: '1.50 AUD' })
    expect((await json('journal', 'list', '--state', 'unknown')).filter((r: { target: string }) => r.target === transactionId)).toEqual([])
    const missing = await payfac('journal', 'show', '0123456789abcdef0123/refund-000000000000000000000000')
    expect(missing.code, missing.stderr).toBe(5)
    const bad = await payfac('journal', 'list', '--state', 'lost')
    expect(bad.code).toBe(2)
  })
})

describe('a reference the service could not find the order by again', () => {
  it('with a comma is refused (exit 2) by orders create, payto pay and payto charge, nothing sent', async () => {
    const orders = ctx.emulator.app.store.orders.all().length
    for (const argv of [
      ['orders', 'create', '--amount', '1.00', '--currency', 'AUD', '--reference', 'inv-1,inv-2'],
      ['payto', 'charge', 'ptagr_AAAAAAAAAAAAAAAA', '--amount', '1.00', '--currency', 'AUD', '--reference', 'sub,2026'],
      ['payto', 'pay', '--name', 'Jo', '--bban', '062-000 12345678', '--amount', '1.00', '--currency', 'AUD', '--reference', 'a,b'],
    ]) {
      const result = await payfac(...argv)
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).toMatch(/--reference must not contain a comma/)
    }
    expect(ctx.emulator.app.store.orders.all()).toHaveLength(orders)
  })
})
