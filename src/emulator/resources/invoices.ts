// Merchant invoices (/transactions/invoices, with their PDF). One invoice per merchant, currency
// and calendar month (UTC) with service fees: its lines are the month's ServiceFee ledger entries,
// so its total is exactly what the fees took from the balance. The id is derived from (merchant,
// currency, month) and so never changes. Status Open during the month, Issued from the first day
// of the next.
import { formatMinorUnits, type Money } from '../../client/money.js'
import { notFound } from '../api-error.js'
import { PRIVATE, visibleMerchantIds } from '../auth.js'
import { isoDate } from '../clock.js'
import type { SettlementEntry } from '../ledger.js'
import { filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { renderPdf, type PdfLine } from '../pdf.js'
import { Reply, route, type HandlerContext } from '../route.js'
import { lookup, type Store } from '../store.js'
import { invoiceBook, lineOf, totalsOf, type BookInvoice } from './invoice-book.js'
import { profileOf } from './merchants.js'

const money = (minorCurrencyUnits: number, currency: string): Money => ({ minorCurrencyUnits, currency })

/** An invoice as read now: its book entry and its status today. */
interface Invoice {
  book: BookInvoice
  status: 'Open' | 'Issued'
  issuedOn: string | null
}

function lastDayOf(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number]
  return isoDate(new Date(Date.UTC(year, month, 0)))
}

function firstDayAfter(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number]
  return isoDate(new Date(Date.UTC(year, month, 1)))
}

/** The invoice with its status on `today` (YYYY-MM-DD): Open during the month, Issued from the first day of the next. */
function asOf(book: BookInvoice, today: string): Invoice {
  const issuedOn = firstDayAfter(book.period)
  return issuedOn <= today ? { book, status: 'Issued', issuedOn } : { book, status: 'Open', issuedOn: null }
}

/** Every invoice of the given merchants, in the order their first fees were written. */
function invoicesOf(store: Store, merchantIds: ReadonlySet<string>, now: Date): Invoice[] {
  const today = isoDate(now)
  return invoiceBook(store)
    .of(merchantIds)
    .map((book) => asOf(book, today))
}

function invoiceTotals(store: Store, invoice: Invoice) {
  const t = totalsOf(store, invoice.book)
  const c = invoice.book.currency
  return {
    variableAmount: money(t.variableAmount, c),
    fixedAmount: money(t.fixedAmount, c),
    subtotalAmount: money(t.variableAmount + t.fixedAmount, c),
    taxAmount: money(t.taxAmount, c),
    totalAmount: money(t.amount, c),
  }
}

function invoiceSummary(store: Store, invoice: Invoice) {
  const { book } = invoice
  const totals = invoiceTotals(store, invoice)
  return {
    invoiceId: book.invoiceId,
    merchantId: book.merchantId,
    period: book.period,
    periodStart: `${book.period}-01`,
    periodEnd: lastDayOf(book.period),
    status: invoice.status,
    issuedOn: invoice.issuedOn,
    currency: book.currency,
    lineCount: book.entries.length,
    subtotalAmount: totals.subtotalAmount,
    taxAmount: totals.taxAmount,
    totalAmount: totals.totalAmount,
    /** Fees are taken from the settlement as they occur: nothing is left to pay. */
    settledBy: 'DeductedFromSettlement',
    amountDue: money(0, book.currency),
    createdAt: (book.entries[0] as SettlementEntry).createdAt,
    updatedAt: (book.entries[book.entries.length - 1] as SettlementEntry).createdAt,
  }
}

function invoiceDetail(store: Store, invoice: Invoice) {
  const { merchantId, currency: c } = invoice.book
  const merchant = lookup(store.merchants, merchantId)
  const profile = profileOf(store, merchantId)
  return {
    ...invoiceSummary(store, invoice),
    breakdown: invoiceTotals(store, invoice),
    billingDetails: {
      merchantId,
      name: merchant?.name ?? null,
      businessNumber: profile.businessNumber,
      emailAddress: profile.emailAddress,
      address: profile.address,
    },
    lines: invoice.book.entries
      .map((e) => lineOf(store, e))
      .map((l) => ({
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
  const book = invoiceBook(ctx.store).get(id)
  if (!book || !visibleMerchantIds(ctx.store, ctx.scope).has(book.merchantId)) throw notFound('Invoice', id)
  return asOf(book, isoDate(ctx.clock.now()))
}

function invoicePdf(store: Store, invoice: Invoice): Buffer {
  const detail = invoiceDetail(store, invoice)
  const { invoiceId, merchantId } = invoice.book
  const fmt = (m: Money) => `${formatMinorUnits(m.minorCurrencyUnits, m.currency)} ${m.currency}`
  const col = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}~` : text.padEnd(width))
  const lines: Array<PdfLine | string> = [
    { text: 'Tax invoice: service fees', heading: true },
    `Invoice ${invoiceId}`,
    `Period ${detail.periodStart} to ${detail.periodEnd} (${invoice.status}${invoice.issuedOn ? `, issued ${invoice.issuedOn}` : ''})`,
    { text: 'Bill to', heading: true, gapBefore: 6 },
    `${detail.billingDetails.name ?? merchantId} (${merchantId})`,
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
  return renderPdf({ title: `Invoice ${invoiceId}`, lines })
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
      const store = ctx.store
      const records = invoicesOf(store, new Set(merchantsWithin(visibleMerchantIds(store, ctx.scope), merchantIds)), ctx.clock.now()).filter(
        (i) => oneOf(statuses, i.status) && oneOf(periods, i.book.period) && (currency === undefined || i.book.currency === currency),
      )
      return paginate(records, req.query, {
        sortable: {
          createdAt: (i) => (i.book.entries[0] as SettlementEntry).createdAt,
          period: (i) => i.book.period,
          status: (i) => i.status,
          totalAmount: (i) => totalsOf(store, i.book).amount,
        },
        view: (i) => invoiceSummary(store, i),
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
    // The contract: clients send Accept: application/json; the PDF is what this operation gives.
    alsoAccepts: ['application/json'],
    handle: (ctx, req) => {
      const invoice = visibleInvoice(ctx, req.params.invoiceId as string)
      return new Reply(
        200,
        invoicePdf(ctx.store, invoice),
        { 'Content-Disposition': `attachment; filename="${invoice.book.invoiceId}.pdf"` },
        'application/pdf',
      )
    },
  }),
]
