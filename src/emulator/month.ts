// The month fixture (control plane `POST /__emulator/fixtures/month`, `payfac emulator month`):
// a realistic month of a marketplace, built through the emulator's own operations, as a client
// would make it: sub-merchants, PayTo agreements, hundreds of orders paid, partly and wholly
// refunded, disputes opened and resolved, weekly payouts settled, the clock moved day by day.
// The namespace is reset first and its clock put back by the month, so that the month ends now.
// Deterministic for a given seed. Mismatches to find are added afterwards (month-mismatch.ts).
import { WELL_KNOWN } from '../well-known.js'

/** One operation through the pipeline; answers the parsed body, throws on a status ≥ 400. */
// biome-ignore lint/suspicious/noExplicitAny: the month builder reads the answers of the operations it just sent
export type Operation = (method: string, path: string, body?: unknown, merchantId?: string) => any

export interface MonthOptions {
  /** Sub-merchants created besides the two seeded merchants (default 3, at most 20). */
  subMerchants?: number | undefined
  /** Paid orders over the month (default 300, at most 5000). */
  transactions?: number | undefined
  /** Length of the month in days (default 30). */
  days?: number | undefined
  /** PRNG seed (default "month"). */
  seed?: string | undefined
}

export interface MonthSummary {
  from: string
  to: string
  currency: 'AUD'
  merchantIds: string[]
  transactionIds: string[]
  transactions: number
  refunds: number
  disputes: number
  payouts: number
}

/** mulberry32 over a string hash: the same month for the same seed. */
export function prng(seed: string): () => number {
  let h = 1779033703 ^ seed.length
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 3432918353)
  let a = h >>> 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const aud = (minorCurrencyUnits: number) => ({ minorCurrencyUnits, currency: 'AUD' })
const DAY = 86_400

interface Paid {
  transactionId: string
  merchantId: string
  amount: number
  refunded: number
}

/**
 * Builds the month with `op`, moving time with `advance` (seconds). The caller has reset the
 * namespace and put its clock `days` days back; `now()` reads emulator time.
 */
export function buildMonth(op: Operation, advance: (seconds: number) => void, now: () => Date, options: MonthOptions = {}): MonthSummary {
  const random = prng(options.seed ?? 'month')
  const days = options.days ?? 30
  const total = options.transactions ?? 300
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const from = now().toISOString()

  const merchantIds: string[] = [WELL_KNOWN.merchantId, WELL_KNOWN.subMerchantId]
  for (let i = 1; i <= (options.subMerchants ?? 3); i++) {
    const made = op('POST', '/merchants', {
      name: `Month Shop ${i} Pty Ltd`,
      industry: pick(['5399', '5411', '5651', '5732']),
      manualPayoutsEnabled: false,
      bankAccount: { bsb: '062-000', accountNumber: String(10_000_000 + i * 1111), accountName: `Month Shop ${i}` },
    })
    merchantIds.push(made.merchantId)
  }
  const agreements = new Map<string, string>()
  for (const merchantId of merchantIds) {
    const sent = op(
      'POST',
      '/payto/agreement',
      {
        customerName: 'Month Customer',
        customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
        terms: { AgreementRequestTermsOpen: {} },
        purpose: 'Month fixture',
      },
      merchantId,
    )
    agreements.set(merchantId, sent.token)
  }
  advance(5)

  const paid: Paid[] = []
  const summary = { refunds: 0, disputes: 0, payouts: 0 }
  const openDisputes: string[] = []
  let serial = 0
  for (let day = 0; day < days; day++) {
    // Spread evenly to the last day (10 a day for 300 over 30 days; 90 over 28 days gives 3 or 4),
    // so that the last days hold payments no payout has swept yet.
    const perDay = Math.floor(((day + 1) * total) / days) - Math.floor((day * total) / days)
    const step = Math.floor((DAY - 120) / (perDay + 2))
    for (let n = 0; n < perDay && serial < total; n++) {
      serial += 1
      const merchantId = pick(merchantIds)
      const amount = 500 + Math.floor(random() * 49_500)
      const token = op('POST', '/tokens', { CreatePayToToken: { amount: aud(amount), agreementToken: agreements.get(merchantId) } }, merchantId)
      const order = op(
        'POST',
        '/orders',
        { CreateOnlineOrder: { amount: aud(amount), referenceOrderId: `month-${serial}`, description: `Month order ${serial}` } },
        merchantId,
      )
      const done = op('POST', `/orders/${order.OnlineOrder.order.orderId}/pay`, { PayByPayTo: { paymentTokenId: token.PayToToken.paymentTokenId } }, merchantId)
      paid.push({ transactionId: done.PayOrderComplete.transactionId, merchantId, amount, refunded: 0 })
      advance(step)
      const chance = random()
      const earlier = pick(paid)
      if (chance < 0.12 && earlier.refunded < earlier.amount) {
        // Partly or wholly refunded, a few days after the payment at most.
        const left = earlier.amount - earlier.refunded
        const refund = random() < 0.5 ? left : Math.max(1, Math.floor(left * random()))
        op('PATCH', `/transactions/${earlier.transactionId}`, { CreateRefund: { refundAmount: refund } }, earlier.merchantId)
        earlier.refunded += refund
        summary.refunds += 1
      } else if (chance > 0.985 && earlier.refunded === 0) {
        const dispute = op('POST', '/simulation', { OpenDispute: { transactionId: earlier.transactionId, reason: 'Not received' } }, earlier.merchantId)
        earlier.refunded = earlier.amount
        openDisputes.push(`${earlier.merchantId} ${dispute.disputeId}`)
        summary.disputes += 1
      }
    }
    if (openDisputes.length > 0 && random() < 0.3) {
      const [merchantId, disputeId] = (openDisputes.shift() as string).split(' ') as [string, string]
      op('POST', '/simulation', { ResolveDispute: { disputeId, outcome: random() < 0.5 ? 'Won' : 'Lost' } }, merchantId)
    }
    // Weekly, but never on the last day: the month ends with payments, fees and refunds not yet paid out.
    if (day % 7 === 6 && day < days - 1) summary.payouts += weeklyPayouts(op, merchantIds)
    if (day < days - 1) advance(DAY - step * perDay)
  }
  return {
    from,
    to: now().toISOString(),
    currency: 'AUD',
    merchantIds,
    transactionIds: paid.map((p) => p.transactionId),
    transactions: paid.length,
    ...summary,
  }
}

/** The weekly run: the seeded merchant asks for its payout (manual payouts on), the others are paid out by the scheduled run; all are settled. */
function weeklyPayouts(op: Operation, merchantIds: string[]): number {
  const made: Array<{ payoutId: string; merchantId: string }> = []
  try {
    const manual = op('POST', '/transactions/payouts', { description: 'Weekly sweep' }, WELL_KNOWN.merchantId)
    made.push({ payoutId: manual.payoutId, merchantId: WELL_KNOWN.merchantId })
  } catch {
    // Nothing available this week.
  }
  for (const merchantId of merchantIds.filter((id) => id !== WELL_KNOWN.merchantId)) {
    const run = op('POST', '/simulation', { RunScheduledPayouts: { merchantId } })
    for (const p of run.payouts as Array<{ payoutId: string }>) made.push({ payoutId: p.payoutId, merchantId })
  }
  for (const p of made) op('POST', '/simulation', { SettlePayout: { payoutId: p.payoutId } })
  return made.length
}
