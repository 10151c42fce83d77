// Tables for people, and their plain form for programs.
//
// - A terminal with colour: one bordered table. Column widths are fixed from the first batch of
//   rows (the first page) and fitted to the terminal's width: long cells end with `…` (ids,
//   money, dates and columns marked `whole` are never cut) and, when even that does not fit, the
//   last columns are left out (`hidden`, which the caller reports). Which columns are left out is
//   decided by the first 20 rows, one page of the service's default size, so `--all` shows the
//   columns one page shows. Later rows are streamed into the same table, cut to those widths, so
//   `--all` is one table however long; a later row with a longer whole cell takes the room from
//   the cut columns of its own line.
// - A terminal without colour (NO_COLOR, TERM=dumb): the same, aligned with spaces, no box characters.
// - A locale that is not UTF-8 (`ascii`): borders drawn with `+ - |`, cut cells end with `...`.
// - Not a terminal: one line per record, cells separated by a tab, never padded or cut, so the
//   columns of a pipe never shift (`cut -f2`, `awk -F'\t'`).
// `wide` turns off cutting and leaving out.
// This file decides the columns, widths and cell texts; cli-table3 (./table-draw.ts, loaded only
// for a terminal) draws them.
import { displayWidth, sanitize, tableText, truncate } from './cells.js'
import type { OutputOptions } from './format.js'
import { draw, type DrawOptions, type TableClass } from './table-draw.js'
import type { Column } from './view.js'

/** Narrowest a cut column becomes (its header may need more). */
const MIN_CUT_WIDTH = 8

const BOLD = (text: string) => `\u001b[1m${text}\u001b[22m`

/** Ids are never cut: a cut id is useless to copy. */
export function isIdColumn<T>(column: Column<T>): boolean {
  return /(^|\.)id$|Id$|Ids$/.test(column.key)
}

/** Only free text is cut: ids, money, dates and columns marked `whole` are shown whole or not at all. */
function isCuttable<T>(column: Column<T>): boolean {
  return !isIdColumn(column) && !column.whole && column.kind !== 'money' && column.kind !== 'minor' && column.kind !== 'date'
}

/** The rows that decide which columns show: one page of the service's default size (20). */
export const COLUMN_SAMPLE_ROWS = 20

export type TableStyle = 'boxed' | 'aligned' | 'tsv'

/** Borders only with colour on a terminal; aligned text on a terminal without; tab-separated off one. */
export function tableStyle(options: OutputOptions): TableStyle {
  if (!options.isTTY) return 'tsv'
  return options.color ? 'boxed' : 'aligned'
}

function padTo(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)))
}

/** The width a row takes, borders and gaps included. */
function rowWidth(widths: number[], style: TableStyle): number {
  const sum = widths.reduce((a, b) => a + b, 0)
  if (widths.length === 0) return 0
  return style === 'boxed' ? sum + 3 * (widths.length - 1) + 4 : sum + 2 * (widths.length - 1)
}

/**
 * How many columns fit `budget`: the last columns (the least important: views list columns by
 * importance) go until the rest fits with free text at its minimum.
 */
export function keptColumns(natural: number[], minimum: number[], cuttable: boolean[], budget: number, style: TableStyle): number {
  const least = natural.map((width, i) => (cuttable[i] ? (minimum[i] as number) : width))
  let kept = natural.length
  while (kept > 1 && rowWidth(least.slice(0, kept), style) > budget) kept -= 1
  return kept
}

/** `widths` with the widest cuttable column losing a cell at a time (not below its minimum) until the row fits `budget`. */
export function shrinkToFit(widths: number[], minimum: number[], cuttable: boolean[], budget: number, style: TableStyle): number[] {
  const out = [...widths]
  while (rowWidth(out, style) > budget) {
    let widest = -1
    for (let i = 0; i < out.length; i += 1) {
      if (!cuttable[i] || (out[i] as number) <= (minimum[i] as number)) continue
      if (widest === -1 || (out[i] as number) > (out[widest] as number)) widest = i
    }
    if (widest === -1) break
    out[widest] = (out[widest] as number) - 1
  }
  return out
}

/** Widths that fit `budget`: keptColumns, then shrinkToFit. Returns the widths of the columns kept. */
export function fitWidths(natural: number[], minimum: number[], cuttable: boolean[], budget: number, style: TableStyle): number[] {
  return shrinkToFit(natural.slice(0, keptColumns(natural, minimum, cuttable, budget, style)), minimum, cuttable, budget, style)
}

/** A list table written as rows arrive; see the top of this file. */
export class StreamTable<T> {
  readonly #columns: Column<T>[]
  readonly #options: OutputOptions
  readonly #style: TableStyle
  readonly #Table: TableClass | undefined
  #widths: number[] | undefined
  #minimum: number[] = []
  #headDrawn = false
  #pending: string[][] = []
  #rows = 0

  /** `Table` (cli-table3, see loadTableClass) is needed on a terminal only. */
  constructor(columns: Column<T>[], options: OutputOptions, Table?: TableClass) {
    this.#columns = columns
    this.#options = options
    this.#style = tableStyle(options)
    this.#Table = Table
    if (this.#style !== 'tsv' && !Table) throw new Error('a table for a terminal needs cli-table3 loaded first')
  }

  /** Tab-separated text for a record off a terminal; on one, '' (rows are drawn by flush()). */
  add(record: T): string {
    const cells = this.#columns.map((column) => tableText(column, record))
    this.#rows += 1
    if (this.#style === 'tsv') return `${this.#rows === 1 ? `${this.#tsv(this.#headers())}\n` : ''}${this.#tsv(cells)}\n`
    this.#pending.push(cells)
    return ''
  }

  /** Draws the rows collected so far (the first batch fixes the widths). */
  flush(): string {
    if (this.#style === 'tsv' || this.#pending.length === 0) return ''
    this.#widths ??= this.#fit(this.#pending)
    const text = this.#draw(this.#pending)
    this.#pending = []
    return text
  }

  /** The end: what is still collected, and the bottom border. */
  end(): string {
    const text = this.flush()
    if (this.#style !== 'boxed' || !this.#widths) return text
    return text + draw(this.#Table as TableClass, this.#widths, undefined, [this.#widths.map((w) => ' '.repeat(w))], this.#drawOptions()).bottom
  }

  #drawOptions(): DrawOptions {
    return { boxed: this.#style === 'boxed', ascii: this.#options.ascii }
  }

  #headers(): string[] {
    return this.#columns.map((c) => sanitize(c.header))
  }

  /** Headers of the columns left out to fit the terminal (none with `wide`, or before the first rows). */
  get hidden(): string[] {
    return this.#widths ? this.#headers().slice(this.#widths.length) : []
  }

  #fit(rows: string[][]): number[] {
    const headers = this.#headers()
    const naturalOf = (some: string[][]) => headers.map((h, i) => Math.max(displayWidth(h), ...some.map((r) => displayWidth(r[i] ?? ''))))
    const natural = naturalOf(rows)
    if (this.#options.wide) return natural
    const minimumOf = (widths: number[]) => headers.map((h, i) => Math.min(widths[i] as number, Math.max(MIN_CUT_WIDTH, displayWidth(h))))
    const cuttable = this.#columns.map((c) => isCuttable(c))
    const budget = this.#options.width ?? 80
    const sample = naturalOf(rows.slice(0, COLUMN_SAMPLE_ROWS))
    const kept = keptColumns(sample, minimumOf(sample), cuttable, budget, this.#style)
    this.#minimum = minimumOf(natural).slice(0, kept)
    return shrinkToFit(natural.slice(0, kept), this.#minimum, cuttable, budget, this.#style)
  }

  /**
   * The widths a row is drawn at: the table's, or wider where a cell that is never cut needs it,
   * the room then taken from the row's cut columns where they have it.
   */
  #rowWidths(cells: string[]): number[] {
    const widths = this.#widths as number[]
    let grew = false
    const own = widths.map((width, i) => {
      const column = this.#columns[i]
      const keepWhole = this.#options.wide || !column || !isCuttable(column)
      const need = keepWhole ? Math.max(width, displayWidth(cells[i] ?? '')) : width
      grew ||= need > width
      return need
    })
    if (!grew || this.#options.wide) return own
    const cuttable = this.#columns.slice(0, own.length).map((c) => isCuttable(c))
    return shrinkToFit(own, this.#minimum, cuttable, this.#options.width ?? 80, this.#style)
  }

  /** Cells cut (free text only) and padded to `widths`. */
  #cells(cells: string[], widths: number[]): string[] {
    return widths.map((width, i) => {
      const cell = cells[i] ?? ''
      const column = this.#columns[i]
      const keepWhole = this.#options.wide || !column || !isCuttable(column)
      return padTo(keepWhole ? cell : truncate(cell, width, this.#options.ascii), width)
    })
  }

  /**
   * Rows drawn by cli-table3, the header and the top border before the first. Consecutive rows
   * of the same widths are drawn together; a row with a longer id than the first batch had is
   * drawn at its own widths (the id is never cut, the rest of the row keeps its place).
   */
  #draw(rows: string[][]): string {
    let text = ''
    let group: string[][] = []
    let groupWidths: number[] = []
    const out = () => {
      if (group.length === 0) return
      const head = this.#headDrawn ? undefined : this.#cells(this.#headers(), groupWidths)
      const drawn = draw(this.#Table as TableClass, groupWidths, head && this.#style === 'boxed' ? head.map(BOLD) : head, group, this.#drawOptions())
      this.#headDrawn = true
      text += drawn.head
      for (const line of drawn.rows) text += `${line}\n`
      group = []
    }
    for (const cells of rows) {
      const widths = this.#rowWidths(cells)
      if (group.length > 0 && widths.some((w, i) => w !== groupWidths[i])) out()
      groupWidths = widths
      group.push(this.#cells(cells, widths))
    }
    out()
    return text
  }

  #tsv(cells: string[]): string {
    return cells.join('\t')
  }
}

/**
 * One record as `header  value` lines: on a terminal drawn by cli-table3 (`Table`), bordered
 * with colour and aligned without; off one, aligned plain text.
 */
export function recordTable<T>(columns: Column<T>[], record: T, options: OutputOptions, Table?: TableClass): string {
  const pairs = columns.map((column) => [sanitize(column.header), tableText(column, record)] as const)
  const keyWidth = Math.max(0, ...pairs.map(([header]) => displayWidth(header)))
  const boxed = tableStyle(options) === 'boxed'
  const room = options.isTTY && !options.wide ? Math.max(MIN_CUT_WIDTH, (options.width ?? 80) - keyWidth - (boxed ? 7 : 2)) : Infinity
  const values = pairs.map(([, value]) => (room === Infinity ? value : truncate(value, room, options.ascii)))
  if (!options.isTTY || !Table) return `${pairs.map(([header], i) => `${padTo(header, keyWidth)}  ${values[i]}`.trimEnd()).join('\n')}\n`
  if (pairs.length === 0) return ''
  const valueWidth = Math.max(0, ...values.map(displayWidth))
  const rows = pairs.map(([header], i) => [boxed ? BOLD(padTo(header, keyWidth)) : padTo(header, keyWidth), padTo(values[i] as string, valueWidth)])
  const drawn = draw(Table, [keyWidth, valueWidth], undefined, rows, { boxed, ascii: options.ascii })
  return `${drawn.top}${drawn.rows.map((line) => `${line}\n`).join('')}${drawn.bottom}`
}

/** What a list table says (stderr) when columns did not fit: `3 columns hidden: --wide shows them, --columns picks (…)`. */
export function hiddenNotice(hidden: string[]): string {
  return `${hidden.length} column${hidden.length === 1 ? '' : 's'} hidden: --wide shows them, --columns picks the columns (${hidden.join(', ')})`
}

/** The column `--ids` prints: the first id column of the view, else its `name` (profiles), else its first column. */
export function idColumn<T>(columns: Column<T>[]): Column<T> | undefined {
  return columns.find((c) => isIdColumn(c)) ?? columns.find((c) => c.key === 'name') ?? columns[0]
}
