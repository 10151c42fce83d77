// Rendering records to stdout as a table, JSON or CSV.
//
// Lists stream: a record is written soon after it arrives, memory stays flat however many
// there are (tables are drawn in batches of at most 200 rows), and the writer waits for
// 'drain' whenever the stream asks it to. When the source has nothing ready (the next page is
// on its way), whatever is buffered is written out first, so rows appear as pages arrive.
import Table from 'cli-table3'
import { csvText, displayWidth, sanitize, tableText, truncate } from './cells.js'
import { allColumns, csvColumns, selectColumns, viewColumns, type ViewColumns } from './columns.js'
import type { OutputOptions } from './format.js'
import { readColumn, type Column, type View } from './view.js'

/** The most rows drawn as one table. */
export const TABLE_BATCH_ROWS = 200
/** Widest cell of a bordered list table, in terminal cells; longer text ends with `…`. */
export const TTY_CELL_MAX = 60

const BUFFER_BYTES = 16 * 1024

/** The output stream closed (e.g. `| head`) before everything was written. */
export class OutputClosedError extends Error {
  override name = 'OutputClosedError'
  constructor() {
    super('The output stream closed before everything was written')
  }
}

/** Writes, and waits for 'drain' when the stream's buffer is full. */
async function writeChunk(out: NodeJS.WritableStream, text: string): Promise<void> {
  if (out.write(text)) return
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      out.off('drain', onDrain)
      out.off('error', onError)
      out.off('close', onClose)
      if (error) reject(error)
      else resolve()
    }
    const onDrain = () => settle()
    const onError = (error: Error) => settle(error)
    const onClose = () => settle(new OutputClosedError())
    out.on('drain', onDrain)
    out.on('error', onError)
    out.on('close', onClose)
  })
}

/** Collects small pieces of text and writes them in chunks of about 16 KB. */
class Sink {
  readonly #out: NodeJS.WritableStream
  #buffer = ''

  constructor(out: NodeJS.WritableStream) {
    this.#out = out
  }

  async push(text: string): Promise<void> {
    this.#buffer += text
    if (this.#buffer.length >= BUFFER_BYTES) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.#buffer === '') return
    const text = this.#buffer
    this.#buffer = ''
    await writeChunk(this.#out, text)
  }
}

const WAITING = Symbol('waiting')

function isAsyncIterable<T>(value: Iterable<T> | AsyncIterable<T>): value is AsyncIterable<T> {
  return typeof (value as AsyncIterable<T>)[Symbol.asyncIterator] === 'function'
}

/**
 * Calls `onRecord` for each record in order, and `onIdle` whenever an async source has no
 * record ready yet. Returns the count. Stops the source (return()) when ended early.
 */
async function forEach<T>(
  records: Iterable<T> | AsyncIterable<T>,
  onRecord: (record: T) => Promise<void>,
  onIdle: () => Promise<void>,
): Promise<number> {
  let count = 0
  if (!isAsyncIterable(records)) {
    for (const record of records) {
      count += 1
      await onRecord(record)
    }
    return count
  }
  const iterator = records[Symbol.asyncIterator]()
  // One pending setImmediate at most: it fires only once the loop has yielded to the event
  // loop, i.e. when the source is really waiting (for the network, say).
  let tick: Promise<typeof WAITING> | undefined
  const idle = () =>
    (tick ??= new Promise((resolve) =>
      setImmediate(() => {
        tick = undefined
        resolve(WAITING)
      }),
    ))
  let finished = false
  try {
    for (;;) {
      const pending = iterator.next()
      pending.catch(() => undefined)
      let step = await Promise.race([pending, idle()])
      if (step === WAITING) {
        await onIdle()
        step = await pending
      }
      if (step.done) {
        finished = true
        break
      }
      count += 1
      await onRecord(step.value)
    }
  } finally {
    if (!finished) await iterator.return?.()
  }
  return count
}

/**
 * Runs the loop; if the source (or a write) fails, first writes out what was already
 * rendered, since those records are real, then passes the error on.
 */
async function streaming<T>(loop: () => Promise<T>, flush: () => Promise<void>): Promise<T> {
  try {
    return await loop()
  } catch (error) {
    await flush().catch(() => undefined)
    throw error
  }
}

// ---------------------------------------------------------------------------------------------
// Tables

// Colour is decided here, from the options, and written as plain ANSI: cli-table3's own colour
// library would second-guess it from the environment (it turns colour off under CI=true).
const BOLD = (text: string) => `\u001b[1m${text}\u001b[22m`
const GREY = (text: string) => `\u001b[90m${text}\u001b[39m`

function coloured(options: OutputOptions): boolean {
  return options.color && options.isTTY
}

function tableStyle() {
  return { head: [] as string[], border: [] as string[] }
}

/** Table borders in grey when colour is on. */
function paintBorders(text: string, options: OutputOptions): string {
  return coloured(options) ? text.replace(/[┌┬┐├┼┤└┴┘─│]+/g, GREY) : text
}

function padTo(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)))
}

/** A list table drawn in batches; column widths only ever grow, so batches line up. */
class ListTable<T> {
  readonly #columns: Column<T>[]
  readonly #options: OutputOptions
  readonly #sink: Sink
  readonly #headers: string[]
  #widths: number[]
  #rows: string[][] = []
  #headerWritten = false

  constructor(columns: Column<T>[], options: OutputOptions, sink: Sink) {
    this.#columns = columns
    this.#options = options
    this.#sink = sink
    this.#headers = columns.map((c) => sanitize(c.header))
    this.#widths = this.#headers.map(displayWidth)
  }

  async add(record: T): Promise<void> {
    const cells = this.#columns.map((column) => {
      const text = tableText(column, record)
      return this.#options.isTTY ? truncate(text, TTY_CELL_MAX) : text
    })
    this.#rows.push(cells)
    if (this.#rows.length >= TABLE_BATCH_ROWS) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.#rows.length === 0) return
    for (const row of this.#rows) row.forEach((cell, i) => (this.#widths[i] = Math.max(this.#widths[i] ?? 0, displayWidth(cell))))
    const text = this.#options.isTTY ? this.#boxed() : this.#plain()
    this.#rows = []
    await this.#sink.push(text)
    await this.#sink.flush()
  }

  #boxed(): string {
    const table = new Table({
      head: coloured(this.#options) ? this.#headers.map(BOLD) : this.#headers,
      colWidths: this.#widths.map((w) => w + 2),
      style: { ...tableStyle(), compact: true },
    })
    table.push(...this.#rows)
    return `${paintBorders(table.toString(), this.#options)}\n`
  }

  #plain(): string {
    const last = this.#headers.length - 1
    const line = (cells: string[]) => cells.map((cell, i) => (i === last ? cell : padTo(cell, this.#widths[i] ?? 0))).join('  ')
    const lines = this.#rows.map(line)
    if (!this.#headerWritten) lines.unshift(line(this.#headers))
    this.#headerWritten = true
    return `${lines.join('\n')}\n`
  }
}

function recordTable<T>(columns: Column<T>[], record: T, options: OutputOptions): string {
  const pairs = columns.map((column) => [sanitize(column.header), tableText(column, record)] as const)
  if (options.isTTY) {
    const table = new Table({ style: { ...tableStyle(), compact: true } })
    for (const [header, value] of pairs) table.push({ [coloured(options) ? BOLD(header) : header]: value })
    return `${paintBorders(table.toString(), options)}\n`
  }
  const width = Math.max(0, ...pairs.map(([header]) => displayWidth(header)))
  return `${pairs.map(([header, value]) => `${padTo(header, width)}  ${value}`).join('\n')}\n`
}

// ---------------------------------------------------------------------------------------------
// CSV and JSON

/**
 * One CSV record, as csv-stringify writes it by default (RFC 4180: a cell holding `"`, `,`, CR or
 * LF is quoted, quotes doubled; records end in LF), without its per-call set-up: on a 100 000-row
 * `--all --csv` that set-up was most of payfac's own CPU.
 */
function csvLine(cells: string[]): string {
  let line = ''
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] as string
    if (i > 0) line += ','
    line += CSV_QUOTE.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell
  }
  return `${line}\n`
}

const CSV_QUOTE = /[",\r\n]/

function csvRow<T>(columns: Column<T>[], record: T): string {
  return csvLine(columns.map((column) => csvText(readColumn(column, record))))
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
  const sink = new Sink(options.out)
  if (options.format === 'json') {
    await sink.push(`${jsonOf(view, record)}\n`)
    return sink.flush()
  }
  if (Array.isArray(record)) {
    await renderList(view as unknown as View<unknown>, record as unknown[], options)
    return
  }
  const known = viewColumns(view, { record })
  if (options.format === 'csv') {
    const columns = csvColumns(selectColumns(allColumns(known), allColumns(known), options.columns), { record })
    await sink.push(csvLine(columns.map((c) => c.key)) + csvRow(columns, record))
    return sink.flush()
  }
  const columns = selectColumns(allColumns(known), known.detail ?? known.columns, options.columns)
  await sink.push(recordTable(columns, record, options))
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
export async function renderList<T>(
  view: View<T>,
  records: Iterable<T> | AsyncIterable<T>,
  options: OutputOptions,
): Promise<number> {
  const sink = new Sink(options.out)
  if (options.format === 'json') return jsonList(view, records, sink)
  if (options.format === 'csv') return csvList(view, records, options, sink)
  return tableList(view, records, options, sink)
}

/** Columns chosen by --columns, or `defaults` picked from the view's columns. */
type Chooser<T> = (known: ViewColumns<T>) => Column<T>[]

/**
 * For a static view, choose now (so a bad --columns fails before the source is touched);
 * for a data-driven one, when the first record arrives.
 */
function columnsFor<T>(view: View<T>, choose: Chooser<T>): (record: T) => Column<T>[] {
  const upfront = view.fromSample ? undefined : choose(viewColumns(view))
  return (record) => upfront ?? choose(viewColumns(view, { record }))
}

async function jsonList<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, sink: Sink): Promise<number> {
  const flush = () => sink.flush()
  let first = true
  const write = async (record: T) => {
    await sink.push(`${first ? '[\n' : ',\n'}${indent(jsonOf(view, record))}`)
    first = false
  }
  const count = await streaming(() => forEach(records, write, flush), flush)
  await sink.push(count === 0 ? '[]\n' : '\n]\n')
  await sink.flush()
  return count
}

async function csvList<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, options: OutputOptions, sink: Sink): Promise<number> {
  const flush = () => sink.flush()
  const pick = columnsFor(view, (known) => selectColumns(allColumns(known), allColumns(known), options.columns))
  let columns: Column<T>[] | undefined
  const write = async (record: T) => {
    if (!columns) {
      columns = csvColumns(pick(record), { record })
      await sink.push(csvLine(columns.map((c) => c.key)))
    }
    await sink.push(csvRow(columns, record))
  }
  const count = await streaming(() => forEach(records, write, flush), flush)
  if (count === 0 && !view.fromSample) {
    const header = csvColumns(selectColumns(allColumns(viewColumns(view)), allColumns(viewColumns(view)), options.columns))
    if (header.length > 0) await sink.push(csvLine(header.map((c) => c.key)))
  }
  await sink.flush()
  return count
}

async function tableList<T>(view: View<T>, records: Iterable<T> | AsyncIterable<T>, options: OutputOptions, sink: Sink): Promise<number> {
  const pick = columnsFor(view, (known) => selectColumns(allColumns(known), known.columns, options.columns))
  let table: ListTable<T> | undefined
  const flush = async () => {
    await table?.flush()
    await sink.flush()
  }
  const write = async (record: T) => {
    table ??= new ListTable(pick(record), options, sink)
    await table.add(record)
  }
  const count = await streaming(() => forEach(records, write, flush), flush)
  await flush()
  return count
}
