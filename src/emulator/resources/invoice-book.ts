// The invoices kept up to date as the ledger grows, so that a list of invoices costs the invoices
// of the merchants it may show and a detail costs its lines, never a pass over the ledger.
//
//   book      per ledger (a WeakMap, so a namespace's store has its own): invoice id -> invoice,
//             merchant -> its invoices; filled once from the ledger, then told of each new entry
//   invoice   one per merchant, currency and calendar month (UTC) with ServiceFee entries: its
//             lines (the entries, in creation order), and totals folded in as they are read
//
// The ledger only grows (ledger.ts), so a new ServiceFee entry is added to its invoice as it is
// written. Anything else (an entry removed, replaced or changed in place, which only the control
// plane's mismatches and payouts' `payoutId` do) marks the book stale: it is filled again from
// the ledger on the next read. Totals are folded at read time from the lines not yet counted,
// with the transaction's fee split as it is then, which is what deriving the invoice whole gave.
import { createHash } from 'node:crypto'
import type { Collection } from '../collection.js'
import type { SettlementEntry } from '../ledger.js'
import { lookup, type Store, type TransactionRecord } from '../store.js'

export interface InvoiceLine {
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

export interface InvoiceTotals {
  variableAmount: number
  fixedAmount: number
  taxAmount: number
  amount: number
}

export interface BookInvoice {
  invoiceId: string
  merchantId: string
  currency: string
  period: string
  /** Place in creation order of the invoice's first line: the order invoices were derived in. */
  order: number
  /** The ServiceFee entries, in creation order. */
  entries: SettlementEntry[]
  /** How many of `entries` `totals` counts. */
  counted: number
  totals: InvoiceTotals
}

/** The invoice id of a merchant's fees in a currency and month: `inv_` + 16 characters of a hash. */
export function invoiceIdFor(merchantId: string, currency: string, period: string): string {
  return `inv_${createHash('sha256').update(`${merchantId}|${currency}|${period}`).digest('base64url').slice(0, 16)}`
}

/** One entry as an invoice line: the transaction's fee split when it charged exactly that fee, else a GST-inclusive split. */
export function lineOf(store: Store, e: SettlementEntry): InvoiceLine {
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
  return {
    settlementEntryId: e.settlementEntryId,
    transactionId: e.transactionId,
    orderId: e.orderId,
    description: e.description,
    createdAt: e.createdAt,
    variableAmount,
    fixedAmount,
    taxAmount,
    amount,
  }
}

class InvoiceBook {
  readonly #ledger: Collection<SettlementEntry>
  readonly #byId = new Map<string, BookInvoice>()
  readonly #byMerchant = new Map<string, Map<string, BookInvoice>>()
  #stale = true
  #lines = 0

  constructor(ledger: Collection<SettlementEntry>) {
    this.#ledger = ledger
    ledger.watch({
      added: (e) => {
        if (!this.#stale) this.#add(e)
      },
      rewritten: () => {
        this.#stale = true
      },
    })
  }

  /** The invoices of these merchants, in the order their first lines were written. */
  of(merchantIds: Iterable<string>): BookInvoice[] {
    this.#fresh()
    const out: BookInvoice[] = []
    for (const id of merchantIds) {
      const mine = this.#byMerchant.get(id)
      if (mine) for (const invoice of mine.values()) out.push(invoice)
    }
    return out.sort((a, b) => a.order - b.order)
  }

  get(invoiceId: string): BookInvoice | undefined {
    this.#fresh()
    return this.#byId.get(invoiceId)
  }

  #fresh(): void {
    if (!this.#stale) return
    this.#byId.clear()
    this.#byMerchant.clear()
    this.#lines = 0
    for (const e of this.#ledger.values()) this.#add(e)
    this.#stale = false
  }

  #add(e: SettlementEntry): void {
    if (e.type !== 'ServiceFee') return
    const currency = e.amount.currency
    const period = e.createdAt.slice(0, 7)
    const key = `${currency}|${period}`
    let mine = this.#byMerchant.get(e.merchantId)
    if (!mine) this.#byMerchant.set(e.merchantId, (mine = new Map()))
    let invoice = mine.get(key)
    if (!invoice) {
      invoice = {
        invoiceId: invoiceIdFor(e.merchantId, currency, period),
        merchantId: e.merchantId,
        currency,
        period,
        order: this.#lines,
        entries: [],
        counted: 0,
        totals: { variableAmount: 0, fixedAmount: 0, taxAmount: 0, amount: 0 },
      }
      mine.set(key, invoice)
      this.#byId.set(invoice.invoiceId, invoice)
    }
    invoice.entries.push(e)
    this.#lines++
  }
}

const books = new WeakMap<Collection<SettlementEntry>, InvoiceBook>()

/** The store's invoice book (made, and filled from its ledger, on first use). */
export function invoiceBook(store: Store): InvoiceBook {
  let book = books.get(store.settlementEntries)
  if (!book) books.set(store.settlementEntries, (book = new InvoiceBook(store.settlementEntries)))
  return book
}

/** An invoice's totals, counting the lines added since it was last read. */
export function totalsOf(store: Store, invoice: BookInvoice): InvoiceTotals {
  const t = invoice.totals
  for (; invoice.counted < invoice.entries.length; invoice.counted++) {
    const line = lineOf(store, invoice.entries[invoice.counted] as SettlementEntry)
    t.variableAmount += line.variableAmount
    t.fixedAmount += line.fixedAmount
    t.taxAmount += line.taxAmount
    t.amount += line.amount
  }
  return t
}
