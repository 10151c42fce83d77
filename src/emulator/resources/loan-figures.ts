// A loan's figures, read through the store's indexes (the loan's entries, statements and cards,
// never a pass over every loan's): what is owed, the loan and statement views, and the sum of
// the card limits the issuer checks new cards against.
import type { Money } from '../../client/money.js'
import type { LoanEntryRecord, LoanEntryType, LoanRecord, LoanStatementRecord } from '../account-records.js'
import { isoDate } from '../clock.js'
import type { Store } from '../store.js'

const money = (minorCurrencyUnits: number, currency: string): Money => ({ minorCurrencyUnits, currency })

/** What the merchant owes on a loan: the sum of its entries. */
export function loanOutstanding(store: Store, loanId: string): number {
  return store.loanEntries.byIndex('loanId', loanId).reduce((s, e) => s + e.amount.minorCurrencyUnits, 0)
}

/** Sum of the limits of the loan's cards that are not cancelled (the issuer checks new cards against it). */
export function loanCardLimits(store: Store, loanId: string, exceptCardId?: string): number {
  return store.digitalCards
    .byIndex('loanId', loanId)
    .filter((c) => c.status !== 'Cancelled' && c.cardId !== exceptCardId)
    .reduce((s, c) => s + c.limit.minorCurrencyUnits, 0)
}

export function loanView(store: Store, loan: LoanRecord, now: Date) {
  const c = loan.creditLimit.currency
  const outstanding = loanOutstanding(store, loan.loanId)
  const statements = store.loanStatements.byIndex('loanId', loan.loanId, 'creation')
  const unpaid = statements.filter((s) => s.loanSettlementId === null)
  return {
    loanId: loan.loanId,
    merchantId: loan.merchantId,
    loanType: loan.loanType,
    status: loan.status,
    creditLimit: loan.creditLimit,
    outstandingBalance: money(outstanding, c),
    availableCredit: money(Math.max(0, loan.creditLimit.minorCurrencyUnits - outstanding), c),
    interestRateBasisPoints: loan.interestRateBasisPoints,
    openedOn: loan.openedOn,
    statementCount: statements.length,
    latestStatementId: statements[statements.length - 1]?.loanStatementId ?? null,
    nextDueOn: unpaid.map((s) => s.dueOn).sort()[0] ?? null,
    overdue: unpaid.some((s) => s.dueOn < isoDate(now)),
    cardCount: store.digitalCards.byIndex('loanId', loan.loanId).filter((card) => card.status !== 'Cancelled').length,
    createdAt: loan.createdAt,
    updatedAt: loan.updatedAt,
  }
}

export function statementFigures(store: Store, s: LoanStatementRecord) {
  const own = store.loanEntries.byIndex('loanStatementId', s.loanStatementId, 'creation')
  const start = `${s.periodStart}T00:00:00.000Z`
  const before = store.loanEntries.byIndex('loanId', s.loanId).filter((e) => e.loanStatementId !== s.loanStatementId && e.createdAt < start)
  const sum = (list: LoanEntryRecord[]) => list.reduce((t, e) => t + e.amount.minorCurrencyUnits, 0)
  const ofType = (type: LoanEntryType) => sum(own.filter((e) => e.type === type))
  const opening = sum(before)
  return {
    own,
    opening,
    drawdowns: ofType('Drawdown'),
    repayments: ofType('Repayment'),
    interest: ofType('Interest'),
    fees: ofType('Fee'),
    closing: opening + sum(own),
  }
}

export function statementView(store: Store, s: LoanStatementRecord, now: Date) {
  const f = statementFigures(store, s)
  const c = s.currency
  return {
    loanStatementId: s.loanStatementId,
    loanId: s.loanId,
    merchantId: s.merchantId,
    periodStart: s.periodStart,
    periodEnd: s.periodEnd,
    issuedOn: s.issuedOn,
    dueOn: s.dueOn,
    currency: c,
    openingBalance: money(f.opening, c),
    drawdowns: money(f.drawdowns, c),
    repayments: money(f.repayments, c),
    interest: money(f.interest, c),
    fees: money(f.fees, c),
    closingBalance: money(f.closing, c),
    amountDue: money(Math.max(0, f.closing), c),
    status: s.loanSettlementId !== null ? 'Paid' : 'Unpaid',
    overdue: s.loanSettlementId === null && s.dueOn < isoDate(now),
    loanSettlementId: s.loanSettlementId,
    entryCount: f.own.length,
    createdAt: s.createdAt,
  }
}
