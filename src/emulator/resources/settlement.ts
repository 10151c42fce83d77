// Settlement entries (/transactions/settlement) and the settlement report, read from the ledger
// (store.settlementEntries, ledger.ts). The report is streamed: entries are read and written one
// at a time (JSON or CSV), and the JSON summary is added up on the way and written last.
import { formatMinorUnits, type Money } from '../../client/money.js'
import { badRequest } from '../api-error.js'
import { PRIVATE, visibleMerchantIds } from '../auth.js'
import { csvRow } from '../csv.js'
import type { SettlementEntry } from '../ledger.js'
import { filters, merchantsWithin, paginate } from '../lists.js'
import type { Query } from '../collection.js'
import { Reply, StreamBody, route, type HandlerContext } from '../route.js'
import { lookup } from '../store.js'

const money = (minorCurrencyUnits: number, currency: string): Money => ({ minorCurrencyUnits, currency })

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

export const routes = [
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
]
