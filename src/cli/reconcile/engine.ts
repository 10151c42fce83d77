// The reconciliation itself, pure and streaming: settlement entries are indexed once (by
// transaction and by refund, amounts only, in typed columns: entry-index.ts), then transactions, refunds and payouts are checked
// against that index as they stream past, and what is left over is reported at the end. Every
// difference names its kind, the reference (transaction, refund or payout id, or the ledger's
// reference), what was expected and what was found (money in minor units, records.ts); every
// entry that matched is a `matched` record; the totals and the summary close the run.
import { formatMinorUnits } from '../../client/money.js'
import { EntryIndex, type Slot } from './entry-index.js'
import type { LedgerBook } from './ledger.js'
import { type Difference, type ReconcileRecord, makeRecord, recordMoney } from './records.js'
import { EntryTotals } from './totals.js'

export type { Difference } from './records.js'

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
  | 'balance-mismatch'

type Loose = Record<string, unknown>

/** Statuses of a transaction whose money was taken: it must have one Payment and one ServiceFee entry. */
export const TAKEN = new Set(['paid', 'accepted', 'partially_refunded', 'refunded', 'disputed'])
/** Statuses whose entries (if any) are handed back in the ledger: not checked. */
const UNDONE = new Set(['cancelled'])

/** The kinds of entry a transaction's slot counts, and the one a refund's slot counts. */
const PAYMENT = 0
const FEE = 1
const REFUND = 0

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
  readonly totals = new EntryTotals()
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

  /** A difference: what was expected and what was found, in minor units of `currency`. */
  private diff(
    kind: DifferenceKind,
    reference: string | null,
    merchantId: string | null,
    money: { expected?: number | null; found?: number | null; count?: number; currency?: string },
    detail: string,
  ): Difference {
    this.differences += 1
    const currency = money.currency ?? this.currency
    return makeRecord({
      record: 'difference',
      kind,
      reference,
      merchantId,
      currency,
      expected: recordMoney(money.expected, currency),
      found: recordMoney(money.found, currency),
      count: money.count ?? null,
      matched: false,
      detail,
    }) as Difference
  }

  /** An entry (or a ledger line) that matched its record. */
  private match(kind: string, reference: string, merchantId: string | null, amount: number, detail: string | null = null): ReconcileRecord {
    return makeRecord({
      record: 'matched',
      kind,
      reference,
      merchantId,
      currency: this.currency,
      amount: recordMoney(amount, this.currency),
      count: 1,
      matched: true,
      detail,
    })
  }

  /** Indexes one settlement entry of the range (and adds it to the totals). */
  addEntry(e: Loose): void {
    this.entries += 1
    const amount = minor(e.amount) ?? 0
    const currency = currencyOf(e.amount, this.currency)
    const type = str(e.type) ?? ''
    this.totals.add(currency, type, amount)
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
  *checkTransaction(t: Loose): Generator<ReconcileRecord> {
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
      yield this.diff(
        'unexpected-entry',
        id,
        merchantId,
        { found: this.slotSum(slot), count: this.slotCount(slot), currency: slot.currency },
        `no entry expected (transaction ${status || 'without status'}): ${this.entryText(slot)}`,
      )
    }
    if (this.differences === before) this.matched += 1
  }

  private *one(what: 'payment' | 'fee', id: string, found: number[], expected: number, merchantId: string | null): Generator<ReconcileRecord> {
    const entry = what === 'payment' ? 'Payment' : 'ServiceFee'
    if (found.length === 0) {
      yield this.diff(what === 'payment' ? 'missing-payment' : 'missing-fee', id, merchantId, { expected }, `no ${entry} entry`)
    } else if (found.length > 1) {
      yield this.diff(
        what === 'payment' ? 'duplicate-payment' : 'duplicate-fee',
        id,
        merchantId,
        { expected, found: sum(found), count: found.length },
        `${found.length} ${entry} entries where 1 was expected: ${found.map((a) => this.money(a)).join(', ')}`,
      )
    } else if (found[0] !== expected) {
      yield this.diff(
        what === 'payment' ? 'payment-amount' : 'fee-mismatch',
        id,
        merchantId,
        { expected, found: found[0] as number },
        `${entry} entry of another amount`,
      )
    } else {
      yield this.match(what, id, merchantId, expected)
    }
  }

  /** Checks one refund of the range against its Refund entry (and the ledger). */
  *checkRefund(r: Loose): Generator<ReconcileRecord> {
    const id = str(r.refundId)
    if (!id) return
    const amountField = r.amount ?? r.refundAmount
    if (currencyOf(amountField ?? r.transactionAmount, this.currency) !== this.currency) return
    const amount = minor(amountField) ?? 0
    const merchantId = str(r.merchantId)
    const found = this.byRefund.take(id)?.amounts[REFUND] ?? []
    this.checked += 1
    const before = this.differences
    if (found.length === 0) yield this.diff('missing-refund', id, merchantId, { expected: -amount }, 'no Refund entry')
    else if (found.length > 1)
      yield this.diff(
        'duplicate-refund',
        id,
        merchantId,
        { expected: -amount, found: sum(found), count: found.length },
        `${found.length} Refund entries where 1 was expected: ${found.map((a) => this.money(a)).join(', ')}`,
      )
    else if (found[0] !== -amount)
      yield this.diff('refund-amount', id, merchantId, { expected: -amount, found: found[0] as number }, 'Refund entry of another amount')
    else yield this.match('refund', id, merchantId, -amount)
    if (this.ledger) yield* this.ledgerCheck([id], -amount, id, merchantId, true)
    if (this.differences === before) this.matched += 1
  }

  /**
   * Checks one payout: its swept entries (all but its own Payout entry), with what it brought
   * forward and carried forward, add up to its amount; and its Payout entry is there once.
   */
  checkPayout(payout: Loose, swept: number, payoutEntries: number[]): ReconcileRecord[] {
    const id = str(payout.payoutId) ?? '?'
    const amount = minor(payout.amount) ?? 0
    const merchantId = str(payout.merchantId)
    const breakdown = (payout.breakdown ?? {}) as Loose
    const brought = minor(breakdown.broughtForward) ?? 0
    const carried = minor(breakdown.carriedForward) ?? 0
    const currency = currencyOf(payout.amount, this.currency)
    const m = (n: number) => this.money(n, currency)
    const out: ReconcileRecord[] = []
    this.checked += 1
    const sumOf = brought + swept - carried
    if (sumOf !== amount) {
      out.push(
        this.diff(
          'payout-sum',
          id,
          merchantId,
          { expected: amount, found: sumOf, currency },
          `brought forward ${m(brought)} + entries ${m(swept)} − carried forward ${m(carried)}`,
        ),
      )
    }
    if (payoutEntries.length !== 1 || payoutEntries[0] !== -amount) {
      out.push(
        this.diff(
          'payout-entry',
          id,
          merchantId,
          { expected: -amount, found: payoutEntries.length === 0 ? null : sum(payoutEntries), count: payoutEntries.length, currency },
          payoutEntries.length === 0
            ? 'no Payout entry'
            : `${payoutEntries.length} Payout entries where 1 of ${m(-amount)} was expected: ${payoutEntries.map((a) => m(a)).join(', ')}`,
        ),
      )
    }
    if (out.length === 0) {
      this.matched += 1
      out.push(
        makeRecord({
          record: 'matched',
          kind: 'payout',
          reference: id,
          merchantId,
          currency,
          amount: recordMoney(-amount, currency),
          count: 1,
          matched: true,
          detail: `brought forward ${m(brought)} + entries ${m(swept)} − carried forward ${m(carried)}`,
        }),
      )
    }
    return out
  }

  private *ledgerCheck(references: Array<string | null>, amount: number, id: string, merchantId: string | null, optional = false): Generator<ReconcileRecord> {
    const book = this.ledger as LedgerBook
    const line = book.take(references, this.currency)
    if (!line) {
      if (!optional) yield this.diff('not-in-ledger', id, merchantId, { expected: amount }, 'no ledger line')
      return
    }
    if (Math.abs(line.amount) !== Math.abs(amount))
      yield this.diff('ledger-amount', line.reference, merchantId, { expected: Math.abs(amount), found: line.amount }, `ledger line ${line.line} (${id})`)
    else yield this.match('ledger', line.reference, merchantId, line.amount, `ledger line ${line.line} (${id})`)
  }

  private slotSum(slot: Slot): number {
    return slot.amounts.reduce((total, amounts) => total + sum(amounts), 0)
  }

  private slotCount(slot: Slot): number {
    return slot.amounts.reduce((n, amounts) => n + amounts.length, 0)
  }

  private entryText(slot: Slot): string {
    const payments = (slot.amounts[PAYMENT] ?? []).map((a) => `Payment ${this.money(a, slot.currency)}`)
    return [...payments, ...(slot.amounts[FEE] ?? []).map((a) => `ServiceFee ${this.money(a, slot.currency)}`)].join(', ')
  }

  /** Entries no transaction or refund of the range accounted for, and ledger lines nothing matched. */
  *finish(): Generator<ReconcileRecord> {
    for (const [id, slot] of this.byTransaction.drain()) {
      yield this.diff(
        'unexpected-entry',
        id,
        slot.merchantId,
        { found: this.slotSum(slot), count: this.slotCount(slot), currency: slot.currency },
        `no transaction paid in the range: ${this.entryText(slot)}`,
      )
    }
    for (const [id, slot] of this.byRefund.drain()) {
      const found = (slot.amounts[REFUND] ?? []).map((a) => `Refund ${this.money(a, slot.currency)}`)
      yield this.diff(
        'unexpected-entry',
        id,
        slot.merchantId,
        { found: this.slotSum(slot), count: this.slotCount(slot), currency: slot.currency },
        `no refund in the range: ${found.join(', ')}`,
      )
    }
    if (this.ledger) {
      for (const line of this.ledger.left(this.currency)) {
        this.checked += 1
        yield this.diff(
          'ledger-unmatched',
          line.reference,
          null,
          { expected: line.amount },
          `ledger line ${line.line}: no transaction or refund with this reference`,
        )
      }
    }
  }

  /** A difference found outside the engine's own checks (the balances), counted with the others. */
  balanceMismatch(merchantId: string | null, currency: string, closing: number, computed: number, detail: string): Difference {
    return this.diff('balance-mismatch', null, merchantId, { expected: closing, found: computed, currency }, detail)
  }

  /** The one record that says how the run went: counts, and whether everything matched. */
  summaryRecord(merchantId: string | null): ReconcileRecord {
    return makeRecord({
      record: 'summary',
      kind: 'summary',
      merchantId,
      count: this.checked,
      matched: this.differences === 0,
      detail: this.verdict(),
      records: this.checked,
      matchedRecords: this.matched,
      differences: this.differences,
      entries: this.entries,
    })
  }

  /** `Reconciled N records against M settlement entries: K matched, D differences`. */
  verdict(): string {
    const differences = `${this.differences} difference${this.differences === 1 ? '' : 's'}`
    return `Reconciled ${this.checked} records against ${this.entries} settlement entries: ${this.matched} matched, ${differences}`
  }

  /** The one-line summary for stderr. */
  summary(): string {
    const totals = this.totals.text()
    return `${this.label ? `${this.label}: ` : ''}${this.verdict()}${totals ? `. ${totals}` : ''}`
  }
}

const sum = (amounts: number[]): number => amounts.reduce((a, b) => a + b, 0)
