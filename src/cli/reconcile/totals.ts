// The totals of the settlement entries a reconciliation read, per currency: payments, refunds,
// fees, payouts and other (what "other" holds, by entry type), their counts, and the net (the
// period's movements). Printed as `total` records and in the summary line on stderr.
import { formatMinorUnits } from '../../client/money.js'
import { type ReconcileRecord, makeRecord, recordMoney } from './records.js'

/** The kinds of total, in the order they are printed; `other` is every other entry type. */
export const TOTAL_KINDS = ['payments', 'refunds', 'fees', 'payouts', 'other'] as const
type TotalKind = (typeof TOTAL_KINDS)[number]

interface CurrencyTotals {
  amounts: Record<TotalKind, number>
  counts: Record<TotalKind, number>
  /** What `other` holds: each entry type's count and amount, in the order first met. */
  other: Map<string, { count: number; amount: number }>
}

const KIND_OF: Record<string, TotalKind> = { Payment: 'payments', Refund: 'refunds', ServiceFee: 'fees', Payout: 'payouts' }

export class EntryTotals {
  private readonly byCurrency = new Map<string, CurrencyTotals>()

  add(currency: string, type: string, amount: number): void {
    let t = this.byCurrency.get(currency)
    if (!t) {
      t = {
        amounts: { payments: 0, refunds: 0, fees: 0, payouts: 0, other: 0 },
        counts: { payments: 0, refunds: 0, fees: 0, payouts: 0, other: 0 },
        other: new Map(),
      }
      this.byCurrency.set(currency, t)
    }
    const kind = KIND_OF[type] ?? 'other'
    t.amounts[kind] += amount
    t.counts[kind] += 1
    if (kind === 'other') {
      const of = t.other.get(type) ?? { count: 0, amount: 0 }
      of.count += 1
      of.amount += amount
      t.other.set(type, of)
    }
  }

  currencies(): string[] {
    return [...this.byCurrency.keys()]
  }

  /** The net of the entries in `currency` (the period's movements), and how many there were. */
  movements(currency: string): { amount: number; count: number } {
    const t = this.byCurrency.get(currency)
    if (!t) return { amount: 0, count: 0 }
    return { amount: TOTAL_KINDS.reduce((n, kind) => n + t.amounts[kind], 0), count: TOTAL_KINDS.reduce((n, kind) => n + t.counts[kind], 0) }
  }

  /** Per currency: a row for each kind, one for each entry type "other" holds (the type as its kind), and the net. */
  *records(merchantId: string | null): Generator<ReconcileRecord> {
    for (const [currency, t] of this.byCurrency) {
      const total = (kind: string, amount: number, count: number, reference: string | null, detail: string | null) =>
        makeRecord({ record: 'total', kind, reference, merchantId, currency, amount: recordMoney(amount, currency), count, detail })
      for (const kind of TOTAL_KINDS) {
        const holds = kind === 'other' && t.other.size > 0 ? `entries of other types: ${[...t.other.keys()].join(', ')} (each on the rows that follow)` : null
        yield total(kind, t.amounts[kind], t.counts[kind], null, holds)
      }
      for (const [type, of] of t.other) yield total(type || '(no type)', of.amount, of.count, null, `${type || 'untyped'} entries, part of other`)
      const { amount, count } = this.movements(currency)
      yield total('net', amount, count, null, 'every entry read')
    }
  }

  /** `AUD: payments 1.00, refunds …, net …; NZD: …` for the summary line. */
  text(): string {
    return [...this.byCurrency]
      .map(([c, t]) => {
        const a = t.amounts
        const m = (n: number) => formatMinorUnits(n, c)
        return `${c}: payments ${m(a.payments)}, refunds ${m(a.refunds)}, fees ${m(a.fees)}, payouts ${m(a.payouts)}, other ${m(a.other)}, net ${m(this.movements(c).amount)}`
      })
      .join('; ')
  }
}
