// Drawing a table on a terminal with cli-table3. Our code (./table.ts) decides which columns
// show, how wide each is and what every cell says (already made safe, cut and padded); cli-table3
// draws the borders around them. It is loaded (dynamic import) only when a table is printed to a
// terminal: `--json`, CSV, piped output, `--help` and `--version` never load it.
//
// - boxed: box-drawing borders (ASCII `+ - |` for a locale that is not UTF-8), grey.
// - aligned (NO_COLOR, TERM=dumb): no borders, columns two spaces apart, no trailing spaces.
// cli-table3's own colours are never used (style head/border empty): payfac adds its own codes,
// so whether colour is on is decided in one place (./terminal.ts), not by a second library.
import type CliTable3 from 'cli-table3'

export type TableClass = typeof CliTable3

/** Loads cli-table3: call only when a table goes to a terminal. */
export async function loadTableClass(): Promise<TableClass> {
  const loaded = (await import('cli-table3')) as { default?: TableClass } & Partial<TableClass>
  return (loaded.default ?? loaded) as TableClass
}

const GREY = (text: string) => `\u001b[90m${text}\u001b[39m`

type Chars = Partial<Record<CliTable3.CharName, string>>

const BOX: Chars = {
  top: '─',
  'top-mid': '┬',
  'top-left': '┌',
  'top-right': '┐',
  bottom: '─',
  'bottom-mid': '┴',
  'bottom-left': '└',
  'bottom-right': '┘',
  left: '│',
  'left-mid': '├',
  mid: '─',
  'mid-mid': '┼',
  right: '│',
  'right-mid': '┤',
  middle: '│',
}
const ASCII: Chars = {
  top: '-',
  'top-mid': '+',
  'top-left': '+',
  'top-right': '+',
  bottom: '-',
  'bottom-mid': '+',
  'bottom-left': '+',
  'bottom-right': '+',
  left: '|',
  'left-mid': '+',
  mid: '-',
  'mid-mid': '+',
  right: '|',
  'right-mid': '+',
  middle: '|',
}
const NONE: Chars = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
}

export interface DrawOptions {
  /** Borders (with grey) or aligned text without any. */
  boxed: boolean
  /** `+ - |` and `...` instead of box drawing and `…`. */
  ascii: boolean | undefined
}

/** The parts of a drawn table, so a long list can be drawn a batch at a time as one table. */
export interface Drawn {
  /** The top border line ('' when aligned). */
  top: string
  /** The top border, the header row and the line under it (empty when no header was given). */
  head: string
  /** One line per row. */
  rows: string[]
  /** The bottom border ('' when aligned). */
  bottom: string
}

/**
 * Draws `rows` (and `head`, when given) with cells already cut and padded to `widths`; a row
 * stays one line (wordWrap off). A cell wider than its width (an id, which is never cut) must
 * come with a wider `widths` entry: cli-table3 would cut it.
 */
export function draw(Table: TableClass, widths: number[], head: string[] | undefined, rows: string[][], options: DrawOptions): Drawn {
  const pad = options.boxed ? 1 : 0
  const bar = (c: string | undefined) => GREY(c ?? '')
  const base = options.boxed ? (options.ascii ? ASCII : BOX) : NONE
  // The vertical bars sit inside data lines: grey each one. Whole border lines are greyed below.
  const chars: Chars = options.boxed ? { ...base, left: bar(base.left), middle: bar(base.middle), right: bar(base.right) } : base
  const table = new Table({
    chars,
    colWidths: widths.map((w) => w + 2 * pad),
    style: { head: [], border: [], compact: true, 'padding-left': pad, 'padding-right': pad },
    wordWrap: false,
    truncate: options.ascii ? '...' : '…',
    ...(head ? { head } : {}),
  })
  for (const row of rows) table.push(row)
  const lines = table.toString().split('\n')
  if (!options.boxed) {
    const shown = lines.map((line) => line.trimEnd())
    return { top: '', head: head ? `${shown[0]}\n` : '', rows: head ? shown.slice(1) : shown, bottom: '' }
  }
  // boxed: top, [head, separator,] rows..., bottom
  const top = `${GREY(lines[0] as string)}\n`
  const bottom = `${GREY(lines[lines.length - 1] as string)}\n`
  const body = lines.slice(1, -1)
  if (!head) return { top, head: '', rows: body, bottom }
  return { top, head: `${top}${body[0]}\n${GREY(body[1] as string)}\n`, rows: body.slice(2), bottom }
}
