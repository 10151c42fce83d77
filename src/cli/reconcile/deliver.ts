// Where the records of `payfac settlement reconcile` go: a table of the differences for a person
// (on a terminal drawn once the run is over, the progress line cleared first, with the columns
// that are the same on every row said once above it), every record as CSV, JSON or JSON Lines for
// a spreadsheet or a script, and with --xlsx a workbook besides.
import { sanitizeLine } from '../../output/sanitize.js'
import type { View } from '../../output/view.js'
import type { ReconcileSession } from './command.js'
import { type ReconcileRecord, differenceTableView, reconcileRecordView } from './records.js'

export interface Delivery {
  /** A table of the differences (the default), or every record (--csv, --json, --jsonl, --query, --ids). */
  table: boolean
  /** stdout is a terminal. */
  isTTY: boolean
  /** --columns or --wide: every column the user asked for stays in the table. */
  keepColumns?: boolean | undefined
  /** --xlsx FILE. */
  xlsx?: string | undefined
  session: ReconcileSession
  showAll(view: View<ReconcileRecord>, rows: Iterable<ReconcileRecord> | AsyncIterable<ReconcileRecord>, empty?: () => string): Promise<number>
}

/** Columns a table says once above itself when every row has the same value, and how. */
const HOISTED: Array<[key: 'merchantId' | 'currency', label: string]> = [
  ['merchantId', 'Merchant'],
  ['currency', 'Currency'],
]

/** The table's view without the columns that are the same on every row, and the line that names them. */
export function hoist(view: View<ReconcileRecord>, rows: ReconcileRecord[]): { view: View<ReconcileRecord>; above: string | undefined } {
  if (rows.length === 0) return { view, above: undefined }
  const same = HOISTED.filter(([key]) => rows.every((r) => r[key] === (rows[0] as ReconcileRecord)[key]))
  if (same.length === 0) return { view, above: undefined }
  const keys = new Set(same.map(([key]) => key))
  const named = same.flatMap(([key, label]) => {
    const value = (rows[0] as ReconcileRecord)[key]
    return value ? [`${label}: ${value}`] : []
  })
  return {
    view: { ...view, columns: view.columns.filter((c) => !keys.has(c.key as 'merchantId' | 'currency')) },
    above: named.length ? `${sanitizeLine(named.join('   '))}\n` : undefined,
  }
}

async function* differencesOf(rows: AsyncIterable<ReconcileRecord>): AsyncGenerator<ReconcileRecord> {
  for await (const row of rows) if (row.record === 'difference') yield row
}

/** Every row goes on to `rows`' reader, and into the workbook besides. */
async function* into(rows: AsyncIterable<ReconcileRecord>, book: { add(row: ReconcileRecord): void }): AsyncGenerator<ReconcileRecord> {
  for await (const row of rows) {
    book.add(row)
    yield row
  }
}

/** Prints (and with --xlsx saves) the records; the count printed. Says "All N records matched" under an empty table. */
export async function deliverRecords(records: AsyncIterable<ReconcileRecord>, d: Delivery): Promise<number> {
  const book = d.xlsx ? new (await import('./xlsx.js')).ReconcileBook() : undefined
  const rows = book ? into(records, book) : records
  let count: number
  try {
    if (!d.table) count = await d.showAll(reconcileRecordView, rows)
    else if (!d.isTTY) count = await d.showAll(differenceTableView, differencesOf(rows), () => d.session.allMatched())
    else {
      // On a terminal the table waits for the end of the run: the progress line is cleared first,
      // and what every row shares is said once above it.
      const all: ReconcileRecord[] = []
      for await (const row of differencesOf(rows)) all.push(row)
      d.session.clearProgress()
      const { view, above } = d.keepColumns ? { view: differenceTableView, above: undefined } : hoist(differenceTableView, all)
      if (above) process.stdout.write(above)
      count = await d.showAll(view, all, () => d.session.allMatched())
    }
    if (book && d.xlsx) {
      const bytes = await book.save(d.xlsx)
      process.stderr.write(`Saved ${bytes} bytes to ${d.xlsx}\n`)
      if (book.cut > 0) {
        process.stderr.write(
          `${book.cut} text cell${book.cut === 1 ? ' was' : 's were'} longer than a workbook cell holds (32,767 characters) and end with … in ${d.xlsx}; the CSV has them whole.\n`,
        )
      }
    }
  } finally {
    book?.dispose()
  }
  return count
}
