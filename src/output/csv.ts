// CSV, written by csv-stringify through its sync API (`csv-stringify/sync`): one call for one
// record or a page in memory, and one call every ROWS_PER_CALL records for lists of any length
// (a walk's pages as they arrive, or records given one by one), so memory stays flat. Loaded
// only when CSV is printed (render.ts imports this module on that path).
//
// payfac turns each value into its cell text first (csvText: formula cells defused with a
// leading `'`, numbers as JSON writes them, objects as JSON text, nothing for null) and hands
// csv-stringify rows of strings; the header row is the column keys, as they are.
import type { Options } from 'csv-stringify'
import { stringify as stringifyRows } from 'csv-stringify/sync'
import { csvText } from './cells.js'
import { UnknownColumnError, allColumns, columnsFor, csvColumns, selectColumns, viewColumns } from './columns.js'
import type { OutputOptions } from './format.js'
import { forEach, streaming, type ListWriter } from './record-loop.js'
import type { Sink } from './sink.js'
import { columnReader, type Column, type View } from './view.js'

/**
 * RFC 4180 as payfac has always written it: a cell holding `"`, `,`, CR or LF is quoted with its
 * quotes doubled, nothing else is quoted (an empty cell stays empty), records end in LF, no BOM.
 * The header is written as the first row, so csv-stringify adds none of its own.
 */
export const CSV_OPTIONS: Options = {
  delimiter: ',',
  quote: '"',
  escape: '"',
  record_delimiter: 'unix',
  // A CR alone is quoted too (naming record_delimiter would otherwise turn this off).
  quote_record_delimiter: true,
  eof: true,
  header: false,
  bom: false,
  quoted: false,
  quoted_empty: false,
  quoted_string: false,
  // Off: payfac's own rule (defuseFormula) leaves plain numbers such as -12.50 alone.
  escape_formulas: false,
}

/** Reads a record's cells for the given columns, each reader found once. */
function cellsOf<T>(columns: Column<T>[]): (record: T) => string[] {
  const readers = columns.map((column) => columnReader(column))
  return (record) => readers.map((read) => csvText(read(record)))
}

/** One record: a header and one row. */
export function csvRecordText<T>(columns: Column<T>[], record: T): string {
  return stringifyRows([columns.map((c) => c.key), cellsOf(columns)(record)], CSV_OPTIONS)
}

/**
 * Rows handed to csv-stringify in one call of its sync API during a list. A call has a cost of its
 * own (it checks its options), and csv-stringify builds each row's text cell by cell: the texts
 * of one call stay in memory until the call returns them joined, and while they do every minor
 * collection copies them (a page of 500 rows at once took 0.2 s more CPU over 100 000 records
 * than 64 at a time).
 */
const ROWS_PER_CALL = 64

export async function csvList<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, options: OutputOptions, sink: Sink): Promise<number> {
  const pick = columnsFor(view, (known, sample) => selectColumns(allColumns(known), allColumns(known), options.columns, sample))
  if (Array.isArray(records)) return csvPage(view, records as T[], pick, options, sink)
  let row: ((record: T) => string[]) | undefined
  // Rows of cells not yet stringified: the header first, then the records since the last call.
  let rows: string[][] = []
  const take = (record: T) => {
    if (!row) {
      const columns = csvColumns(pick(record), { record })
      rows.push(columns.map((c) => c.key))
      row = cellsOf(columns)
    }
    rows.push(row(record))
  }
  const out = () => {
    if (rows.length === 0) return
    const text = stringifyRows(rows, CSV_OPTIONS)
    rows = []
    sink.append(text)
  }
  const writer: ListWriter<T> = {
    add(record) {
      take(record)
      if (rows.length >= ROWS_PER_CALL) out()
    },
    addBatch(batch) {
      for (const record of batch) {
        take(record)
        if (rows.length >= ROWS_PER_CALL) out()
      }
      out()
    },
    settle: () => {
      out()
      return sink.flush()
    },
  }
  const count = await streaming(() => forEach(records, writer, sink, options.signal), writer.settle)
  out()
  if (count === 0) await emptyList(view, options, sink)
  await sink.flush()
  return count
}

/** One page, already in memory: csv-stringify's sync API, one call. */
async function csvPage<T>(view: View<T>, records: T[], pick: (record: T) => Column<T>[], options: OutputOptions, sink: Sink): Promise<number> {
  if (records.length === 0) {
    await emptyList(view, options, sink)
    await sink.flush()
    return 0
  }
  const first = records[0] as T
  const columns = csvColumns(pick(first), { record: first })
  const row = cellsOf(columns)
  await sink.push(stringifyRows([columns.map((c) => c.key), ...records.map(row)], CSV_OPTIONS))
  await sink.flush()
  return records.length
}

/** An empty list still gets its header, when the view's columns are known without data. */
async function emptyList<T>(view: View<T>, options: OutputOptions, sink: Sink): Promise<void> {
  if (view.fromSample) return
  const header = emptyHeader(view, options.columns)
  if (header.length > 0) await sink.push(stringifyRows([header], CSV_OPTIONS))
}

/** The CSV header of an empty list: the view's columns, or the --columns paths as given. */
function emptyHeader<T>(view: View<T>, selected: string[] | undefined): string[] {
  const known = allColumns(viewColumns(view))
  try {
    return csvColumns(selectColumns(known, known, selected)).map((c) => c.key)
  } catch (error) {
    if (error instanceof UnknownColumnError && selected) return selected
    throw error
  }
}
