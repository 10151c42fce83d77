// Merchant invoices (/transactions/invoices, with their PDF). One invoice per merchant, currency
// and calendar month (UTC) with service fees: its lines are the month's ServiceFee ledger entries,
// so its total is exactly what the fees took from the balance. The id is derived from (merchant,
// currency, month) and so never changes. Status Open during the month, Issued from the first day
// of the next.
import { createHash } from 'node:crypto'
import { formatMinorUnits, type Money } from '../../client/money.js'
import { notFound } from '../api-error.js'
import { PRIVATE, visibleMerchantIds } from '../auth.js'
import { isoDate } from '../clock.js'
import type { SettlementEntry } from '../ledger.js'
import { filters, oneOf, paginate } from '../lists.js'
import { renderPdf, type PdfLine } from '../pdf.js'
import { Reply, route, type HandlerContext } from '../route.js'
import { lookup, type Store, type TransactionRecord } from '../store.js'
import { profileOf } from './merchants.js'

const money = (minorCurrencyUnits: number, currency: string): Money => ({ minorCurrencyUnits, currency })

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

export const routes = [
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
]
