// The reconciliation itself, pure and streaming: settlement entries are indexed once (by
// transaction and by refund, amounts only, in typed columns: entry-index.ts), then transactions, refunds and payouts are checked
// against that index as they stream past, and what is left over is reported at the end. Every
// difference names its kind, the reference (transaction, refund or payout id, or the ledger's
// reference), what was expected and what was found.
import { formatMinorUnits } from '../../client/money.js'
import { EntryIndex, type Slot } from './entry-index.js'
import type { LedgerBook } from './ledger.js'

export type DifferenceKind =
  | 'missing-payment'
  | 'duplicate-payment'
  | 'payment-amount'
  | 'missing-fee'
  | 'duplicate-fee'
  | 'fee-mismatch'
  | 'missing-refund'
  | 'duplicate-refund'
  | 'refund-amount'
  | 'unexpected-entry'
  | 'payout-sum'
  | 'payout-entry'
  | 'ledger-amount'
  | 'not-in-ledger'
  | 'ledger-unmatched'

export interface Difference {
  kind: DifferenceKind
  reference: string
  expected: string
  found: string
  merchantId: string | null
}

type Loose = Record<string, unknown>

/** Statuses of a transaction whose money was taken: it must have one Payment and one ServiceFee entry. */
export const TAKEN = new Set(['paid', 'accepted', 'partially_refunded', 'refunded', 'disputed'])
/** Statuses whose entries (if any) are handed back in the ledger: not checked. */
const UNDONE = new Set(['cancelled'])

/** The kinds of entry a transaction's slot counts, and the one a refund's slot counts. */
const PAYMENT = 0
const FEE = 1
const REFUND = 0

interface Totals {
  payments: number
  refunds: number
  fees: number
  payouts: number
  other: number
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)
const minor = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (v && typeof v === 'object' && typeof (v as Loose).minorCurrencyUnits === 'number') return (v as Loose).minorCurrencyUnits as number
  return null
}
const currencyOf = (v: unknown, fallback: string): string =>
  v && typeof v === 'object' && typeof (v as Loose).currency === 'string' ? ((v as Loose).currency as string) : fallback

export class Reconciler {
  /** Payment and ServiceFee entries by transaction, and Refund entries by refund (entry-index.ts). */
  private readonly byTransaction = new EntryIndex(2)
  private readonly byRefund = new EntryIndex(1)
  readonly totals = new Map<string, Totals>()
  entries = 0
  checked = 0
  matched = 0
  differences = 0

  constructor(
    private readonly currency: string,
    private readonly ledger?: LedgerBook,
    /** Said first in the summary (the merchant, in a fan-out). */
    private readonly label?: string,
  ) {}

  private money(amount: number, currency = this.currency): string {
    return `${formatMinorUnits(amount, currency)} ${currency}`
  }

  private diff(kind: DifferenceKind, reference: string, expected: string, found: string, merchantId: string | null): Difference {
    this.differences += 1
    return { kind, reference, expected, found, merchantId }
  }

  /** Indexes one settlement entry of the range (and adds it to the totals). */
  addEntry(e: Loose): void {
    this.entries += 1
    const amount = minor(e.amount) ?? 0
    const currency = currencyOf(e.amount, this.currency)
    const type = str(e.type) ?? ''
    const totals = this.totals.get(currency) ?? { payments: 0, refunds: 0, fees: 0, payouts: 0, other: 0 }
    this.totals.set(currency, totals)
    const bucket = type === 'Payment' ? 'payments' : type === 'Refund' ? 'refunds' : type === 'ServiceFee' ? 'fees' : type === 'Payout' ? 'payouts' : 'other'
    totals[bucket] += amount
    const merchantId = str(e.merchantId)
    const refundId = str(e.refundId)
    if (type === 'Refund' && refundId) {
      this.byRefund.add(refundId, REFUND, amount, merchantId, currency)
      return
    }
    const transactionId = str(e.transactionId)
    if ((type === 'Payment' || type === 'ServiceFee') && transactionId) {
      this.byTransaction.add(transactionId, type === 'Payment' ? PAYMENT : FEE, amount, merchantId, currency)
    }
  }

  /** Checks one transaction of the range against its entries (and the ledger). */
  *checkTransaction(t: Loose): Generator<Difference> {
    const p = (t.purchaseDetails ?? t) as Loose
    const id = str(p.transactionId) ?? str(t.transactionId)
    if (!id) return
    const currency = currencyOf(p.amount, this.currency)
    if (currency !== this.currency) return
    const status = str(p.status) ?? ''
    const slot = this.byTransaction.take(id)
    if (UNDONE.has(status)) return
    const merchantId = str(p.merchantId)
    this.checked += 1
    const before = this.differences
    if (TAKEN.has(status)) {
      const gross = (minor(p.amount) ?? 0) + (minor(p.surchargeAmount) ?? 0)
      yield* this.one('payment', id, slot?.amounts[PAYMENT] ?? [], gross, merchantId)
      const fees = (t.serviceFees ?? {}) as Loose
      const fee = minor(fees.totalAmount)
      if (fee !== null) yield* this.one('fee', id, slot?.amounts[FEE] ?? [], -fee, merchantId)
      if (this.ledger) yield* this.ledgerCheck([id, str(p.orderId), str(p.referenceOrderId)], minor(p.amount) ?? 0, id, merchantId)
    } else if (slot) {
      yield this.diff('unexpected-entry', id, `no entry (transaction ${status || 'without status'})`, this.entryText(slot), merchantId)
    }
    if (this.differences === before) this.matched += 1
  }

  private *one(what: 'payment' | 'fee', id: string, found: number[], expected: number, merchantId: string | null): Generator<Difference> {
    if (found.length === 0) {
      yield this.diff(what === 'payment' ? 'missing-payment' : 'missing-fee', id, this.money(expected), 'no entry', merchantId)
    } else if (found.length > 1) {
      yield this.diff(
        what === 'payment' ? 'duplicate-payment' : 'duplicate-fee',
        id,
        `1 entry of ${this.money(expected)}`,
        `${found.length} entries: ${found.map((a) => this.money(a)).join(', ')}`,
        merchantId,
      )
    } else if (found[0] !== expected) {
      yield this.diff(what === 'payment' ? 'payment-amount' : 'fee-mismatch', id, this.money(expected), this.money(found[0] as number), merchantId)
    }
  }

  /** Checks one refund of the range against its Refund entry (and the ledger). */
  *checkRefund(r: Loose): Generator<Difference> {
    const id = str(r.refundId)
    if (!id) return
    const amountField = r.amount ?? r.refundAmount
    if (currencyOf(amountField ?? r.transactionAmount, this.currency) !== this.currency) return
    const amount = minor(amountField) ?? 0
    const merchantId = str(r.merchantId)
    const found = this.byRefund.take(id)?.amounts[REFUND] ?? []
    this.checked += 1
    const before = this.differences
    if (found.length === 0) yield this.diff('missing-refund', id, this.money(-amount), 'no entry', merchantId)
    else if (found.length > 1) yield this.diff('duplicate-refund', id, `1 entry of ${this.money(-amount)}`, `${found.length} entries`, merchantId)
    else if (found[0] !== -amount) yield this.diff('refund-amount', id, this.money(-amount), this.money(found[0] as number), merchantId)
    if (this.ledger) yield* this.ledgerCheck([id], -amount, id, merchantId, true)
    if (this.differences === before) this.matched += 1
  }

  /**
   * Checks one payout: its swept entries (all but its own Payout entry), with what it brought
   * forward and carried forward, add up to its amount; and its Payout entry is there once.
   */
  checkPayout(payout: Loose, swept: number, payoutEntries: number[]): Difference[] {
    const id = str(payout.payoutId) ?? '?'
    const amount = minor(payout.amount) ?? 0
    const merchantId = str(payout.merchantId)
    const breakdown = (payout.breakdown ?? {}) as Loose
    const brought = minor(breakdown.broughtForward) ?? 0
    const carried = minor(breakdown.carriedForward) ?? 0
    const currency = currencyOf(payout.amount, this.currency)
    const m = (n: number) => this.money(n, currency)
    const out: Difference[] = []
    this.checked += 1
    const sum = brought + swept - carried
    if (sum !== amount) {
      out.push(
        this.diff('payout-sum', id, m(amount), `${m(sum)} (brought forward ${m(brought)} + entries ${m(swept)} − carried forward ${m(carried)})`, merchantId),
      )
    }
    if (payoutEntries.length !== 1 || payoutEntries[0] !== -amount) {
      out.push(
        this.diff(
          'payout-entry',
          id,
          `1 Payout entry of ${m(-amount)}`,
          payoutEntries.length === 0 ? 'no entry' : payoutEntries.map((a) => m(a)).join(', '),
          merchantId,
        ),
      )
    }
    if (out.length === 0) this.matched += 1
    return out
  }

  private *ledgerCheck(references: Array<string | null>, amount: number, id: string, merchantId: string | null, optional = false): Generator<Difference> {
    const book = this.ledger as LedgerBook
    const line = book.take(references, this.currency)
    if (!line) {
      if (!optional) yield this.diff('not-in-ledger', id, `a ledger line of ${this.money(amount)}`, 'none', merchantId)
      return
    }
    if (Math.abs(line.amount) !== Math.abs(amount))
      yield this.diff('ledger-amount', line.reference, this.money(Math.abs(amount)), `${this.money(line.amount)} (ledger line ${line.line})`, merchantId)
  }

  private entryText(slot: Slot): string {
    const payments = (slot.amounts[PAYMENT] ?? []).map((a) => `Payment ${this.money(a, slot.currency)}`)
    return [...payments, ...(slot.amounts[FEE] ?? []).map((a) => `ServiceFee ${this.money(a, slot.currency)}`)].join(', ')
  }

  /** Entries no transaction or refund of the range accounted for, and ledger lines nothing matched. */
  *finish(): Generator<Difference> {
    for (const [id, slot] of this.byTransaction.drain()) {
      yield this.diff('unexpected-entry', id, 'no transaction paid in the range', this.entryText(slot), slot.merchantId)
    }
    for (const [id, slot] of this.byRefund.drain()) {
      const found = (slot.amounts[REFUND] ?? []).map((a) => `Refund ${this.money(a, slot.currency)}`)
      yield this.diff('unexpected-entry', id, 'no refund in the range', found.join(', '), slot.merchantId)
    }
    if (this.ledger) {
      for (const line of this.ledger.left(this.currency)) {
        this.checked += 1
        yield this.diff(
          'ledger-unmatched',
          line.reference,
          `${this.money(line.amount)} (ledger line ${line.line})`,
          'no transaction or refund with this reference',
          null,
        )
      }
    }
  }

  /** The one-line summary for stderr. */
  summary(): string {
    const parts = [...this.totals].map(([c, t]) => {
      const net = t.payments + t.refunds + t.fees + t.payouts + t.other
      const m = (n: number) => formatMinorUnits(n, c)
      return `${c}: payments ${m(t.payments)}, refunds ${m(t.refunds)}, fees ${m(t.fees)}, payouts ${m(t.payouts)}, other ${m(t.other)}, net ${m(net)}`
    })
    const differences = `${this.differences} difference${this.differences === 1 ? '' : 's'}`
    return `${this.label ? `${this.label}: ` : ''}Reconciled ${this.checked} records against ${this.entries} settlement entries: ${this.matched} matched, ${differences}${parts.length ? `. ${parts.join('; ')}` : ''}`
  }
}
