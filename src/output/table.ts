// Tables for people, and their plain form for programs.
//
// - A terminal with colour: one bordered table. Column widths are fixed from the first batch of
//   rows (the first page) and fitted to the terminal's width: long cells end with `…` (ids are
//   never cut) and, when even that does not fit, the last columns are left out. Later rows are
//   streamed into the same table, cut to those widths, so `--all` is one table however long.
// - A terminal without colour (NO_COLOR, TERM=dumb): the same, aligned with spaces, no box characters.
// - A locale that is not UTF-8 (`ascii`): borders drawn with `+ - |`, cut cells end with `...`.
// - Not a terminal: one line per record, cells separated by a tab, never padded or cut, so the
//   columns of a pipe never shift (`cut -f2`, `awk -F'\t'`).
// `wide` turns off cutting and leaving out.
import { displayWidth, sanitize, tableText, truncate } from './cells.js'
import type { OutputOptions } from './format.js'
import type { Column } from './view.js'

/** Narrowest a cut column becomes (its header may need more). */
const MIN_CUT_WIDTH = 8

const BOLD = (text: string) => `\u001b[1m${text}\u001b[22m`
const GREY = (text: string) => `\u001b[90m${text}\u001b[39m`

/** The border characters: box drawing, or ASCII for a locale that cannot show it. */
interface Borders {
  h: string
  v: string
  top: [string, string, string]
  mid: [string, string, string]
  bottom: [string, string, string]
}
const BOX_BORDERS: Borders = { h: '─', v: '│', top: ['┌', '┬', '┐'], mid: ['├', '┼', '┤'], bottom: ['└', '┴', '┘'] }
const ASCII_BORDERS: Borders = { h: '-', v: '|', top: ['+', '+', '+'], mid: ['+', '+', '+'], bottom: ['+', '+', '+'] }
const bordersFor = (options: OutputOptions) => (options.ascii ? ASCII_BORDERS : BOX_BORDERS)

/** Ids are never cut: a cut id is useless to copy. */
export function isIdColumn<T>(column: Column<T>): boolean {
  return /(^|\.)id$|Id$|Ids$/.test(column.key)
}

/** Only free text is cut: ids, money and dates are shown whole or not at all. */
function isCuttable<T>(column: Column<T>): boolean {
  return !isIdColumn(column) && column.kind !== 'money' && column.kind !== 'minor' && column.kind !== 'date'
}

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
 * Widths that fit `budget`: first the last columns (the least important: views list columns
 * by importance) go until the rest fits with free text at its minimum; then the widest
 * cuttable column loses a cell at a time. Returns the widths of the columns kept.
 */
export function fitWidths(natural: number[], minimum: number[], cuttable: boolean[], budget: number, style: TableStyle): number[] {
  const least = natural.map((width, i) => (cuttable[i] ? (minimum[i] as number) : width))
  let kept = natural.length
  while (kept > 1 && rowWidth(least.slice(0, kept), style) > budget) kept -= 1
  const widths = natural.slice(0, kept)
  while (rowWidth(widths, style) > budget) {
    let widest = -1
    for (let i = 0; i < widths.length; i += 1) {
      if (!cuttable[i] || (widths[i] as number) <= (minimum[i] as number)) continue
      if (widest === -1 || (widths[i] as number) > (widths[widest] as number)) widest = i
    }
    if (widest === -1) break
    widths[widest] = (widths[widest] as number) - 1
  }
  return widths
}

/** A list table written as rows arrive; see the top of this file. */
export class StreamTable<T> {
  readonly #columns: Column<T>[]
  readonly #options: OutputOptions
  readonly #style: TableStyle
  #widths: number[] | undefined
  #pending: string[][] = []
  #rows = 0

  constructor(columns: Column<T>[], options: OutputOptions) {
    this.#columns = columns
    this.#options = options
    this.#style = tableStyle(options)
  }

  /** Text for a record, or '' while the first batch is being collected (to fix the widths). */
  add(record: T): string {
    const cells = this.#columns.map((column) => tableText(column, record))
    this.#rows += 1
    if (this.#style === 'tsv') return `${this.#rows === 1 ? `${this.#tsv(this.#headers())}\n` : ''}${this.#tsv(cells)}\n`
    if (this.#widths) return `${this.#line(cells)}\n`
    this.#pending.push(cells)
    return ''
  }

  /** Writes out the rows collected so far (the first batch fixes the widths). */
  flush(): string {
    if (this.#style === 'tsv' || this.#pending.length === 0) return ''
    let text = ''
    if (!this.#widths) {
      this.#widths = this.#fit(this.#pending)
      text += this.#head()
    }
    for (const cells of this.#pending) text += `${this.#line(cells)}\n`
    this.#pending = []
    return text
  }

  /** The end: what is still collected, and the bottom border. */
  end(): string {
    const text = this.flush()
    if (this.#style !== 'boxed' || !this.#widths) return text
    return text + this.#border(...bordersFor(this.#options).bottom)
  }

  #headers(): string[] {
    return this.#columns.map((c) => sanitize(c.header))
  }

  #fit(rows: string[][]): number[] {
    const headers = this.#headers()
    const natural = headers.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))))
    if (this.#options.wide) return natural
    const minimum = headers.map((h, i) => Math.min(natural[i] as number, Math.max(MIN_CUT_WIDTH, displayWidth(h))))
    const cuttable = this.#columns.map((c) => isCuttable(c))
    return fitWidths(natural, minimum, cuttable, this.#options.width ?? 80, this.#style)
  }

  #cells(cells: string[]): string[] {
    const widths = this.#widths as number[]
    return widths.map((width, i) => {
      const cell = cells[i] ?? ''
      const cut = this.#options.wide || !this.#columns[i] || !isCuttable(this.#columns[i] as Column<T>) ? cell : truncate(cell, width, this.#options.ascii)
      return padTo(cut, width)
    })
  }

  #line(cells: string[], bold = false): string {
    const shown = this.#cells(cells).map((cell) => (bold ? BOLD(cell) : cell))
    if (this.#style === 'aligned') return shown.join('  ').trimEnd()
    const bar = GREY(bordersFor(this.#options).v)
    return `${bar} ${shown.join(` ${bar} `)} ${bar}`
  }

  #border(left: string, middle: string, right: string): string {
    const widths = this.#widths as number[]
    const h = bordersFor(this.#options).h
    return `${GREY(left + widths.map((w) => h.repeat(w + 2)).join(middle) + right)}\n`
  }

  #head(): string {
    if (this.#style === 'aligned') return `${this.#line(this.#headers())}\n`
    const b = bordersFor(this.#options)
    return `${this.#border(...b.top)}${this.#line(this.#headers(), true)}\n${this.#border(...b.mid)}`
  }

  #tsv(cells: string[]): string {
    return cells.join('\t')
  }
}

/** One record as `header  value` lines: bordered with colour on a terminal, aligned otherwise. */
export function recordTable<T>(columns: Column<T>[], record: T, options: OutputOptions): string {
  const pairs = columns.map((column) => [sanitize(column.header), tableText(column, record)] as const)
  const keyWidth = Math.max(0, ...pairs.map(([header]) => displayWidth(header)))
  const boxed = tableStyle(options) === 'boxed'
  const room = options.isTTY && !options.wide ? Math.max(MIN_CUT_WIDTH, (options.width ?? 80) - keyWidth - (boxed ? 7 : 2)) : Infinity
  const values = pairs.map(([, value]) => (room === Infinity ? value : truncate(value, room, options.ascii)))
  if (!boxed) return `${pairs.map(([header], i) => `${padTo(header, keyWidth)}  ${values[i]}`.trimEnd()).join('\n')}\n`
  const valueWidth = Math.max(0, ...values.map(displayWidth))
  const b = bordersFor(options)
  const bar = GREY(b.v)
  const line = ([l, m, r]: [string, string, string]) => `${GREY(l + b.h.repeat(keyWidth + 2) + m + b.h.repeat(valueWidth + 2) + r)}\n`
  let text = line(b.top)
  pairs.forEach(([header], i) => {
    text += `${bar} ${BOLD(padTo(header, keyWidth))} ${bar} ${padTo(values[i] as string, valueWidth)} ${bar}\n`
  })
  return text + line(b.bottom)
}

/** The column `--ids` prints: the first id column of the view, else its first column. */
export function idColumn<T>(columns: Column<T>[]): Column<T> | undefined {
  return columns.find((c) => isIdColumn(c)) ?? columns[0]
}
