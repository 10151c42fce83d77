// What `payfac settlement reconcile` prints, one record a row, for a spreadsheet and for a script
// (issue 36): the differences, the entries that matched, and at the end of each run its totals
// (per currency and kind, "other" by entry type), its balances (opening, movements, closing) and
// one summary. Money is minor units with its currency and the decimal beside it; a CSV row has
// the same columns whatever its record, so a spreadsheet reads one table and filters by `record`.
import { formatMinorUnits } from '../../client/money.js'
import type { Column, View } from '../../output/view.js'

export type RecordKind = 'difference' | 'matched' | 'total' | 'balance' | 'summary'

/** Money as payfac prints it in JSON: minor units, currency, and the exact decimal. */
export interface RecordMoney {
  minorCurrencyUnits: number
  currency: string
  decimal: string
}

export interface ReconcileRecord {
  record: RecordKind
  merchantId: string | null
  /** difference: its kind; matched: payment, fee, refund, payout or ledger; total: payments, refunds, fees, payouts, other, each entry type other holds (DisputeDebit …), net; balance: opening, movements, closing; summary: summary. */
  kind: string
  /** The transaction, refund or payout id, or the ledger's reference (none for totals, balances and the summary). */
  reference: string | null
  currency: string | null
  /** What a matched entry, a total or a balance amounts to. */
  amount: RecordMoney | null
  expected: RecordMoney | null
  found: RecordMoney | null
  /** Entries behind a row (a total's, a duplicate's); records checked for the summary. */
  count: number | null
  /** true for a matched entry, false for a difference; a balance: whether opening + movements = closing; the summary: whether all matched. */
  matched: boolean | null
  detail: string | null
  /** The summary's counts, also as fields (JSON). */
  records?: number
  matchedRecords?: number
  differences?: number
  entries?: number
}

/** A difference, as the engine makes it (kind, reference and merchant as before, money as numbers). */
export type Difference = ReconcileRecord & { record: 'difference' }

export function recordMoney(minorCurrencyUnits: number | null | undefined, currency: string | null | undefined): RecordMoney | null {
  if (minorCurrencyUnits === null || minorCurrencyUnits === undefined || !currency) return null
  return { minorCurrencyUnits, currency, decimal: formatMinorUnits(minorCurrencyUnits, currency) }
}

/** A record with every field present (null where it says nothing), in the columns' order. */
export function makeRecord(r: Partial<ReconcileRecord> & Pick<ReconcileRecord, 'record' | 'kind'>): ReconcileRecord {
  return {
    record: r.record,
    merchantId: r.merchantId ?? null,
    kind: r.kind,
    reference: r.reference ?? null,
    currency: r.currency ?? null,
    amount: r.amount ?? null,
    expected: r.expected ?? null,
    found: r.found ?? null,
    count: r.count ?? null,
    matched: r.matched ?? null,
    detail: r.detail ?? null,
    ...(r.records === undefined ? {} : { records: r.records, matchedRecords: r.matchedRecords, differences: r.differences, entries: r.entries }),
  }
}

const minorOf = (key: 'amount' | 'expected' | 'found') => (r: ReconcileRecord) => r[key]?.minorCurrencyUnits
const decimalOf = (key: 'amount' | 'expected' | 'found') => (r: ReconcileRecord) => r[key]?.decimal

/**
 * The CSV columns (and the sheets' of --xlsx), in order: money as `<name>MinorUnits` and `<name>`
 * (the decimal) beside one `currency` column, as the settlement report's CSV has them.
 */
export const RECORD_COLUMNS: Column<ReconcileRecord>[] = [
  { key: 'record', header: 'Record' },
  { key: 'merchantId', header: 'Merchant' },
  { key: 'kind', header: 'Kind' },
  { key: 'reference', header: 'Reference', whole: true },
  { key: 'currency', header: 'Currency' },
  { key: 'amountMinorUnits', header: 'Amount (minor units)', get: minorOf('amount') },
  { key: 'amount', header: 'Amount', get: decimalOf('amount') },
  { key: 'expectedMinorUnits', header: 'Expected (minor units)', get: minorOf('expected') },
  { key: 'expected', header: 'Expected', get: decimalOf('expected') },
  { key: 'foundMinorUnits', header: 'Found (minor units)', get: minorOf('found') },
  { key: 'found', header: 'Found', get: decimalOf('found') },
  { key: 'count', header: 'Count' },
  { key: 'matched', header: 'Matched' },
  { key: 'detail', header: 'Detail' },
]

/** Keys of RECORD_COLUMNS that hold a decimal amount, and the one that holds minor units beside it. */
export const DECIMAL_COLUMNS = new Set(['amount', 'expected', 'found'])
export const MINOR_COLUMNS = new Set(['amountMinorUnits', 'expectedMinorUnits', 'foundMinorUnits'])

/** Every record, for --csv, --json, --jsonl, --query and --ids. */
export const reconcileRecordView: View<ReconcileRecord> = {
  name: 'reconciliation record',
  columns: RECORD_COLUMNS,
  // --ids prints what each row is about (a transaction, refund or payout id), not its merchant.
  idKeyOf: () => 'reference',
}

const moneyText = (money: RecordMoney | null): string => (money ? `${money.decimal} ${money.currency}` : '-')

/** The table a person reads: the differences, money as `12.50 AUD`, the reference whole. */
export const differenceTableView: View<ReconcileRecord> = {
  name: 'difference',
  columns: [
    { key: 'kind', header: 'Kind' },
    { key: 'reference', header: 'Reference', whole: true },
    { key: 'expected', header: 'Expected', display: (_v, r) => moneyText(r.expected) },
    { key: 'found', header: 'Found', display: (_v, r) => moneyText(r.found) },
    { key: 'detail', header: 'Detail' },
    { key: 'merchantId', header: 'Merchant' },
    { key: 'currency', header: 'Currency' },
  ],
}
