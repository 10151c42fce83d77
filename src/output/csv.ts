// CSV, written by csv-stringify: its sync API for one record or one page, its stream API (written
// to and read from record by record, a page at a time) for lists of any length, so memory stays
// flat. Loaded only when CSV is printed (render.ts imports this module on that path).
//
// payfac turns each value into its cell text first (csvText: formula cells defused with a
// leading `'`, numbers as JSON writes them, objects as JSON text, nothing for null) and hands
// csv-stringify rows of strings; the header row is the column keys, as they are.
import { stringify, type Options, type Stringifier } from 'csv-stringify'
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

/** csv-stringify's stream, written to and read from in turn (no event loop turn needed). */
class CsvStream {
  private readonly stream: Stringifier = stringify(CSV_OPTIONS)

  constructor() {
    this.stream.setEncoding('utf8')
  }

  write(cells: string[]): void {
    this.stream.write(cells)
  }

  /** Everything stringified since the last take. */
  take(): string {
    let text = ''
    for (let chunk = this.stream.read() as string | null; chunk !== null; chunk = this.stream.read() as string | null) text += chunk
    return text
  }

  close(): void {
    this.stream.destroy()
  }
}

/** Records taken out of the stream at least this often when they come one by one. */
const TAKE_EVERY = 64

export async function csvList<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, options: OutputOptions, sink: Sink): Promise<number> {
  const pick = columnsFor(view, (known, sample) => selectColumns(allColumns(known), allColumns(known), options.columns, sample))
  if (Array.isArray(records)) return csvPage(view, records as T[], pick, options, sink)
  const csv = new CsvStream()
  let row: ((record: T) => string[]) | undefined
  let waiting = 0
  const write = (record: T) => {
    if (!row) {
      const columns = csvColumns(pick(record), { record })
      csv.write(columns.map((c) => c.key))
      row = cellsOf(columns)
    }
    csv.write(row(record))
  }
  const writer: ListWriter<T> = {
    add(record) {
      write(record)
      if ((waiting += 1) >= TAKE_EVERY) {
        waiting = 0
        sink.append(csv.take())
      }
    },
    addBatch(batch) {
      for (const record of batch) write(record)
      sink.append(csv.take())
    },
    settle: () => {
      waiting = 0
      sink.append(csv.take())
      return sink.flush()
    },
  }
  try {
    const count = await streaming(() => forEach(records, writer, sink, options.signal), writer.settle)
    sink.append(csv.take())
    if (count === 0) await emptyList(view, options, sink)
    await sink.flush()
    return count
  } finally {
    csv.close()
  }
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
