// The second witness (src/cli/safety/witness.ts): the window, the service's times, and what
// counts as an identical refund, transfer, reversal or payout.
import { describe, expect, it } from 'vitest'

import type { PayfacClient } from '../../src/client/client.js'
import type { Page } from '../../src/client/pagination.js'
import type { Payout, Transaction } from '../../src/client/schemas/transactions.js'
import { UsageError } from '../../src/cli/errors/index.js'
import {
  DEFAULT_REPEAT_WINDOW_MS,
  findPayout,
  findRefund,
  findReversal,
  findTransfer,
  formatWindow,
  readTransactionTimed,
  repeatWindowMs,
  serviceTime,
  withinWindow,
  witnessPayout,
} from '../../src/cli/safety/witness.js'
import { parseRepeatWindow } from '../../src/cli/validate/durations.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const NOW = Date.parse('2026-11-25T12:00:00.000Z')
const ago = (ms: number) => new Date(NOW - ms).toISOString()

function transaction(timelines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): Transaction {
  return {
    purchaseDetails: { transactionId: 'tran_witness000000001', amount: { minorCurrencyUnits: 5000, currency: 'AUD' } },
    timelines,
    ...extra,
  } as Transaction
}

const refunded = (amount: number, eventTime: string | null | undefined, identifier = 'rfnd_one') => ({
  eventType: 'PaymentRefunded',
  amount,
  identifier,
  eventTime,
})

describe('the window', () => {
  it('takes durations with a unit, plain seconds, days, and 0', () => {
    expect(parseRepeatWindow('24h', '--repeat-window')).toBe(DAY)
    expect(parseRepeatWindow('90m', '--repeat-window')).toBe(90 * 60_000)
    expect(parseRepeatWindow('2d', '--repeat-window')).toBe(2 * DAY)
    expect(parseRepeatWindow('45', '--repeat-window')).toBe(45_000)
    expect(parseRepeatWindow('0', '--repeat-window')).toBe(0)
  })

  it.each([['-1h'], ['1.5h'], ['soon'], [''], ['24 hours']])('refuses "%s" as a usage error naming where it came from', (text) => {
    expect(() => parseRepeatWindow(text, 'PAYFAC_REPEAT_WINDOW')).toThrow(UsageError)
    expect(() => parseRepeatWindow(text, 'PAYFAC_REPEAT_WINDOW')).toThrow(/PAYFAC_REPEAT_WINDOW takes a duration/)
  })

  it('is 24 h for refunds and transfers and 1 h for payouts unless set; the flag wins over the variable', () => {
    expect(repeatWindowMs('refund', undefined, {})).toBe(DAY)
    expect(repeatWindowMs('transfer', undefined, {})).toBe(DAY)
    expect(repeatWindowMs('reverse-transfer', undefined, {})).toBe(DAY)
    expect(repeatWindowMs('payout', undefined, {})).toBe(HOUR)
    expect(repeatWindowMs('payout', undefined, { PAYFAC_REPEAT_WINDOW: '3h' })).toBe(3 * HOUR)
    expect(repeatWindowMs('refund', undefined, { PAYFAC_REPEAT_WINDOW: '0' })).toBe(0)
    expect(repeatWindowMs('refund', '10m', { PAYFAC_REPEAT_WINDOW: '3h' })).toBe(10 * 60_000)
    expect(repeatWindowMs('refund', undefined, { PAYFAC_REPEAT_WINDOW: ' ' })).toBe(DEFAULT_REPEAT_WINDOW_MS.refund)
    expect(() => repeatWindowMs('refund', undefined, { PAYFAC_REPEAT_WINDOW: 'later' })).toThrow(/PAYFAC_REPEAT_WINDOW/)
  })

  it('includes its edge and nothing older; a time ahead of now is within; no time is within; 0 holds nothing', () => {
    expect(withinWindow(NOW - DAY, NOW, DAY)).toBe(true)
    expect(withinWindow(NOW - DAY - 1, NOW, DAY)).toBe(false)
    expect(withinWindow(NOW + 5000, NOW, DAY)).toBe(true)
    expect(withinWindow(undefined, NOW, DAY)).toBe(true)
    expect(withinWindow(NOW, NOW, 0)).toBe(false)
    expect(withinWindow(undefined, NOW, 0)).toBe(false)
  })

  it('is written back in words', () => {
    expect(formatWindow(DAY)).toBe('24h')
    expect(formatWindow(90 * 60_000)).toBe('90m')
    expect(formatWindow(45_000)).toBe('45s')
  })
})

describe("the service's times", () => {
  it('reads ISO 8601 at any precision; without a zone it is UTC (the contract)', () => {
    expect(serviceTime('2023-06-22T01:52:52.096Z')).toBe(Date.UTC(2023, 5, 22, 1, 52, 52, 96))
    expect(serviceTime('2023-06-22T01:52:52.096861Z')).toBe(Date.UTC(2023, 5, 22, 1, 52, 52, 96))
    expect(serviceTime('2023-06-22T01:52:52')).toBe(Date.UTC(2023, 5, 22, 1, 52, 52))
    expect(serviceTime('2023-06-22T11:52:52+10:00')).toBe(Date.UTC(2023, 5, 22, 1, 52, 52))
  })

  it("reads a time without a zone as UTC whatever this machine's zone, with a space or a T", () => {
    const saved = process.env.TZ
    process.env.TZ = 'Australia/Sydney'
    try {
      expect(serviceTime('2023-06-22 01:52:52')).toBe(Date.UTC(2023, 5, 22, 1, 52, 52))
      expect(serviceTime('2023-06-22T01:52')).toBe(Date.UTC(2023, 5, 22, 1, 52))
      expect(serviceTime('2023-06-22T11:52:52+1000')).toBe(Date.UTC(2023, 5, 22, 1, 52, 52))
      expect(serviceTime('2023-06-22')).toBe(Date.UTC(2023, 5, 22))
      // Not ISO 8601: not guessed by the local zone's rules (it then counts as within the window).
      expect(serviceTime('Thu, 22 Jun 2023 01:52:52')).toBeUndefined()
      expect(serviceTime('06/22/2023 01:52')).toBeUndefined()
    } finally {
      if (saved === undefined) delete process.env.TZ
      else process.env.TZ = saved
    }
  })

  it.each([[undefined], [null], [''], ['not a time'], [1700000000000]])('has no time for %s', (value) => {
    expect(serviceTime(value)).toBeUndefined()
  })
})

describe('an identical refund', () => {
  it('is one of the same amount within the window, named with its id and time', () => {
    const t = transaction([{ eventType: 'PaymentSucceed', amount: 5000, eventTime: ago(2 * DAY) }, refunded(1000, ago(HOUR), 'rfnd_AbCdEfGh12345678')])
    expect(findRefund(t, 1000, 'AUD', NOW, DAY)).toBe(`refund rfnd_AbCdEfGh12345678 of 10.00 AUD at ${ago(HOUR)}, within the 24h window`)
  })

  it('is not one of another amount, nor one older than the window, nor in another currency', () => {
    const t = transaction([refunded(1000, ago(HOUR)), refunded(500, ago(DAY + 1))])
    expect(findRefund(t, 1001, 'AUD', NOW, DAY)).toBeUndefined()
    expect(findRefund(t, 500, 'AUD', NOW, DAY)).toBeUndefined()
    expect(findRefund(t, 1000, 'NZD', NOW, DAY)).toBeUndefined()
  })

  it('at the edge of the window still counts; a millisecond later it does not', () => {
    const t = transaction([refunded(1000, ago(DAY))])
    expect(findRefund(t, 1000, 'AUD', NOW, DAY)).toContain('rfnd_one')
    expect(findRefund(t, 1000, 'AUD', NOW + 1, DAY)).toBeUndefined()
  })

  it('with no time shown counts as within the window, and says so', () => {
    expect(findRefund(transaction([refunded(1000, null)]), 1000, 'AUD', NOW, DAY)).toBe(
      'refund rfnd_one of 10.00 AUD at a time the service does not show, within the 24h window',
    )
    expect(findRefund(transaction([refunded(1000, 'garbled')]), 1000, 'AUD', NOW, DAY)).toContain('rfnd_one')
  })

  it('is never found with a window of 0, nor on a transaction without a timeline', () => {
    expect(findRefund(transaction([refunded(1000, ago(0))]), 1000, 'AUD', NOW, 0)).toBeUndefined()
    expect(findRefund({ purchaseDetails: { refundIds: ['rfnd_one'], refundedAmount: 1000 } } as Transaction, 1000, 'AUD', NOW, DAY)).toBeUndefined()
  })

  it('names the newest when there are several', () => {
    const t = transaction([refunded(1000, ago(3 * HOUR), 'rfnd_older'), refunded(1000, ago(HOUR), 'rfnd_newer')])
    expect(findRefund(t, 1000, 'AUD', NOW, DAY)).toContain('rfnd_newer')
  })
})

describe('an identical transfer or reversal', () => {
  const transferred = (amount: number, id: string, eventTime: string) => ({ eventType: 'FundsTransferred', amount, identifier: id, eventTime })
  const transfers = [
    { transferId: 'trf_toSub', destinationMerchantId: 'mcht_sub', amount: { minorCurrencyUnits: 250, currency: 'AUD' } },
    { transferId: 'trf_toOther', destinationMerchantId: 'mcht_other', amount: { minorCurrencyUnits: 300, currency: 'AUD' } },
  ]

  it('is a transfer of the same amount to the same destination within the window', () => {
    const t = transaction([transferred(250, 'trf_toSub', ago(HOUR))], { transfers })
    expect(findTransfer(t, 250, 'mcht_sub', NOW, DAY)).toBe(`transfer trf_toSub of 2.50 AUD to mcht_sub at ${ago(HOUR)}, within the 24h window`)
    expect(findTransfer(t, 250, 'mcht_other', NOW, DAY)).toBeUndefined()
    expect(findTransfer(t, 251, 'mcht_sub', NOW, DAY)).toBeUndefined()
    expect(findTransfer(t, 250, 'mcht_sub', NOW + DAY, DAY)).toBeUndefined()
  })

  it('of the same amount counts whatever the destination when the service does not show where it went', () => {
    const t = transaction([transferred(300, 'trf_unlisted', ago(HOUR))])
    expect(findTransfer(t, 300, 'mcht_any', NOW, DAY)).toBe(`transfer trf_unlisted of 3.00 AUD at ${ago(HOUR)}, within the 24h window`)
  })

  it('is a reversal of the same transfer and amount within the window', () => {
    const t = transaction([{ eventType: 'FundsTransferReversed', amount: 100, identifier: 'trf_toSub', eventTime: ago(HOUR) }])
    expect(findReversal(t, 'trf_toSub', 100, NOW, DAY)).toBe(`reversal of transfer trf_toSub of 1.00 AUD at ${ago(HOUR)}, within the 24h window`)
    expect(findReversal(t, 'trf_toSub', 50, NOW, DAY)).toBeUndefined()
    expect(findReversal(t, 'trf_toOther', 100, NOW, DAY)).toBeUndefined()
    expect(findReversal(t, 'trf_toSub', 100, NOW, 0)).toBeUndefined()
    expect(findReversal(t, 'trf_toSub', 100, NOW + DAY, DAY)).toBeUndefined()
  })
})

const payout = (payoutId: string, minorCurrencyUnits: number, createdAt: string | undefined, extra: Record<string, unknown> = {}): Payout => ({
  payoutId,
  amount: { minorCurrencyUnits, currency: 'AUD' },
  ...(createdAt === undefined ? {} : { createdAt }),
  ...extra,
})
const TEN = { minorCurrencyUnits: 1000, currency: 'AUD' }

describe('an identical payout', () => {
  it('is one of the same amount and currency within the window', () => {
    const items = [payout('payout_other', 999, ago(60_000)), payout('payout_same', 1000, ago(30 * 60_000))]
    expect(findPayout(items, TEN, undefined, NOW, HOUR)).toBe(`payout payout_same of 10.00 AUD at ${ago(30 * 60_000)}, within the 1h window`)
    expect(findPayout(items, { minorCurrencyUnits: 1000, currency: 'nzd' }, undefined, NOW, HOUR)).toBeUndefined()
    expect(findPayout(items, TEN, undefined, NOW + 30 * 60_000 + 1, HOUR)).toBeUndefined()
    expect(findPayout(items, TEN, undefined, NOW, 0)).toBeUndefined()
  })

  it("is not another merchant's; one without a time counts", () => {
    expect(findPayout([payout('payout_theirs', 1000, ago(1000), { merchantId: 'mcht_b' })], TEN, 'mcht_a', NOW, HOUR)).toBeUndefined()
    expect(findPayout([payout('payout_ours', 1000, ago(1000), { merchantId: 'mcht_a' })], TEN, 'mcht_a', NOW, HOUR)).toContain('payout_ours')
    expect(findPayout([payout('payout_untimed', 1000, undefined)], TEN, undefined, NOW, HOUR)).toContain('at a time the service does not show')
  })
})

function pagedClient(pages: Payout[][], serverTime: number | undefined) {
  const asked: Array<number | undefined> = []
  const client = {
    transactions: {
      payouts: {
        list: async (query: { page?: number }) => {
          asked.push(query.page)
          const n = query.page ?? 1
          const page: Page<Payout> = { items: pages[n - 1] ?? [], page: n, limit: 100, pageCount: pages.length, totalRecordCount: pages.flat().length }
          if (serverTime !== undefined) page.serverTime = serverTime
          return page
        },
      },
    },
  } as unknown as PayfacClient
  return { client, asked }
}

describe('the payout witness read', () => {
  it("measures the window from the service's clock (its Date header), not this machine's", async () => {
    const serviceNow = Date.now() + 30 * DAY
    const { client } = pagedClient([[payout('payout_recent', 1000, new Date(serviceNow - 10 * 60_000).toISOString())]], serviceNow)
    expect((await witnessPayout(client, TEN, undefined, HOUR)).seen).toContain('payout_recent')
    const late = pagedClient([[payout('payout_recent', 1000, new Date(serviceNow - 2 * HOUR).toISOString())]], serviceNow)
    expect((await witnessPayout(late.client, TEN, undefined, HOUR)).seen).toBeUndefined()
  })

  it('reads one page when the page reaches past the window, and stops there', async () => {
    const now = NOW
    const { client, asked } = pagedClient(
      [[payout('payout_a', 500, ago(60_000)), payout('payout_b', 700, ago(2 * HOUR))], [payout('payout_c', 1000, ago(3 * HOUR))]],
      now,
    )
    const read = await witnessPayout(client, TEN, undefined, HOUR)
    expect(read.seen).toBeUndefined()
    expect(asked).toEqual([undefined])
    expect(read.firstPage.items.map((p) => p.payoutId)).toEqual(['payout_a', 'payout_b'])
  })

  it('reads on while every payout of a page is within the window', async () => {
    const { client, asked } = pagedClient([[payout('payout_a', 500, ago(60_000))], [payout('payout_b', 1000, ago(2 * 60_000))]], NOW)
    expect((await witnessPayout(client, TEN, undefined, HOUR)).seen).toContain('payout_b')
    expect(asked).toEqual([undefined, 2])
  })
})

describe('the payout witness asks for newest first', () => {
  it('finds a recent payout among more than a page although the service lists oldest first unless told', async () => {
    // 150 old payouts, then the identical one a minute ago: a service whose natural order is oldest first.
    const all = [...Array.from({ length: 150 }, (_, i) => payout(`payout_old${i}`, 1000, ago(3 * DAY + i))), payout('payout_recent', 1000, ago(60_000))]
    const asked: unknown[] = []
    const client = {
      transactions: {
        payouts: {
          list: async (query: { page?: number; limit?: number; sort?: string }) => {
            asked.push(query.sort)
            const ordered = query.sort === '-createdAt' ? [...all].reverse() : all
            const n = query.page ?? 1
            const limit = query.limit ?? 20
            return {
              items: ordered.slice((n - 1) * limit, n * limit),
              page: n,
              limit,
              pageCount: Math.ceil(all.length / limit),
              totalRecordCount: all.length,
              serverTime: NOW,
            }
          },
        },
      },
    } as unknown as PayfacClient
    expect((await witnessPayout(client, TEN, undefined, HOUR)).seen).toContain('payout_recent')
    expect(asked).toEqual(['-createdAt'])
  })
})

describe('the timed transaction read', () => {
  it('keeps the Date header as the service now, and the parsed transaction', async () => {
    const calls: unknown[] = []
    const client = {
      request: async (raw: unknown) => {
        calls.push(raw)
        return { status: 200, headers: { date: 'Wed, 25 Nov 2026 12:00:00 GMT' }, body: transaction([refunded(1000, ago(HOUR))]) }
      },
    } as unknown as PayfacClient
    const read = await readTransactionTimed(client, 'tran_witness000000001')
    expect(calls).toEqual([{ method: 'GET', path: '/transactions/tran_witness000000001' }])
    expect(read.serviceNow).toBe(NOW)
    expect(findRefund(read.transaction, 1000, 'AUD', read.serviceNow as number, DAY)).toContain('rfnd_one')
  })

  it('has no service now without a Date header', async () => {
    const client = { request: async () => ({ status: 200, headers: {}, body: transaction([]) }) } as unknown as PayfacClient
    expect((await readTransactionTimed(client, 'tran_witness000000001')).serviceNow).toBeUndefined()
  })
})
