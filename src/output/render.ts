// Rendering records to stdout as a table, JSON, JSON Lines or CSV.
//
// Lists stream: a record is written soon after it arrives, memory stays flat however many
// there are (tables are drawn in batches of at most 200 rows), and the writer waits for
// 'drain' whenever the stream asks it to. When the source has nothing ready (the next page is
// on its way), whatever is buffered is written out first, so rows appear as pages arrive.
import { sanitize } from './cells.js'
import { allColumns, columnsFor, csvColumns, selectColumns, viewColumns } from './columns.js'
import type { OutputOptions } from './format.js'
import { forEach, streaming, type ListWriter } from './record-loop.js'
import { sanitizeText } from './sanitize.js'
import { OutputClosedError, Sink } from './sink.js'
import { StreamTable, hiddenNotice, idColumn, recordTable, tableStyle } from './table.js'
import { loadTableClass } from './table-draw.js'
import { readColumn, type Column, type View } from './view.js'

/** The most rows drawn as one table. */
export const TABLE_BATCH_ROWS = 200

export { OutputClosedError, OutputInterruptedError } from './sink.js'

/**
 * A sink for data shown on a terminal: every control character in it is made visible (see
 * ./sanitize.ts). JSON keeps its value (a C1 or bidi control inside a string becomes its \u escape of four
 * escape); a `--query` string, `--ids` and CSV show the escape instead of the character.
 * Off a terminal the data goes out byte for byte.
 */
class TerminalSink extends Sink {
  override append(text: string): void {
    super.append(sanitizeText(text))
  }
}

/** Tables are made clean cell by cell (and carry payfac's own colours): they need no second pass. */
function sinkFor(options: OutputOptions): Sink {
  return options.isTTY && (options.format !== 'table' || options.ids) ? new TerminalSink(options.out) : new Sink(options.out)
}

// ---------------------------------------------------------------------------------------------
// JSON

function jsonForm<T>(view: View<T>): (record: T) => unknown {
  return (record) => (view.json ? view.json(record) : record)
}

function jsonOf<T>(view: View<T>, record: T): string {
  return JSON.stringify(view.json ? view.json(record) : record, null, 2) ?? 'null'
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ')
}

// ---------------------------------------------------------------------------------------------
// Entry points

/**
 * Prints one record. table: a key/value table of the view's `detail` (or `columns`); json: the
 * record pretty-printed; csv: a header and one row. An array given as the record is printed as
 * a list in table and csv formats.
 */
export async function renderRecord<T>(view: View<T>, record: T, options: OutputOptions): Promise<void> {
  const sink = sinkFor(options)
  try {
    await recordTo(sink, view, record, options)
  } finally {
    sink.dispose()
  }
}

async function recordTo<T>(sink: Sink, view: View<T>, record: T, options: OutputOptions): Promise<void> {
  if (options.ids && !Array.isArray(record)) {
    const id = idColumn(viewColumns(view, { record }).columns)
    const value = id ? readColumn(id, record) : undefined
    await sink.push(value === undefined || value === null ? '' : `${sanitize(String(value))}\n`)
    return sink.flush()
  }
  if (options.format === 'json' && options.query) {
    await sink.push(await queried(options, view.json ? view.json(record) : record))
    return sink.flush()
  }
  if (options.format === 'json') {
    await sink.push(`${jsonOf(view, record)}\n`)
    return sink.flush()
  }
  if (options.format === 'jsonl' && !Array.isArray(record)) {
    await sink.push(jsonLine(view, record))
    return sink.flush()
  }
  if (Array.isArray(record)) {
    await renderList(view as unknown as View<unknown>, record as unknown[], options)
    return
  }
  const known = viewColumns(view, { record })
  if (options.format === 'csv') {
    const columns = csvColumns(selectColumns(allColumns(known), allColumns(known), options.columns, { json: jsonForm(view), record }), { record })
    const { csvRecordText } = await import('./csv.js')
    await sink.push(csvRecordText(columns, record))
    return sink.flush()
  }
  const columns = selectColumns(allColumns(known), known.detail ?? known.columns, options.columns, { json: jsonForm(view), record })
  // cli-table3 draws only on a terminal: piped output never loads it.
  const Table = options.isTTY ? await loadTableClass() : undefined
  await sink.push(recordTable(columns, record, options, Table))
  await sink.flush()
}

/**
 * Prints records as they arrive and returns how many there were.
 * - json: a JSON array, `[]` when empty, the same text as JSON.stringify(all, null, 2).
 * - csv: a header, then one row per record. Money is two columns (`amount.minorCurrencyUnits`,
 *   `amount.currency`), nested objects are spread into dot-path columns (from the first
 *   record), arrays are JSON text. An empty list still gets its header (when the view's
 *   columns are known without data).
 * - table: the view's `columns`; bordered on a TTY, plain aligned text otherwise; batches of
 *   at most 200 rows. Nothing at all for an empty list (the caller says so on stderr).
 * --columns (options.columns) selects columns for table and csv; an unknown one throws
 * UnknownColumnError before anything is written (for a data-driven view: at the first record).
 */
export async function renderList<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, options: OutputOptions): Promise<number> {
  const sink = sinkFor(options)
  try {
    if (options.ids) return await idList(view, records, options, sink)
    if (options.format === 'json') return await jsonList(view, records, options, sink)
    if (options.format === 'jsonl') return await jsonLines(view, records, options, sink)
    if (options.format === 'csv') return await (await import('./csv.js')).csvList(view, records, options, sink)
    return await tableList(view, records, options, sink)
  } finally {
    sink.dispose()
  }
}

async function jsonList<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, options: OutputOptions, sink: Sink): Promise<number> {
  if (options.query) return queriedList(view, records, options, sink)
  let first = true
  const writer: ListWriter<T> = {
    add(record) {
      sink.append(`${first ? '[\n' : ',\n'}${indent(jsonOf(view, record))}`)
      first = false
    },
    addBatch(batch) {
      if (batch.length === 0) return
      // One stringify for the page: the array's own text, brackets cut off, is its records
      // indented as they are inside the list (what JSON.stringify(all, null, 2) writes).
      const text = JSON.stringify(view.json ? batch.map((record) => view.json?.(record)) : batch, null, 2)
      sink.append(`${first ? '[\n' : ',\n'}${text.slice(2, -2)}`)
      first = false
    },
    settle: () => sink.flush(),
  }
  const close = async () => {
    await sink.push(first ? '[]\n' : '\n]\n')
    await sink.flush()
  }
  let count: number
  try {
    count = await forEach(records, writer, sink, options.signal)
  } catch (error) {
    // Interrupted or failed mid-walk: the records so far stay a valid JSON array; the caller
    // reports the error on stderr.
    if (!(error instanceof OutputClosedError)) await close().catch(() => undefined)
    throw error
  }
  await close()
  return count
}

/** One record as one line of JSON Lines: compact, ended by a newline (JSON escapes any newline inside). */
function jsonLine<T>(view: View<T>, record: T): string {
  return `${JSON.stringify(view.json ? view.json(record) : record) ?? 'null'}\n`
}

/**
 * JSON Lines: one compact JSON value a record, a line each, streamed as records arrive. Only
 * whole lines are ever added to the sink, so a walk stopped by Ctrl-C or a failure leaves whole
 * lines: every line printed parses on its own.
 */
async function jsonLines<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, options: OutputOptions, sink: Sink): Promise<number> {
  const writer: ListWriter<T> = {
    add: (record) => sink.append(jsonLine(view, record)),
    addBatch(batch) {
      let text = ''
      for (const record of batch) text += jsonLine(view, record)
      sink.append(text)
    },
    settle: () => sink.flush(),
  }
  const count = await streaming(() => forEach(records, writer, sink, options.signal), writer.settle)
  await sink.flush()
  return count
}

/**
 * `--query` over a list. A plain projection (`[].orderId`, `[*].{id: orderId}`) is applied to
 * each record as it arrives and streamed as an array, so memory stays flat; any other
 * expression sees the whole array, so the records are gathered first.
 */
async function queriedList<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, options: OutputOptions, sink: Sink): Promise<number> {
  const { projectionOf, search } = await import('./query.js')
  const json = jsonForm(view)
  const each = projectionOf(options.query as string)
  if (each !== undefined) {
    let checked = false
    const projected: View<T> = {
      ...view,
      json: (record) => {
        // The first record tells whether the projection names fields the records lack.
        if (!checked) {
          checked = true
          void warnMissingFields({ ...options, query: each }, json(record), false)
        }
        return search(each, json(record))
      },
    }
    const skipNull = (async function* () {
      for await (const record of records) if (projected.json?.(record) !== null) yield record
    })()
    return jsonList(projected, skipNull, { ...options, query: undefined }, sink)
  }
  const all: unknown[] = []
  const count = await forEach(records, { add: (record) => void all.push(json(record)), settle: async () => undefined }, sink, options.signal)
  await sink.push(await queried(options, all))
  await sink.flush()
  return count
}

/** The text of `--query` over `data`; a query that selects nothing prints null and says so (options.notice). */
async function queried(options: OutputOptions, data: unknown): Promise<string> {
  const { nothingSelected, queryResult } = await import('./query.js')
  const { text, nothing } = queryResult(options.query as string, data)
  // One note: the field the records lack (which is why nothing was selected), or else that nothing was.
  if (!(await warnMissingFields(options, data, nothing)) && nothing) options.notice?.(nothingSelected(options.query as string))
  return text
}

/** A field the query names that the records lack: said on stderr with the fields they have. True when said. */
async function warnMissingFields(options: OutputOptions, data: unknown, printedNull: boolean): Promise<boolean> {
  const { missingFieldsNotice, missingQueryFields } = await import('./query-fields.js')
  const found = missingQueryFields(options.query as string, data)
  if (found) options.notice?.(`${missingFieldsNotice(options.query as string, found)}${printedNull ? '; printed null' : ''}`)
  return found !== undefined
}

/** `--ids`: the id of each record, one a line. */
async function idList<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, options: OutputOptions, sink: Sink): Promise<number> {
  let id: Column<T> | undefined
  const writer: ListWriter<T> = {
    add(record) {
      if (!id) {
        const columns = viewColumns(view, { record }).columns
        const key = view.idKeyOf?.(columns.map((c) => c.key))
        id = (key === undefined ? undefined : columns.find((c) => c.key === key)) ?? idColumn(columns)
      }
      const value = id ? readColumn(id, record) : undefined
      if (value !== undefined && value !== null && value !== '') sink.append(`${sanitize(String(value))}\n`)
    },
    settle: () => sink.flush(),
  }
  const count = await streaming(() => forEach(records, writer, sink, options.signal), writer.settle)
  await sink.flush()
  return count
}

async function tableList<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, options: OutputOptions, sink: Sink): Promise<number> {
  const pick = columnsFor(view, (known, sample) => selectColumns(allColumns(known), known.columns, options.columns, sample))
  // cli-table3 draws only on a terminal: tab-separated output never loads it.
  const Table = tableStyle(options) === 'tsv' ? undefined : await loadTableClass()
  let table: StreamTable<T> | undefined
  let written = 0
  const writer: ListWriter<T> = {
    add(record) {
      table ??= new StreamTable(pick(record), options, Table)
      sink.append(table.add(record))
      // The first batch fixes the widths; a source with no pause still gets them fixed.
      if ((written += 1) % TABLE_BATCH_ROWS === 0) sink.append(table.flush())
    },
    settle: async () => {
      sink.append(table?.flush() ?? '')
      await sink.flush()
    },
  }
  let noticed = false
  const end = async () => {
    await sink.push(table?.end() ?? '')
    await sink.flush()
    // Columns left out to fit the terminal are said below the table (stderr), once.
    if (!noticed && table && table.hidden.length > 0) options.notice?.(hiddenNotice(table.hidden))
    noticed = true
  }
  const count = await streaming(() => forEach(records, writer, sink, options.signal), end)
  await end()
  return count
}
