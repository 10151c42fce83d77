// Loans, loan statements and statement entries. The contract does not show their fields; these
// views name the fields the emulator defines (docs/emulator.md), and a field a service leaves out
// is shown as `-`. JSON prints every record whole.
import type { Column } from '../view.js'
import { defineView } from '../view.js'

type Row = Record<string, unknown>

const created: Column<Row> = { key: 'createdAt', header: 'Created', kind: 'date' }

const loan = {
  loanId: { key: 'loanId', header: 'Loan' },
  loanType: { key: 'loanType', header: 'Type' },
  status: { key: 'status', header: 'Status' },
  creditLimit: { key: 'creditLimit', header: 'Credit limit', kind: 'money' },
  outstandingBalance: { key: 'outstandingBalance', header: 'Outstanding', kind: 'money' },
  availableCredit: { key: 'availableCredit', header: 'Available', kind: 'money' },
  nextDueOn: { key: 'nextDueOn', header: 'Next due', kind: 'date' },
} satisfies Record<string, Column<Row>>

export const loanView = defineView<Row>({
  name: 'loan',
  columns: [loan.loanId, loan.loanType, loan.status, loan.creditLimit, loan.outstandingBalance, loan.availableCredit, loan.nextDueOn],
  detail: [
    loan.loanId,
    { key: 'merchantId', header: 'Merchant' },
    loan.loanType,
    loan.status,
    loan.creditLimit,
    loan.outstandingBalance,
    loan.availableCredit,
    { key: 'interestRateBasisPoints', header: 'Interest (basis points)' },
    { key: 'openedOn', header: 'Opened on', kind: 'date' },
    { key: 'latestStatementId', header: 'Latest statement' },
    loan.nextDueOn,
    { key: 'overdue', header: 'Overdue' },
    created,
  ],
})

const statement = {
  loanStatementId: { key: 'loanStatementId', header: 'Statement' },
  loanId: { key: 'loanId', header: 'Loan' },
  periodEnd: { key: 'periodEnd', header: 'Period end', kind: 'date' },
  dueOn: { key: 'dueOn', header: 'Due on', kind: 'date' },
  amountDue: { key: 'amountDue', header: 'Amount due', kind: 'money' },
  status: { key: 'status', header: 'Status' },
} satisfies Record<string, Column<Row>>

export const loanStatementView = defineView<Row>({
  name: 'loan statement',
  columns: [statement.loanStatementId, statement.loanId, statement.periodEnd, statement.dueOn, statement.amountDue, statement.status],
  detail: [
    statement.loanStatementId,
    statement.loanId,
    { key: 'merchantId', header: 'Merchant' },
    { key: 'periodStart', header: 'Period start', kind: 'date' },
    statement.periodEnd,
    { key: 'issuedOn', header: 'Issued on', kind: 'date' },
    statement.dueOn,
    { key: 'openingBalance', header: 'Opening balance', kind: 'money' },
    { key: 'drawdowns', header: 'Drawdowns', kind: 'money' },
    { key: 'repayments', header: 'Repayments', kind: 'money' },
    { key: 'interest', header: 'Interest', kind: 'money' },
    { key: 'fees', header: 'Fees', kind: 'money' },
    { key: 'closingBalance', header: 'Closing balance', kind: 'money' },
    statement.amountDue,
    statement.status,
    { key: 'overdue', header: 'Overdue' },
    { key: 'loanSettlementId', header: 'Loan settlement' },
  ],
})

const entry = {
  loanEntryId: { key: 'loanEntryId', header: 'Entry' },
  createdAt: created,
  type: { key: 'type', header: 'Type' },
  amount: { key: 'amount', header: 'Amount', kind: 'money' },
  description: { key: 'description', header: 'Description' },
  loanStatementId: { key: 'loanStatementId', header: 'Statement' },
} satisfies Record<string, Column<Row>>

export const loanEntryView = defineView<Row>({
  name: 'loan statement entry',
  columns: [entry.loanEntryId, entry.createdAt, entry.type, entry.amount, entry.description, entry.loanStatementId],
  detail: [
    entry.loanEntryId,
    { key: 'loanId', header: 'Loan' },
    entry.loanStatementId,
    { key: 'loanSettlementId', header: 'Loan settlement' },
    entry.type,
    entry.amount,
    entry.description,
    { key: 'reference', header: 'Reference' },
    entry.createdAt,
    { key: 'dueOn', header: 'Due on', kind: 'date' },
  ],
})
