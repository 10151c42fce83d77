// A view says how one kind of record is shown. Adding one for a new resource is a few lines:
//
//   export const refundView = defineView<Refund>({
//     name: 'refund',
//     columns: [                                   // a list table: what a person needs first
//       { key: 'refundId', header: 'Refund' },
//       { key: 'transactionAmount', header: 'Amount', kind: 'money' },
//       { key: 'createdAt', header: 'Created', kind: 'date' },
//     ],
//     detail: [ /* every field worth a line in the single-record table */ ],
//   })
//
// `key` is the dot path of the value in the record, used by --columns and as the CSV header.
// When the value is not at that path (computed, or nested deeper), give `get`, and choose a
// short key people can type. JSON output ignores views: it prints the record itself.
import { pathReader } from './flatten.js'
import { MISSING } from './format.js'

export type ColumnKind =
  /** a Money object `{minorCurrencyUnits, currency}`: table `12.50 AUD`; CSV `<key>.minorCurrencyUnits`, `<key>.currency` */
  | 'money'
  /** an integer in minor units whose currency is elsewhere (see `currency`): shown and exported like money */
  | 'minor'
  /** an ISO 8601 timestamp or date: table `2024-05-01 10:00:00Z` (UTC, as sent); CSV as sent */
  | 'date'
  /** shown as text */
  | 'text'
  /** free-form data (metadata): one cell of JSON text, never spread over several CSV columns */
  | 'json'

export interface Column<T> {
  /** Dot path: how --columns names the column, and its CSV header. */
  key: string
  /** Table header. */
  header: string
  /** Reads the value when it is not simply at `key`. */
  get?: (record: T) => unknown
  kind?: ColumnKind
  /** For kind 'minor': the ISO 4217 code of the amount, read from the record (e.g. its `currency` field). */
  currency?: (record: T) => string | null | undefined
  /** Never cut in a table (a URL or a name is useless cut): shown whole, or the column is left out. */
  whole?: boolean
  /** Table text for the value, when the default (by kind) is not right. CSV and JSON keep the value. */
  display?: (value: unknown, record: T) => string
}

export interface View<T> {
  /** What the records are, singular ("order"). */
  name: string
  /** Default columns of a list table: the fields a person needs first. */
  columns: Column<T>[]
  /** Fields of the single-record (key/value) table; `columns` when absent. */
  detail?: Column<T>[]
  /**
   * For views whose fields are only known from the data (the generic fallback): columns and
   * detail made from the first record. When given, `columns`/`detail` above are not used.
   */
  fromSample?: (sample: T) => { columns: Column<T>[]; detail?: Column<T>[] }
  /**
   * What JSON output prints for a record, when it is not the record itself (e.g. a result
   * type wrapping the resource). Default: the record.
   */
  json?: (record: T) => unknown
  /** The key of the column `--ids` prints, among the keys of the columns, when it is not the first id column (a fan-out's merchantId comes first). */
  idKeyOf?: (keys: string[]) => string | undefined
}

/** Identity, for type inference: `defineView<Order>({ … })`. */
export function defineView<T>(view: View<T>): View<T> {
  return view
}

/**
 * Columns of an inner record, read through an outer one: reuse a view's columns for a result
 * that contains that record. Keys and headers stay the same.
 *   liftColumns(payOrderCompleteView.columns, (r: PayResult) => r.kind === 'PayOrderComplete' ? r.transaction : undefined)
 */
export function liftColumns<Outer, Inner>(columns: Column<Inner>[], inner: (record: Outer) => Inner | undefined): Column<Outer>[] {
  return columns.map((column) => {
    const read = (record: Outer): unknown => {
      const value = inner(record)
      if (value === undefined) return undefined
      return readColumn(column, value)
    }
    const lifted: Column<Outer> = { key: column.key, header: column.header, get: read }
    if (column.kind) lifted.kind = column.kind
    if (column.whole) lifted.whole = true
    if (column.currency) {
      const currency = column.currency
      lifted.currency = (record) => {
        const value = inner(record)
        return value === undefined ? undefined : currency(value)
      }
    }
    if (column.display) {
      const display = column.display
      lifted.display = (value, record) => {
        const inside = inner(record)
        return inside === undefined ? MISSING : display(value, inside)
      }
    }
    return lifted
  })
}

/** The value of a column in a record: `get`, or the value at `key`. */
export function readColumn<T>(column: Column<T>, record: T): unknown {
  return column.get ? column.get(record) : pathReader(column.key)(record)
}

/** readColumn for one column, made once: for reading the same column of many records. */
export function columnReader<T>(column: Column<T>): (record: T) => unknown {
  return column.get ?? pathReader(column.key)
}
