// Loans and loan statements: trade-account loans to merchants (store.loans), their monthly
// statements (store.loanStatements) and statement entries (store.loanEntries). Entries are signed:
// drawdowns, interest and fees add to what the merchant owes, repayments take from it. A
// statement's figures (opening balance, totals, closing balance) are computed from the entries.
//
// The seed gives the well-known merchant one loan with three statements (October to December
// 2024; the last one unpaid): `seedLoans()`, called from seed.ts.
//
// The statement download is a ZIP file protected with a password (traditional PKWARE
// encryption, zip.ts) holding the statement as CSV (default), PDF or XML (`?format=`). The
// password is the borrowing merchant's id (e.g. `mcht_LocalMerchant001`); the emulator also
// sends it in the `Statement-Password` header.
import { formatMinorUnits, type Money } from '../../client/money.js'
import type { LoanEntryRecord, LoanEntryType, LoanStatementRecord } from '../account-records.js'
import { badRequest } from '../api-error.js'
import { PRIVATE, visibleMerchantIds, visibleOr404 } from '../auth.js'
import { isoDate } from '../clock.js'
import { toCsv } from '../csv.js'
import { filters, merchantsWithin, oneOf, paginate } from '../lists.js'
import { renderPdf } from '../pdf.js'
import { Reply, route, type HandlerContext } from '../route.js'
import type { Selection } from '../collection.js'
import { lookup, type Store } from '../store.js'
import { buildZip } from '../zip.js'
import { loanView, statementFigures, statementView } from './loan-figures.js'

const money = (minorCurrencyUnits: number, currency: string): Money => ({ minorCurrencyUnits, currency })

// Seed ----------------------------------------------------------------------------------------

export const SEEDED_LOAN_ID = 'loan_LocalTradeLoan01'

/** One loan with three monthly statements for a merchant (fixed ids and dates: the same on every start). */
export function seedLoans(store: Store, merchantId: string): void {
  const currency = 'AUD'
  const at = (day: string) => `${day}T00:00:00.000Z`
  store.loans.set(SEEDED_LOAN_ID, {
    loanId: SEEDED_LOAN_ID,
    merchantId,
    loanType: 'TradeAccount',
    status: 'Active',
    creditLimit: money(5_000_000, currency),
    interestRateBasisPoints: 1290,
    openedOn: '2024-10-01',
    createdAt: at('2024-10-01'),
    updatedAt: at('2024-12-31'),
  })
  const months: Array<{ period: string; end: string; due: string; settled: boolean; entries: Array<[string, LoanEntryType, number, string]> }> = [
    {
      period: '2024-10',
      end: '2024-10-31',
      due: '2024-11-15',
      settled: true,
      entries: [
        ['2024-10-05', 'Drawdown', 125_000, 'Card purchase: trade supplies'],
        ['2024-10-18', 'Drawdown', 348_050, 'Card purchase: plumbing supplies'],
        ['2024-10-31', 'Fee', 1_500, 'Monthly account fee'],
      ],
    },
    {
      period: '2024-11',
      end: '2024-11-30',
      due: '2024-12-15',
      settled: true,
      entries: [
        ['2024-11-12', 'Drawdown', 210_000, 'Card purchase: timber'],
        ['2024-11-15', 'Repayment', -474_550, 'Repayment of statement lstmt_LocalStmt2024-10'],
        ['2024-11-30', 'Interest', 2_137, 'Interest at 12.90 % a year'],
        ['2024-11-30', 'Fee', 1_500, 'Monthly account fee'],
      ],
    },
    {
      period: '2024-12',
      end: '2024-12-31',
      due: '2025-01-15',
      settled: false,
      entries: [
        ['2024-12-03', 'Drawdown', 96_000, 'Card purchase: electrical supplies'],
        ['2024-12-15', 'Repayment', -213_637, 'Repayment of statement lstmt_LocalStmt2024-11'],
        ['2024-12-20', 'Drawdown', 154_025, 'Card purchase: tools'],
        ['2024-12-31', 'Interest', 1_024, 'Interest at 12.90 % a year'],
        ['2024-12-31', 'Fee', 1_500, 'Monthly account fee'],
      ],
    },
  ]
  for (const month of months) {
    const loanStatementId = `lstmt_LocalStmt${month.period}`
    store.loanStatements.set(loanStatementId, {
      loanStatementId,
      loanId: SEEDED_LOAN_ID,
      merchantId,
      periodStart: `${month.period}-01`,
      periodEnd: month.end,
      issuedOn: isoDate(new Date(Date.parse(`${month.end}T00:00:00Z`) + 86_400_000)),
      dueOn: month.due,
      currency,
      loanSettlementId: month.settled ? `lsett_LocalSett${month.period}` : null,
      createdAt: at(month.end),
    })
    month.entries.forEach(([day, type, amount, description], i) => {
      const loanEntryId = `lent_LocalEnt${month.period}${String.fromCharCode(97 + i)}`
      store.loanEntries.set(loanEntryId, {
        loanEntryId,
        loanId: SEEDED_LOAN_ID,
        loanStatementId,
        merchantId,
        type,
        amount: money(amount, currency),
        description,
        reference: type === 'Repayment' ? `lsett_LocalSett${description.slice(-7)}` : null,
        createdAt: at(day),
        dueOn: month.due,
      })
    })
  }
}

function entryView(store: Store, e: LoanEntryRecord) {
  return {
    loanEntryId: e.loanEntryId,
    loanId: e.loanId,
    loanStatementId: e.loanStatementId,
    loanSettlementId: lookup(store.loanStatements, e.loanStatementId)?.loanSettlementId ?? null,
    merchantId: e.merchantId,
    type: e.type,
    amount: e.amount,
    description: e.description,
    reference: e.reference,
    createdAt: e.createdAt,
    dueOn: e.dueOn,
  }
}

function visibleStatement(ctx: HandlerContext, id: string): LoanStatementRecord {
  return visibleOr404(ctx, ctx.store.loanStatements, id, 'Loan statement')
}

// Entry queries -------------------------------------------------------------------------------

/** The entries a query selects. With `report`, 400 unless loanSettlementId or loanId, or currency and a full date range, is given. */
function selectEntries(ctx: HandlerContext, query: URLSearchParams, report: boolean): Selection<LoanEntryRecord> {
  const f = filters(query)
  const loanIds = f.list('loanId')
  const settlementIds = f.list('loanSettlementId')
  const statementIds = f.list('loanStatementId')
  const types = f.list('type')
  const currency = f.string('currency')?.toUpperCase()
  const createdAfter = f.dateTime('createdAfter')
  const createdBefore = f.dateTime('createdBefore')
  const dueAfter = f.dateTime('dueAfter')?.slice(0, 10)
  const dueBefore = f.dateTime('dueBefore')?.slice(0, 10)
  if (report && loanIds === undefined && settlementIds === undefined) {
    const range = (createdAfter !== undefined && createdBefore !== undefined) || (dueAfter !== undefined && dueBefore !== undefined)
    if (currency === undefined || !range) {
      throw badRequest(
        'loan_entries_filter_required',
        'The entries report needs loanSettlementId or loanId, or else currency with a date range: createdAfter and createdBefore, or dueAfter and dueBefore',
      )
    }
  }
  const visible = visibleMerchantIds(ctx.store, ctx.scope)
  return ctx.store.loanEntries.select({
    where: { merchantId: merchantsWithin(visible, undefined), loanId: loanIds, loanStatementId: statementIds },
    after: createdAfter,
    before: createdBefore,
    filter: (e) =>
      oneOf(settlementIds, lookup(ctx.store.loanStatements, e.loanStatementId)?.loanSettlementId) &&
      oneOf(types, e.type) &&
      (currency === undefined || e.amount.currency === currency) &&
      (dueAfter === undefined || e.dueOn >= dueAfter) &&
      (dueBefore === undefined || e.dueOn < dueBefore),
    filterKey: JSON.stringify([settlementIds, types, currency, dueAfter, dueBefore]),
  })
}

const ENTRY_SORT = {
  createdAt: (e: LoanEntryRecord) => e.createdAt,
  dueOn: (e: LoanEntryRecord) => e.dueOn,
  amount: (e: LoanEntryRecord) => e.amount.minorCurrencyUnits,
  type: (e: LoanEntryRecord) => e.type,
}

// Download ------------------------------------------------------------------------------------

export const STATEMENT_FORMATS = ['csv', 'pdf', 'xml'] as const

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

function statementFile(store: Store, s: LoanStatementRecord, format: (typeof STATEMENT_FORMATS)[number], now: Date): string | Buffer {
  const view = statementView(store, s, now)
  const entries = statementFigures(store, s).own.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
  const fmt = (minor: number) => formatMinorUnits(minor, s.currency)
  if (format === 'csv') {
    return toCsv(
      ['loanStatementId', 'loanEntryId', 'createdAt', 'dueOn', 'type', 'description', 'reference', 'amountMinorUnits', 'amount', 'currency'],
      entries.map((e) => [
        s.loanStatementId,
        e.loanEntryId,
        e.createdAt,
        e.dueOn,
        e.type,
        e.description,
        e.reference,
        e.amount.minorCurrencyUnits,
        fmt(e.amount.minorCurrencyUnits),
        e.amount.currency,
      ]),
    )
  }
  if (format === 'xml') {
    const rows = entries
      .map(
        (e) =>
          `    <Entry id="${xml(e.loanEntryId)}" type="${e.type}" createdAt="${e.createdAt}" dueOn="${e.dueOn}">\n` +
          `      <Description>${xml(e.description)}</Description>\n      <Amount>${fmt(e.amount.minorCurrencyUnits)}</Amount>\n    </Entry>`,
      )
      .join('\n')
    return (
      `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<LoanStatement id="${xml(s.loanStatementId)}" loanId="${xml(s.loanId)}" merchantId="${xml(s.merchantId)}" periodStart="${s.periodStart}" periodEnd="${s.periodEnd}" dueOn="${s.dueOn}" currency="${s.currency}">\n` +
      `  <OpeningBalance>${fmt(view.openingBalance.minorCurrencyUnits)}</OpeningBalance>\n  <Entries>\n${rows}\n  </Entries>\n` +
      `  <ClosingBalance>${fmt(view.closingBalance.minorCurrencyUnits)}</ClosingBalance>\n  <AmountDue>${fmt(view.amountDue.minorCurrencyUnits)}</AmountDue>\n</LoanStatement>\n`
    )
  }
  return renderPdf({
    title: `Loan statement ${s.loanStatementId}`,
    lines: [
      { text: 'Trade account statement', heading: true },
      `Statement ${s.loanStatementId}, loan ${s.loanId}, merchant ${s.merchantId}`,
      `Period ${s.periodStart} to ${s.periodEnd}; due ${s.dueOn}; ${view.status}`,
      { text: `Opening balance: ${fmt(view.openingBalance.minorCurrencyUnits)} ${s.currency}`, gapBefore: 6 },
      ...entries.map(
        (e) => `${e.createdAt.slice(0, 10)}  ${e.type.padEnd(10)} ${fmt(e.amount.minorCurrencyUnits).padStart(12)} ${s.currency}  ${e.description}`,
      ),
      { text: `Closing balance: ${fmt(view.closingBalance.minorCurrencyUnits)} ${s.currency}`, gapBefore: 6 },
      { text: `Amount due by ${s.dueOn}: ${fmt(view.amountDue.minorCurrencyUnits)} ${s.currency}`, heading: true },
    ],
  })
}

// Routes --------------------------------------------------------------------------------------

export const routes = [
  route({
    method: 'GET',
    path: '/loans',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const loanIds = f.list('loanId')
      const merchantIds = f.list('merchantId')
      const statuses = f.list('status')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const now = ctx.clock.now()
      const records = ctx.store.loans.select({
        ids: loanIds,
        where: { merchantId: merchantsWithin(visible, merchantIds) },
        filter: statuses === undefined ? undefined : (l) => oneOf(statuses, l.status),
        filterKey: JSON.stringify(statuses),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (l) => l.createdAt, openedOn: (l) => l.openedOn, status: (l) => l.status },
        view: (l) => loanView(ctx.store, l, now),
      })
    },
  }),
  route({
    method: 'GET',
    path: '/loans/statements',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const f = filters(req.query)
      const loanIds = f.list('loanId')
      const merchantIds = f.list('merchantId')
      const statuses = f.list('status')
      const after = f.dateTime('createdAfter')
      const before = f.dateTime('createdBefore')
      const visible = visibleMerchantIds(ctx.store, ctx.scope)
      const now = ctx.clock.now()
      const records = ctx.store.loanStatements.select({
        where: { merchantId: merchantsWithin(visible, merchantIds), loanId: loanIds },
        after,
        before,
        filter: statuses === undefined ? undefined : (s) => oneOf(statuses, s.loanSettlementId !== null ? 'Paid' : 'Unpaid'),
        filterKey: JSON.stringify(statuses),
      })
      return paginate(records, req.query, {
        sortable: { createdAt: (s) => s.createdAt, periodStart: (s) => s.periodStart, dueOn: (s) => s.dueOn },
        view: (s) => statementView(ctx.store, s, now),
      })
    },
  }),
  route({
    method: 'GET',
    path: '/loans/statements/{loanStatementId}',
    allow: PRIVATE,
    handle: (ctx, req) => statementView(ctx.store, visibleStatement(ctx, req.params.loanStatementId as string), ctx.clock.now()),
  }),
  route({
    method: 'GET',
    path: '/loans/statements/entries',
    allow: PRIVATE,
    handle: (ctx, req) => paginate(selectEntries(ctx, req.query, false), req.query, { sortable: ENTRY_SORT, view: (e) => entryView(ctx.store, e) }),
  }),
  route({
    method: 'GET',
    path: '/loans/statements/entries/report',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const entries = selectEntries(ctx, req.query, true)
        .slots()
        .map((slot) => slot.record)
        .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
      const byType = new Map<string, { type: string; count: number; amount: Money }>()
      for (const e of entries) {
        const key = `${e.type}|${e.amount.currency}`
        const group = byType.get(key) ?? { type: e.type, count: 0, amount: money(0, e.amount.currency) }
        group.count += 1
        group.amount.minorCurrencyUnits += e.amount.minorCurrencyUnits
        byType.set(key, group)
      }
      const currencies = [...new Set(entries.map((e) => e.amount.currency))]
      return {
        entries: entries.map((e) => entryView(ctx.store, e)),
        summary: {
          entryCount: entries.length,
          byType: [...byType.values()],
          net: currencies.map((c) =>
            money(
              entries.filter((e) => e.amount.currency === c).reduce((s, e) => s + e.amount.minorCurrencyUnits, 0),
              c,
            ),
          ),
        },
      }
    },
  }),
  route({
    method: 'GET',
    path: '/loans/enterprise/statements/{loanStatementId}/download',
    allow: PRIVATE,
    produces: ['application/zip', 'application/octet-stream'],
    // The contract: clients send Accept: application/json; the zip is what this operation gives.
    alsoAccepts: ['application/json'],
    handle: (ctx, req) => {
      const statement = visibleStatement(ctx, req.params.loanStatementId as string)
      const format = (filters(req.query).string('format') ?? 'csv').toLowerCase()
      if (!(STATEMENT_FORMATS as readonly string[]).includes(format)) {
        throw badRequest('invalid_query', `"format" must be one of ${STATEMENT_FORMATS.join(', ')}; got "${format}"`)
      }
      const now = ctx.clock.now()
      const password = statement.merchantId
      const file = statementFile(ctx.store, statement, format as (typeof STATEMENT_FORMATS)[number], now)
      const zip = buildZip([{ name: `statement-${statement.loanStatementId}.${format}`, data: file, modifiedAt: now }], password)
      return new Reply(
        200,
        zip,
        { 'Content-Disposition': `attachment; filename="statement-${statement.loanStatementId}.zip"`, 'Statement-Password': password },
        req.accept,
      )
    },
  }),
]
