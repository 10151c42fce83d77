// The service as the second witness, against the emulator: a refund, a transfer or a payout made
// from one config folder, then run again from a fresh one (a new CI runner: no journal), is
// refused (exit 6 naming what the service shows) and nothing is sent; --again, a window of 0 or
// a different amount send; past the window (the emulator's clock moved on) it is sent again.
// Commands run in this process one at a time (runCommand swaps process.env and the streams).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { type EmulatorHarness, runnersFor, useEmulator } from '../helpers/command-harness.js'
import { advanceClock, paidByPayTo } from '../helpers/flows.js'

const folders: string[] = []
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true })
})

/** payfac as a fresh runner: a config folder of its own (no journal), with the given credential. */
function freshRunner(h: EmulatorHarness, credential?: string, extra: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'payfac-witness-'))
  folders.push(dir)
  return runnersFor(() => ({ ...(credential ? h.ctx.envWith(credential) : h.ctx.env), PAYFAC_CONFIG_DIR: dir, ...extra }))
}

/** Requests of `method` whose path starts with `prefix` the emulator has answered so far. */
function counter(h: EmulatorHarness, method: string, prefix: string) {
  return () => h.ctx.emulator.app.namespaces.root.requests.last(5000).filter((r) => r.method === method && r.url.startsWith(prefix)).length
}

describe('refunds', () => {
  const h = useEmulator()
  const refundsOf = async (id: string) => (await h.json('transactions', 'get', id)).purchaseDetails as { refundedAmount: number; refundIds: string[] }

  it('a fresh runner does not repeat a refund the service shows; --again, --repeat-window 0, PAYFAC_REPEAT_WINDOW=0 and another amount send', async () => {
    const { transactionId } = await paidByPayTo(h.json, '20.00', 'witness-refund')
    const refund = ['transactions', 'refund', transactionId, '--amount', '2.00']
    expect((await h.payfac(...refund)).code).toBe(0)
    const [refundId] = (await refundsOf(transactionId)).refundIds
    const patches = counter(h, 'PATCH', `/transactions/${transactionId}`)
    const sent = patches()

    const repeat = await freshRunner(h).payfac(...refund)
    expect(repeat.code, repeat.stderr).toBe(6)
    expect(repeat.stdout).toBe('')
    expect(repeat.stderr).toContain(
      `The service already shows an identical refund of 2.00 AUD on transaction ${transactionId}: refund ${refundId} of 2.00 AUD at 20`,
    )
    expect(repeat.stderr).toContain('within the 24h window. Nothing was sent')
    expect(repeat.stderr).toContain('--again')
    expect(patches()).toBe(sent)
    expect((await refundsOf(transactionId)).refundIds).toHaveLength(1)

    expect((await freshRunner(h).payfac(...refund, '--again')).code).toBe(0)
    expect((await freshRunner(h).payfac(...refund, '--repeat-window', '0')).code).toBe(0)
    expect((await freshRunner(h, undefined, { PAYFAC_REPEAT_WINDOW: '0' }).payfac(...refund)).code).toBe(0)
    expect((await freshRunner(h).payfac('transactions', 'refund', transactionId, '--amount', '2.01')).code).toBe(0)
    expect(await refundsOf(transactionId)).toMatchObject({ refundedAmount: 1001 })
    expect(patches()).toBe(sent + 4)
  })

  it('costs no request: the refund reads the transaction once, as it did for its guard', async () => {
    const { transactionId } = await paidByPayTo(h.json, '5.00', 'witness-reads')
    const reads = counter(h, 'GET', `/transactions/${transactionId}`)
    const before = reads()
    expect((await h.payfac('transactions', 'refund', transactionId, '--amount', '1.00')).code).toBe(0)
    expect(reads() - before).toBe(1)
    expect((await freshRunner(h).payfac('transactions', 'refund', transactionId, '--amount', '1.00')).code).toBe(6)
    expect(reads() - before).toBe(2)
  })

  it('a bad window is a usage error (exit 2) and nothing is sent', async () => {
    const { transactionId } = await paidByPayTo(h.json, '5.00', 'witness-bad')
    const patches = counter(h, 'PATCH', '/transactions/')
    const sent = patches()
    const flag = await h.payfac('transactions', 'refund', transactionId, '--amount', '1.00', '--repeat-window', 'soon')
    expect(flag.code).toBe(2)
    expect(flag.stderr).toContain('--repeat-window takes a duration')
    const variable = await freshRunner(h, undefined, { PAYFAC_REPEAT_WINDOW: 'a while' }).payfac('transactions', 'refund', transactionId, '--amount', '1.00')
    expect(variable.code).toBe(2)
    expect(variable.stderr).toContain('PAYFAC_REPEAT_WINDOW takes a duration')
    expect(patches()).toBe(sent)
  })
})

describe('the end of the window', () => {
  // An emulator of its own: the clock moves on here.
  const h = useEmulator()

  it('a refund older than the window is not a repeat; a shorter --repeat-window ends it sooner', async () => {
    const { transactionId } = await paidByPayTo(h.json, '9.00', 'witness-late')
    const refund = ['transactions', 'refund', transactionId, '--amount', '1.00']
    expect((await h.payfac(...refund)).code).toBe(0)
    await advanceClock(h.json, 2 * 3600)
    expect((await freshRunner(h).payfac(...refund)).code).toBe(6)
    expect((await freshRunner(h).payfac(...refund, '--repeat-window', '90m')).code).toBe(0)
    await advanceClock(h.json, 23 * 3600)
    // The refund just made (--repeat-window 90m) is 23 h old: within the default 24 h.
    const stillSeen = await freshRunner(h).payfac(...refund)
    expect(stillSeen.code).toBe(6)
    await advanceClock(h.json, 3600 + 5)
    expect((await freshRunner(h).payfac(...refund)).code, 'both refunds are over 24 h old').toBe(0)
    expect((await h.json('transactions', 'get', transactionId)).purchaseDetails.refundedAmount).toBe(300)
  })

  it('a payout is a repeat for 1 hour, not after', async () => {
    await h.json(
      'api',
      'POST',
      '/simulation',
      '--data',
      JSON.stringify({ IncomingBankTransfer: { merchantId: h.ctx.emulator.ids.merchantId, amount: { minorCurrencyUnits: 50000, currency: 'AUD' } } }),
    )
    const payout = ['payouts', 'request', '--amount', '7.00', '--currency', 'AUD']
    expect((await h.payfac(...payout)).code).toBe(0)
    await advanceClock(h.json, 59 * 60)
    expect((await freshRunner(h).payfac(...payout)).code).toBe(6)
    await advanceClock(h.json, 60 + 5)
    expect((await freshRunner(h).payfac(...payout)).code).toBe(0)
  })
})

describe('payouts', () => {
  const h = useEmulator()

  it('a fresh runner does not repeat a payout made within the hour; --again, --repeat-window 0 and another amount send', async () => {
    await h.json(
      'api',
      'POST',
      '/simulation',
      '--data',
      JSON.stringify({ IncomingBankTransfer: { merchantId: h.ctx.emulator.ids.merchantId, amount: { minorCurrencyUnits: 50000, currency: 'AUD' } } }),
    )
    const payout = ['payouts', 'request', '--amount', '11.00', '--currency', 'AUD']
    const first = await h.json(...payout)
    const posts = counter(h, 'POST', '/transactions/payouts')
    const lists = counter(h, 'GET', '/transactions/payouts')
    const [sent, listed] = [posts(), lists()]

    const repeat = await freshRunner(h).payfac(...payout)
    expect(repeat.code, repeat.stderr).toBe(6)
    expect(repeat.stderr).toContain(`The service already shows an identical payout request of 11.00 AUD: payout ${first.payoutId} of 11.00 AUD at 20`)
    expect(repeat.stderr).toContain('within the 1h window. Nothing was sent')
    expect(posts()).toBe(sent)
    expect(lists() - listed).toBe(1)

    expect((await freshRunner(h).payfac(...payout, '--again')).code).toBe(0)
    expect((await freshRunner(h).payfac(...payout, '--repeat-window', '0')).code).toBe(0)
    expect((await freshRunner(h).payfac('payouts', 'request', '--amount', '11.01', '--currency', 'AUD')).code).toBe(0)
    expect(posts()).toBe(sent + 3)
  })
})

describe('transfers', () => {
  const h = useEmulator()
  const key = () => h.ctx.emulator.credentials.marketplaceApiKey

  it('a fresh runner does not repeat a transfer or a partial reversal the service shows; --again and another destination or amount send', async () => {
    const { transactionId } = await paidByPayTo(h.json, '10.00', 'witness-transfer')
    const to = h.ctx.emulator.ids.subMerchantId
    const transfer = ['transactions', 'transfer', transactionId, '--to', to, '--amount', '2.50']
    expect((await h.marketplace.payfac(...transfer)).code).toBe(0)
    const transferId = (await h.json('transactions', 'get', transactionId)).transfers[0].transferId as string
    const patches = counter(h, 'PATCH', `/transactions/${transactionId}`)
    const sent = patches()

    const repeat = await freshRunner(h, key()).payfac(...transfer)
    expect(repeat.code, repeat.stderr).toBe(6)
    expect(repeat.stderr).toContain(`transfer ${transferId} of 2.50 AUD to ${to} at 20`)
    expect(repeat.stderr).toContain('within the 24h window. Nothing was sent')
    expect(patches()).toBe(sent)

    expect((await freshRunner(h, key()).payfac(...transfer, '--again')).code).toBe(0)
    expect((await freshRunner(h, key()).payfac('transactions', 'transfer', transactionId, '--to', to, '--amount', '1.00')).code).toBe(0)

    const reverse = ['transactions', 'reverse-transfer', transactionId, '--transfer', transferId, '--amount', '0.50']
    expect((await h.marketplace.payfac(...reverse)).code).toBe(0)
    const again = await freshRunner(h, key()).payfac(...reverse)
    expect(again.code, again.stderr).toBe(6)
    expect(again.stderr).toContain(`reversal of transfer ${transferId} of 0.50 AUD at 20`)
    // The rest of the transfer (no --amount) is another reversal: sent.
    expect((await freshRunner(h, key()).payfac('transactions', 'reverse-transfer', transactionId, '--transfer', transferId)).code).toBe(0)
    const after = await h.json('transactions', 'get', transactionId)
    expect(after.transfers).toHaveLength(3)
    expect(after.transfers[0]).toMatchObject({ transferId, reversedAmount: 250, status: 'Reversed' })
  })
})
