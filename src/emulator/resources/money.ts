// The money side of /transactions: payouts, merchant invoices (with their PDF), settlement entries
// and the settlement report, disputes, and the refund list. Everything is read from the ledger
// (store.settlementEntries, ledger.ts), so balances, payouts, reports and invoices agree to the cent.
//
// Payouts. A payout takes money out of the available balance: it writes one negative `Payout`
// ledger entry and marks (`payoutId`) every entry it sweeps: the merchant's entries in that
// currency that are available and not yet in a payout. A payout of less than the available
// balance carries the rest forward to the merchant's next payout in that currency, so that for
// every payout: broughtForward + Σ swept entries − carriedForward = amount. States: Pending
// (money has left the balance, on its way to the bank), then Paid (the SettlePayout simulation).
//
// Invoices. One invoice per merchant, currency and calendar month (UTC) with service fees: its
// lines are the month's ServiceFee ledger entries, so its total is exactly what the fees took
// from the balance. The id is derived from (merchant, currency, month) and so never changes.
// Status Open during the month, Issued from the first day of the next.
//
// Disputes are opened and resolved by simulation (simulation-money.ts); they write DisputeDebit
// and DisputeCredit ledger entries.
import { createHash } from 'node:crypto'
import { z } from 'zod'
import { formatMinorUnits, type Money } from '../../client/money.js'
import { CurrencyCode, Money as MoneyInput } from '../../client/schemas/common.js'
import type { DisputeRecord, PayoutRecord } from '../account-records.js'
import { EmulatorError, badRequest, conflict, notFound, unprocessable } from '../api-error.js'
import { PRIVATE, requireMerchant, visibleMerchantIds, visibleOr404 } from '../auth.js'
import { addDays, isoDate, timestamp } from '../clock.js'
import { csvRow } from '../csv.js'
import { emitEvent } from '../events.js'
import { appendLedger, ledgerTotal, type SettlementEntry } from '../ledger.js'
import { filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import type { Query } from '../collection.js'
import { renderPdf, type PdfLine } from '../pdf.js'
import { Reply, StreamBody, route, type HandlerContext } from '../route.js'
import { lookup, type MerchantRecord, type Store, type TransactionRecord } from '../store.js'
import { accountNumberHint, primaryBankAccount, profileOf } from './merchants.js'

const money = (minorCurrencyUnits: number, currency: string): Money => ({ minorCurrencyUnits, currency })

// Payouts -------------------------------------------------------------------------------------

/** Days from a payout to the money's expected arrival in the bank account (the emulator's own). */
export const PAYOUT_ARRIVAL_DAYS = 1

const RequestPayoutBody = z.strictObject({
  /** Default: the whole available balance in `currency` (or the merchant's currency). */
  amount: MoneyInput.optional(),
  currency: CurrencyCode.optional(),
  /** Default: the primary bank account. */
  bankAccountId: z.string().min(1).optional(),
  description: z.string().trim().min(1).max(140).optional(),
})

export interface NewPayout {
  payoutType: PayoutRecord['payoutType']
  currency: string
  /** Default: the whole available balance. */
  amount?: number
  bankAccountId?: string
  description?: string
}

/** The last payout of a merchant in a currency (creation order), if any. */
function lastPayout(store: Store, merchantId: string, currency: string): PayoutRecord | undefined {
  let last: PayoutRecord | undefined
  for (const p of store.payouts.byIndex('merchantId', merchantId)) if (p.amount.currency === currency) last = p
  return last
}

/** Makes a payout (checks, ledger, record, event). Manual payouts also need manual payouts enabled. */
export function createPayout(ctx: HandlerContext, merchant: MerchantRecord, input: NewPayout): PayoutRecord {
  if (input.payoutType === 'Manual' && !merchant.manualPayoutsEnabled) {
    throw conflict('manual_payouts_disabled', `Manual payouts are not enabled for merchant ${merchant.merchantId}`)
  }
  const now = ctx.clock.now()
  const today = isoDate(now)
  const currency = input.currency
  const available = ledgerTotal(ctx.store.settlementEntries, merchant.merchantId, currency, now)
  const amount = input.amount ?? available
  if (amount <= 0) {
    throw unprocessable(
      input.amount === undefined ? 'insufficient_balance' : 'invalid_amount',
      input.amount === undefined ? `There is no available balance in ${currency} to pay out` : 'The payout amount must be greater than zero',
    )
  }
  if (amount > available) {
    throw insufficientBalance(amount, available, currency)
  }
  const bank = input.bankAccountId === undefined ? primaryBankAccount(merchant) : merchant.bankAccounts.find((b) => b.bankAccountId === input.bankAccountId)
  if (input.bankAccountId !== undefined && !bank) throw notFound(`Bank account of merchant ${merchant.merchantId}`, input.bankAccountId)
  if (!bank) throw conflict('no_bank_account', 'The merchant has no bank account to pay out to; add one with AddMerchantBankAccount')

  const payoutId = ctx.ids.next('payout')
  let swept = 0
  for (const e of ctx.store.settlementEntries) {
    if (e.merchantId !== merchant.merchantId || e.amount.currency !== currency || e.payoutId !== null) continue
    if (e.type === 'Payout' || e.availableOn > today) continue
    e.payoutId = payoutId
    ctx.store.settlementEntries.reindex(e.settlementEntryId)
    swept += e.amount.minorCurrencyUnits
  }
  const broughtForward = lastPayout(ctx.store, merchant.merchantId, currency)?.carriedForward ?? 0
  const record: PayoutRecord = {
    payoutId,
    merchantId: merchant.merchantId,
    payoutType: input.payoutType,
    status: 'Pending',
    amount: money(amount, currency),
    description: input.description ?? `${input.payoutType} payout`,
    bankAccountId: bank.bankAccountId,
    broughtForward,
    carriedForward: broughtForward + swept - amount,
    createdAt: timestamp(now),
    updatedAt: timestamp(now),
    expectedArrivalOn: isoDate(addDays(now, PAYOUT_ARRIVAL_DAYS)),
    paidAt: null,
  }
  ctx.store.payouts.set(payoutId, record)
  appendLedger(ctx, { merchantId: merchant.merchantId, type: 'Payout', amount: money(-amount, currency), description: `Payout ${payoutId} to ${bank.bsb} ${accountNumberHint(bank.accountNumber)}`, payoutId })
  emitEvent(ctx, 'PayoutCreated', merchant.merchantId, { payout: payoutView(ctx.store, record) })
  return record
}

function insufficientBalance(amount: number, available: number, currency: string): EmulatorError {
  return new EmulatorError(
    422,
    'insufficient_balance',
    `The available balance is ${formatMinorUnits(available, currency)} ${currency}; a payout of ${formatMinorUnits(amount, currency)} ${currency} cannot be made`,
    { metadata: { available: money(available, currency) } },
  )
}

/** Marks a Pending payout Paid (the money reached the bank) and emits PayoutPaid. */
export function settlePayout(ctx: HandlerContext, payout: PayoutRecord): PayoutRecord {
  if (payout.status === 'Paid') throw conflict('payout_already_paid', `Payout ${payout.payoutId} has already been paid`)
  const now = timestamp(ctx.clock.now())
  payout.status = 'Paid'
  payout.paidAt = now
  payout.updatedAt = now
  emitEvent(ctx, 'PayoutPaid', payout.merchantId, { payout: payoutView(ctx.store, payout) })
  return payout
}

function bankAccountView(store: Store, payout: PayoutRecord) {
  const merchant = lookup(store.merchants, payout.merchantId)
  const bank = merchant?.bankAccounts.find((b) => b.bankAccountId === payout.bankAccountId)
  return {
    bankAccountId: payout.bankAccountId,
    accountName: bank?.accountName ?? null,
    bsb: bank?.bsb ?? null,
    accountNumberHint: bank ? accountNumberHint(bank.accountNumber) : null,
  }
}

/** A payout summary (lists, events). */
export function payoutView(store: Store, p: PayoutRecord) {
  return {
    payoutId: p.payoutId,
    merchantId: p.merchantId,
    payoutType: p.payoutType,
    status: p.status,
    amount: p.amount,
    description: p.description,
    bankAccount: bankAccountView(store, p),
    expectedArrivalOn: p.expectedArrivalOn,
    paidAt: p.paidAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  }
}

/** Totals by entry type, types in the order they first occur. */
function byType(entries: readonly SettlementEntry[], currency: string) {
  const groups = new Map<string, { type: string; count: number; amount: Money }>()
  for (const e of entries) {
    const group = groups.get(e.type) ?? { type: e.type, count: 0, amount: money(0, currency) }
    group.count += 1
    group.amount.minorCurrencyUnits += e.amount.minorCurrencyUnits
    groups.set(e.type, group)
  }
  return [...groups.values()]
}

/** `GET /transactions/payouts/{id}`: the summary, the breakdown of what it pays out, and where the money went. */
function payoutDetail(store: Store, p: PayoutRecord) {
  const currency = p.amount.currency
  const swept = store.settlementEntries.byIndex('payoutId', p.payoutId).filter((e) => e.type !== 'Payout')
  const bank = bankAccountView(store, p)
  return {
    ...payoutView(store, p),
    breakdown: {
      broughtForward: money(p.broughtForward, currency),
      entries: byType(swept, currency),
      entryCount: swept.length,
      carriedForward: money(p.carriedForward, currency),
      total: p.amount,
    },
    disbursement: {
      method: 'BankTransfer',
      reference: `PAYOUT ${p.payoutId.slice(-8).toUpperCase()}`,
      ...bank,
      expectedArrivalOn: p.expectedArrivalOn,
      paidAt: p.paidAt,
    },
  }
}

export function visiblePayout(ctx: HandlerContext, id: string): PayoutRecord {
  return visibleOr404(ctx, ctx.store.payouts, id, 'Payout')
}

// Invoices ------------------------------------------------------------------------------------

interface InvoiceLine {
  settlementEntryId: string
  transactionId: string | null
  orderId: string | null
  description: string
  createdAt: string
  variableAmount: number
  fixedAmount: number
  taxAmount: number
  /** What the line charged (a returned fee is negative). */
  amount: number
}

interface Invoice {
  invoiceId: string
  merchantId: string
  currency: string
  period: string
  periodStart: string
  periodEnd: string
  status: 'Open' | 'Issued'
  issuedOn: string | null
  createdAt: string
  updatedAt: string
  lines: InvoiceLine[]
}

/** The invoice id of a merchant's fees in a currency and month: `inv_` + 16 characters of a hash. */
export function invoiceIdFor(merchantId: string, currency: string, period: string): string {
  return `inv_${createHash('sha256').update(`${merchantId}|${currency}|${period}`).digest('base64url').slice(0, 16)}`
}

function lineOf(store: Store, e: SettlementEntry): InvoiceLine {
  const amount = -e.amount.minorCurrencyUnits
  const txn: TransactionRecord | undefined = e.transactionId === null ? undefined : lookup(store.transactions, e.transactionId)
  const fees = txn?.details.serviceFees
  let variableAmount: number
  let fixedAmount: number
  let taxAmount: number
  if (fees && Math.abs(amount) === fees.totalAmount && fees.totalAmount !== 0) {
    const sign = Math.sign(amount)
    variableAmount = sign * fees.variableAmount
    fixedAmount = sign * fees.fixedAmount
    taxAmount = sign * fees.taxAmount
  } else {
    taxAmount = Math.round(amount / 11)
    fixedAmount = 0
    variableAmount = amount - taxAmount
  }
  return { settlementEntryId: e.settlementEntryId, transactionId: e.transactionId, orderId: e.orderId, description: e.description, createdAt: e.createdAt, variableAmount, fixedAmount, taxAmount, amount }
}

function lastDayOf(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number]
  return isoDate(new Date(Date.UTC(year, month, 0)))
}

function firstDayAfter(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number]
  return isoDate(new Date(Date.UTC(year, month, 1)))
}

/** Every invoice of the given merchants, from the ledger's ServiceFee entries. */
export function invoicesOf(store: Store, merchantIds: ReadonlySet<string>, now: Date): Invoice[] {
  const byKey = new Map<string, Invoice>()
  const today = isoDate(now)
  // The fee entries of these merchants, in creation order (lines are listed in that order).
  const fees = store.settlementEntries
    .select({ where: { type: ['ServiceFee'], merchantId: [...merchantIds] } })
    .slots()
    .slice()
    .sort((a, b) => a.seq - b.seq)
  for (const { record: e } of fees) {
    const period = e.createdAt.slice(0, 7)
    const currency = e.amount.currency
    const key = `${e.merchantId}|${currency}|${period}`
    let invoice = byKey.get(key)
    if (!invoice) {
      const issuedOn = firstDayAfter(period)
      invoice = {
        invoiceId: invoiceIdFor(e.merchantId, currency, period),
        merchantId: e.merchantId,
        currency,
        period,
        periodStart: `${period}-01`,
        periodEnd: lastDayOf(period),
        status: issuedOn <= today ? 'Issued' : 'Open',
        issuedOn: issuedOn <= today ? issuedOn : null,
        createdAt: e.createdAt,
        updatedAt: e.createdAt,
        lines: [],
      }
      byKey.set(key, invoice)
    }
    invoice.lines.push(lineOf(store, e))
    invoice.updatedAt = e.createdAt
  }
  return [...byKey.values()]
}

function invoiceTotals(invoice: Invoice) {
  const sum = (pick: (l: InvoiceLine) => number) => invoice.lines.reduce((s, l) => s + pick(l), 0)
  const c = invoice.currency
  return {
    variableAmount: money(sum((l) => l.variableAmount), c),
    fixedAmount: money(sum((l) => l.fixedAmount), c),
    subtotalAmount: money(sum((l) => l.variableAmount + l.fixedAmount), c),
    taxAmount: money(sum((l) => l.taxAmount), c),
    totalAmount: money(sum((l) => l.amount), c),
  }
}

function invoiceSummary(invoice: Invoice) {
  const totals = invoiceTotals(invoice)
  return {
    invoiceId: invoice.invoiceId,
    merchantId: invoice.merchantId,
    period: invoice.period,
    periodStart: invoice.periodStart,
    periodEnd: invoice.periodEnd,
    status: invoice.status,
    issuedOn: invoice.issuedOn,
    currency: invoice.currency,
    lineCount: invoice.lines.length,
    subtotalAmount: totals.subtotalAmount,
    taxAmount: totals.taxAmount,
    totalAmount: totals.totalAmount,
    /** Fees are taken from the settlement as they occur: nothing is left to pay. */
    settledBy: 'DeductedFromSettlement',
    amountDue: money(0, invoice.currency),
    createdAt: invoice.createdAt,
    updatedAt: invoice.updatedAt,
  }
}

function invoiceDetail(store: Store, invoice: Invoice) {
  const merchant = lookup(store.merchants, invoice.merchantId)
  const profile = profileOf(store, invoice.merchantId)
  const c = invoice.currency
  return {
    ...invoiceSummary(invoice),
    breakdown: invoiceTotals(invoice),
    billingDetails: {
      merchantId: invoice.merchantId,
      name: merchant?.name ?? null,
      businessNumber: profile.businessNumber,
      emailAddress: profile.emailAddress,
      address: profile.address,
    },
    lines: invoice.lines.map((l) => ({
      settlementEntryId: l.settlementEntryId,
      transactionId: l.transactionId,
      orderId: l.orderId,
      description: l.description,
      createdAt: l.createdAt,
      variableAmount: money(l.variableAmount, c),
      fixedAmount: money(l.fixedAmount, c),
      taxAmount: money(l.taxAmount, c),
      amount: money(l.amount, c),
    })),
  }
}

function visibleInvoice(ctx: HandlerContext, id: string): Invoice {
  const invoice = invoicesOf(ctx.store, visibleMerchantIds(ctx.store, ctx.scope), ctx.clock.now()).find((i) => i.invoiceId === id)
  if (!invoice) throw notFound('Invoice', id)
  return invoice
}

function invoicePdf(store: Store, invoice: Invoice): Buffer {
  const detail = invoiceDetail(store, invoice)
  const fmt = (m: Money) => `${formatMinorUnits(m.minorCurrencyUnits, m.currency)} ${m.currency}`
  const col = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}~` : text.padEnd(width))
  const lines: Array<PdfLine | string> = [
    { text: 'Tax invoice: service fees', heading: true },
    `Invoice ${invoice.invoiceId}`,
    `Period ${invoice.periodStart} to ${invoice.periodEnd} (${invoice.status}${invoice.issuedOn ? `, issued ${invoice.issuedOn}` : ''})`,
    { text: 'Bill to', heading: true, gapBefore: 6 },
    `${detail.billingDetails.name ?? invoice.merchantId} (${invoice.merchantId})`,
    ...(detail.billingDetails.businessNumber ? [`ABN/ACN ${detail.billingDetails.businessNumber}`] : []),
    { text: 'Lines', heading: true, gapBefore: 6 },
    `${col('Date', 12)}${col('Transaction', 24)}${col('Fee', 14)}${col('GST', 12)}Amount`,
    ...detail.lines.map((l) => {
      const fee = money(l.variableAmount.minorCurrencyUnits + l.fixedAmount.minorCurrencyUnits, l.amount.currency)
      return `${col(l.createdAt.slice(0, 10), 12)}${col(l.transactionId ?? '-', 24)}${col(fmt(fee), 14)}${col(fmt(l.taxAmount), 12)}${fmt(l.amount)}`
    }),
    { text: `Subtotal (excluding GST): ${fmt(detail.breakdown.subtotalAmount)}`, gapBefore: 6 },
    `GST: ${fmt(detail.breakdown.taxAmount)}`,
    { text: `Total: ${fmt(detail.breakdown.totalAmount)}`, heading: true },
    'These fees were deducted from your settlement as they occurred; nothing is left to pay.',
  ]
  return renderPdf({ title: `Invoice ${invoice.invoiceId}`, lines })
}

// Settlement ----------------------------------------------------------------------------------

/** What a settlement query asks for; 400 when neither payoutId nor currency + both dates are given. */
function settlementQuery(ctx: HandlerContext, query: URLSearchParams): SettlementSelection {
  const f = filters(query)
  const payoutId = f.string('payoutId')
  const currency = f.string('currency')?.toUpperCase()
  const after = f.dateTime('createdAfter')
  const before = f.dateTime('createdBefore')
  if (payoutId === undefined) {
    const missing = [currency === undefined && 'currency', after === undefined && 'createdAfter', before === undefined && 'createdBefore'].filter(Boolean)
    if (missing.length > 0) {
      throw badRequest(
        'settlement_filter_required',
        `Settlement queries need payoutId, or all of currency, createdAfter and createdBefore (missing: ${missing.join(', ')})`,
      )
    }
  }
  const merchantIds = f.list('merchantId')
  const types = f.list('type')
  const transactionIds = f.list('transactionId')
  const visible = visibleMerchantIds(ctx.store, ctx.scope)
  const select: Query<SettlementEntry> = {
    where: {
      merchantId: merchantsWithin(visible, merchantIds),
      payoutId: payoutId === undefined ? undefined : [payoutId],
      currency: currency === undefined ? undefined : [currency],
      type: types,
      transactionId: transactionIds,
    },
    after,
    before,
  }
  const payoutCurrency = payoutId === undefined ? undefined : lookup(ctx.store.payouts, payoutId)?.amount.currency
  return { select, currency: currency ?? null, payoutCurrency: payoutCurrency ?? null, payoutId: payoutId ?? null }
}

interface SettlementSelection {
  select: Query<SettlementEntry>
  /** The currency the query names. */
  currency: string | null
  /** The currency of the payout the query names. */
  payoutCurrency: string | null
  payoutId: string | null
}

/**
 * The report's summary, added up entry by entry while the entries are written. Its currency is
 * the query's, else the first entry's, else the payout's.
 */
class SettlementSummary {
  #credits = 0
  #debits = 0
  #count = 0
  #currency: string | null = null
  readonly #types = new Map<string, { type: string; count: number; amount: Money }>()
  readonly #merchants = new Map<string, { merchantId: string; count: number; net: Money }>()

  constructor(
    private readonly selection: SettlementSelection,
    private readonly query: URLSearchParams,
  ) {}

  add(e: SettlementEntry): void {
    if (this.#count === 0) this.#currency = this.selection.currency ?? e.amount.currency
    this.#count += 1
    const amount = e.amount.minorCurrencyUnits
    if (amount >= 0) this.#credits += amount
    else this.#debits += amount
    const currency = this.#currency ?? ''
    const group = this.#types.get(e.type) ?? { type: e.type, count: 0, amount: money(0, currency) }
    group.count += 1
    group.amount.minorCurrencyUnits += amount
    this.#types.set(e.type, group)
    const m = this.#merchants.get(e.merchantId) ?? { merchantId: e.merchantId, count: 0, net: money(0, currency) }
    m.count += 1
    m.net.minorCurrencyUnits += amount
    this.#merchants.set(e.merchantId, m)
  }

  result() {
    const selected = this.#count === 0 ? (this.selection.currency ?? this.selection.payoutCurrency) : this.#currency
    const currency = selected ?? ''
    return {
      currency: selected,
      payoutId: this.selection.payoutId,
      createdAfter: this.query.get('createdAfter'),
      createdBefore: this.query.get('createdBefore'),
      entryCount: this.#count,
      totalCredits: money(this.#credits, currency),
      totalDebits: money(this.#debits, currency),
      net: money(this.#credits + this.#debits, currency),
      byType: [...this.#types.values()],
      byMerchant: [...this.#merchants.values()],
    }
  }
}

const SETTLEMENT_CSV_HEADER = [
  'settlementEntryId',
  'createdAt',
  'availableOn',
  'merchantId',
  'type',
  'amountMinorUnits',
  'amount',
  'currency',
  'transactionId',
  'orderId',
  'refundId',
  'payoutId',
  'description',
]

/** The report as CSV, a row at a time. */
function* settlementCsv(entries: Iterable<SettlementEntry>): Generator<string> {
  yield csvRow(SETTLEMENT_CSV_HEADER)
  for (const e of entries) {
    yield csvRow([
      e.settlementEntryId,
      e.createdAt,
      e.availableOn,
      e.merchantId,
      e.type,
      e.amount.minorCurrencyUnits,
      formatMinorUnits(e.amount.minorCurrencyUnits, e.amount.currency),
      e.amount.currency,
      e.transactionId,
      e.orderId,
      e.refundId,
      e.payoutId,
      e.description,
    ])
  }
}

/** The report as JSON, `{"entries": [...], "summary": {...}}`, an entry at a time; the summary comes last, added up on the way. */
function* settlementJson(entries: Iterable<SettlementEntry>, summary: SettlementSummary): Generator<string> {
  yield '{"entries":['
  let separator = ''
  for (const e of entries) {
    summary.add(e)
    yield separator + JSON.stringify(e)
    separator = ','
  }
  yield `],"summary":${JSON.stringify(summary.result())}}`
}

// Disputes ------------------------------------------------------------------------------------

/** Days the merchant has to answer a dispute (the emulator's own; informational). */
export const DISPUTE_EVIDENCE_DAYS = 7

const DISPUTABLE = ['paid', 'accepted', 'partially_refunded', 'refunded', 'disputed']

export function disputeView(d: DisputeRecord) {
  const { previousTransactionStatus: _internal, ...view } = d
  return view
}

function openDisputesOf(store: Store, transactionId: string): DisputeRecord[] {
  return store.disputes.byIndex('transactionId', transactionId).filter((d) => d.status === 'Open')
}

/**
 * Opens a dispute (chargeback) on a paid transaction: the amount (default: what was paid and not
 * refunded or already disputed) is debited from the merchant at once, the transaction becomes
 * `disputed` and records the dispute in `disputeId`/`disputeIds` and a DisputeOpened timeline entry.
 */
export function openDispute(ctx: HandlerContext, txn: TransactionRecord, input: { amount?: number; reason?: string }): DisputeRecord {
  const p = txn.details.purchaseDetails
  if (!DISPUTABLE.includes(p.status) || (p.status === 'refunded' && p.refundedAmount >= p.amount.minorCurrencyUnits)) {
    throw conflict('transaction_not_disputable', `A ${p.status} transaction cannot be disputed`)
  }
  const open = openDisputesOf(ctx.store, txn.transactionId)
  const disputable = p.amount.minorCurrencyUnits - p.refundedAmount - open.reduce((s, d) => s + d.amount.minorCurrencyUnits, 0)
  const amount = input.amount ?? disputable
  if (amount <= 0 || amount > disputable) {
    throw unprocessable('dispute_exceeds_disputable', `Only ${disputable} of this transaction can be disputed (paid, less refunds and open disputes)`)
  }
  const now = ctx.clock.now()
  const record: DisputeRecord = {
    disputeId: ctx.ids.next('dispute'),
    transactionId: txn.transactionId,
    orderId: txn.orderId,
    merchantId: txn.merchantId,
    customerId: txn.customerId,
    amount: money(amount, p.amount.currency),
    reason: input.reason ?? 'General',
    status: 'Open',
    previousTransactionStatus: open.length > 0 ? (open[0] as DisputeRecord).previousTransactionStatus : p.status,
    evidenceDueOn: isoDate(addDays(now, DISPUTE_EVIDENCE_DAYS)),
    createdAt: timestamp(now),
    updatedAt: timestamp(now),
    resolvedAt: null,
  }
  ctx.store.disputes.set(record.disputeId, record)
  p.disputeId = record.disputeId
  p.disputeIds.push(record.disputeId)
  p.status = 'disputed'
  p.updatedAt = timestamp(now)
  txn.details.timelines.push({ eventType: 'DisputeOpened', eventTime: timestamp(now), amount, identifier: record.disputeId })
  appendLedger(ctx, {
    merchantId: txn.merchantId,
    type: 'DisputeDebit',
    amount: money(-amount, p.amount.currency),
    description: `Dispute ${record.disputeId} on transaction ${txn.transactionId}`,
    transactionId: txn.transactionId,
    orderId: txn.orderId,
  })
  emitEvent(ctx, 'DisputeOpened', txn.merchantId, { dispute: disputeView(record) })
  return record
}

/**
 * Closes an open dispute. Won: the amount is credited back (DisputeCredit) and, when no other
 * dispute is open, the transaction returns to its status before the dispute. Lost: the debit
 * stands and the transaction stays `disputed`.
 */
export function resolveDispute(ctx: HandlerContext, dispute: DisputeRecord, outcome: 'Won' | 'Lost'): DisputeRecord {
  if (dispute.status !== 'Open') throw conflict('dispute_not_open', `Dispute ${dispute.disputeId} is already ${dispute.status}`)
  const now = timestamp(ctx.clock.now())
  dispute.status = outcome
  dispute.resolvedAt = now
  dispute.updatedAt = now
  const txn = lookup(ctx.store.transactions, dispute.transactionId)
  if (txn) {
    txn.details.timelines.push({ eventType: outcome === 'Won' ? 'DisputeWon' : 'DisputeLost', eventTime: now, amount: dispute.amount.minorCurrencyUnits, identifier: dispute.disputeId })
    txn.details.purchaseDetails.updatedAt = now
    if (outcome === 'Won' && openDisputesOf(ctx.store, txn.transactionId).length === 0) {
      txn.details.purchaseDetails.status = dispute.previousTransactionStatus
    }
  }
  if (outcome === 'Won') {
    appendLedger(ctx, {
      merchantId: dispute.merchantId,
      type: 'DisputeCredit',
      amount: dispute.amount,
      description: `Dispute ${dispute.disputeId} won`,
      transactionId: dispute.transactionId,
      orderId: dispute.orderId,
    })
  }
  emitEvent(ctx, 'DisputeClosed', dispute.merchantId, { dispute: disputeView(dispute) })
  return dispute
}

// Refunds -------------------------------------------------------------------------------------

/** Default look-back of the refund list without `createdAfter` (real integrations: 30 days). */
export const REFUND_LIST_DEFAULT_DAYS = 30

// Routes --------------------------------------------------------------------------------------

export const routes = [
  route({
    method: 'POST',
    path: '/transactions/payouts',
    allow: PRIVATE,
    body: RequestPayoutBody,
    bodyRequired: false,
    handle: (ctx, req) => {
      const merchant = requireMerchant(ctx.store, ctx.scope)
      const body = req.body ?? {}
      if (body.amount && body.currency && body.amount.currency !== body.currency) {
        throw badRequest('currency_mismatch', `"currency" (${body.currency}) differs from the amount's currency (${body.amount.currency})`)
      }
      const payout = createPayout(ctx, merchant, {
        payoutType: 'Manual',
        currency: body.amount?.currency ?? body.currency ?? merchant.currency,
        ...(body.amount ? { amount: body.amount.minorCurrencyUnits } : {}),
        ...(body.bankAccountId ? { bankAccountId: body.bankAccountId } : {}),
        ...(body.description ? { description: body.description } : {}),
      })
      return payoutDetail(ctx.store, payout)
    },
  }),
  route({
    method: 'GET',
    path: '/transactions/payouts',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const merchantIds = f.list('merchantId')
      const statuses = f.list('status')
      const types = f.list('payoutType')
      const currency = f.string('currency')?.toUpperCase()
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.payouts.select({
        where: { merchantId: merchantsWithin(visible, merchantIds) },
        after,
        before,
        filter: (p) => oneOf(statuses, p.status) && oneOf(types, p.payoutType) && (currency === undefined || p.amount.currency === currency),
        filterKey: JSON.stringify([statuses, types, currency]),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (p) => p.createdAt, amount: (p) => p.amount.minorCurrencyUnits, status: (p) => p.status, expectedArrivalOn: (p) => p.expectedArrivalOn },
        view: (p) => payoutView(ctx.store, p),
      })
    },
  }),
  route({
    method: 'GET',
    path: '/transactions/payouts/{payoutId}',
    allow: PRIVATE,
    handle: (ctx, req) => payoutDetail(ctx.store, visiblePayout(ctx, req.params.payoutId as string)),
  }),
  route({
    method: 'GET',
    path: '/transactions/invoices',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const merchantIds = f.list('merchantId')
      const statuses = f.list('status')
      const periods = f.list('period')
      const currency = f.string('currency')?.toUpperCase()
      const records = invoicesOf(ctx.store, visibleMerchantIds(ctx.store, ctx.scope), ctx.clock.now()).filter(
        (i) => oneOf(merchantIds, i.merchantId) && oneOf(statuses, i.status) && oneOf(periods, i.period) && (currency === undefined || i.currency === currency),
      )
      return paginate(records, req.query, {
        sortable: {
          createdAt: (i) => i.createdAt,
          period: (i) => i.period,
          status: (i) => i.status,
          totalAmount: (i) => i.lines.reduce((s, l) => s + l.amount, 0),
        },
        view: invoiceSummary,
      })
    },
  }),
  route({
    method: 'GET',
    path: '/transactions/invoices/{invoiceId}',
    allow: PRIVATE,
    handle: (ctx, req) => invoiceDetail(ctx.store, visibleInvoice(ctx, req.params.invoiceId as string)),
  }),
  route({
    method: 'GET',
    path: '/transactions/invoices/{invoiceId}/pdf',
    allow: PRIVATE,
    produces: ['application/pdf'],
    handle: (ctx, req) => {
      const invoice = visibleInvoice(ctx, req.params.invoiceId as string)
      return new Reply(200, invoicePdf(ctx.store, invoice), { 'Content-Disposition': `attachment; filename="${invoice.invoiceId}.pdf"` }, 'application/pdf')
    },
  }),
  route({
    method: 'GET',
    path: '/transactions/settlement',
    allow: PRIVATE,
    handle: (ctx, req) =>
      paginate(ctx.store.settlementEntries.select(settlementQuery(ctx, req.query).select), req.query, {
        sortable: { createdAt: (e) => e.createdAt, availableOn: (e) => e.availableOn, amount: (e) => e.amount.minorCurrencyUnits, type: (e) => e.type },
        view: (e) => ({ ...e, amount: { ...e.amount } }),
      }),
  }),
  route({
    method: 'GET',
    path: '/transactions/settlement/report',
    allow: PRIVATE,
    produces: ['application/json', 'text/csv'],
    handle: (ctx, req) => {
      // Streamed: the entries are read and written one at a time, whatever their number.
      const selection = settlementQuery(ctx, req.query)
      const store = ctx.store
      const entries = () => store.settlementEntries.scan(selection.select)
      if (req.accept === 'text/csv') {
        const csv = new StreamBody(() => settlementCsv(entries()))
        return new Reply(200, csv, { 'Content-Disposition': 'attachment; filename="settlement-report.csv"' }, 'text/csv; charset=utf-8')
      }
      const json = new StreamBody(() => settlementJson(entries(), new SettlementSummary(selection, req.query)))
      return new Reply(200, json, {}, 'application/json; charset=utf-8')
    },
  }),
  route({
    method: 'GET',
    path: '/transactions/disputes',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const ids = f.list('disputeId')
      const transactionIds = f.list('transactionId')
      const orderIds = f.list('orderId')
      const merchantIds = f.list('merchantId')
      const statuses = f.list('status')
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const records = ctx.store.disputes.select({
        ids,
        where: { merchantId: merchantsWithin(visible, merchantIds), transactionId: transactionIds, orderId: orderIds },
        after,
        before,
        filter: statuses === undefined ? undefined : (d) => oneOf(statuses, d.status),
        filterKey: JSON.stringify(statuses),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (d) => d.createdAt, updatedAt: (d) => d.updatedAt, amount: (d) => d.amount.minorCurrencyUnits, status: (d) => d.status },
        view: disputeView,
      })
    },
  }),
  route({
    method: 'GET',
    path: '/transactions/refunds',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const now = ctx.clock.now()
      const after = f.dateTime('createdAfter') ?? timestamp(addDays(now, -REFUND_LIST_DEFAULT_DAYS))
      const before = f.dateTime('createdBefore')
      const nowText = timestamp(now)
      const amount = f.integer('amount')
      const references = f.list('referenceOrderId')
      const orderIds = f.list('orderId')
      const customerIds = f.list('customerId')
      const merchantIds = f.list('merchantId')
      const transactionIds = f.list('transactionId')
      const refundIds = f.list('refundId')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const referenceOf = (transactionId: string, stored: string | null) =>
        lookup(ctx.store.transactions, transactionId)?.details.purchaseDetails.referenceOrderId ?? stored
      const records = ctx.store.refunds.select({
        ids: refundIds,
        where: { merchantId: merchantsWithin(visible, merchantIds), orderId: orderIds, customerId: customerIds, transactionId: transactionIds },
        after,
        // Without createdBefore, up to and including now: the first text after `nowText`.
        before: before ?? `${nowText}\u0000`,
        filter:
          amount === undefined && references === undefined
            ? undefined
            : (r) => (amount === undefined || r.refundAmount.minorCurrencyUnits === amount) && oneOf(references, referenceOf(r.transactionId, r.referenceOrderId)),
        filterKey: JSON.stringify([amount, references]),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (r) => r.createdAt, amount: (r) => r.refundAmount.minorCurrencyUnits },
        view: (r) => ({
          refundId: r.refundId,
          transactionId: r.transactionId,
          transactionAmount: r.transactionAmount,
          orderId: r.orderId,
          referenceOrderId: referenceOf(r.transactionId, r.referenceOrderId),
          merchantId: r.merchantId,
          customerId: r.customerId,
          description: r.description,
          amount: r.refundAmount,
          status: r.status,
          createdAt: r.createdAt,
        }),
      })
    },
  }),
]
