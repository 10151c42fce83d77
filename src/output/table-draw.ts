// Drawing a table on a terminal with cli-table3. Our code (./table.ts) decides which columns
// show, how wide each is and what every cell says (already made safe, cut and padded); cli-table3
// draws the rows between the borders. It is loaded (dynamic import) only when a table is printed
// to a terminal: `--json`, CSV, piped output, `--help` and `--version` never load it.
//
// - boxed: box-drawing borders (ASCII `+ - |` for a locale that is not UTF-8), grey.
// - aligned (NO_COLOR, TERM=dumb): no borders, columns two spaces apart, no trailing spaces.
// cli-table3's own colours are never used (style head/border empty): payfac adds its own codes,
// so whether colour is on is decided in one place (./terminal.ts), not by a second library.
//
// cli-table3 draws whole tables; payfac streams one table in batches (the first page, then the
// next, then the bottom border). So cli-table3 is given only the rows, with every horizontal
// character empty: its documented behaviour is to skip empty decoration lines, so with word
// wrapping off (cells are single lines, cut to their width) it draws exactly one line per row,
// which is checked. The three horizontal lines (the top, the one under the header, the bottom)
// are drawn here from the same characters and widths. Nothing cli-table3 draws is taken apart.
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

/** The characters of a horizontal line: left end, fill, between columns, right end. */
const LINES = {
  top: ['top-left', 'top', 'top-mid', 'top-right'],
  underHead: ['left-mid', 'mid', 'mid-mid', 'right-mid'],
  bottom: ['bottom-left', 'bottom', 'bottom-mid', 'bottom-right'],
} as const satisfies Record<string, readonly CliTable3.CharName[]>

/** No horizontal line at all: cli-table3 skips empty decoration lines, so only rows are drawn. */
const NO_LINES: Chars = Object.fromEntries(Object.values(LINES).flatMap((names) => names.map((name) => [name, ''])))

/**
 * Draws `rows` (and `head`, when given) with cells already cut and padded to `widths`; a row
 * stays one line (wordWrap off). A cell wider than its width (an id, which is never cut) must
 * come with a wider `widths` entry: cli-table3 would cut it.
 */
export function draw(Table: TableClass, widths: number[], head: string[] | undefined, rows: string[][], options: DrawOptions): Drawn {
  const pad = options.boxed ? 1 : 0
  const base = options.boxed ? (options.ascii ? ASCII : BOX) : NONE
  // The vertical bars sit inside data lines: grey each one. Whole border lines are greyed below.
  const bar = (c: string | undefined) => (options.boxed ? GREY(c ?? '') : (c ?? ''))
  const table = new Table({
    chars: { ...NO_LINES, left: bar(base.left), middle: bar(base.middle), right: bar(base.right) },
    colWidths: widths.map((w) => w + 2 * pad),
    style: { head: [], border: [], 'padding-left': pad, 'padding-right': pad },
    wordWrap: false,
    truncate: options.ascii ? '...' : '…',
  })
  const cells = head ? [head, ...rows] : rows
  for (const row of cells) table.push(row)
  const drawn = cells.length === 0 ? [] : table.toString().split('\n')
  if (drawn.length !== cells.length) throw new Error(`cli-table3 drew ${drawn.length} lines for ${cells.length} rows`)
  const lines = options.boxed ? drawn : drawn.map((line) => line.trimEnd())
  const headLine = head ? lines.shift() : undefined
  if (!options.boxed) return { top: '', head: headLine === undefined ? '' : `${headLine}\n`, rows: lines, bottom: '' }
  const border = (names: readonly CliTable3.CharName[]) => {
    const [left, fill, middle, right] = names.map((name) => base[name] ?? '')
    return `${GREY(`${left}${widths.map((w) => (fill as string).repeat(w + 2 * pad)).join(middle)}${right}`)}\n`
  }
  const top = border(LINES.top)
  return {
    top,
    head: headLine === undefined ? '' : `${top}${headLine}\n${border(LINES.underHead)}`,
    rows: lines,
    bottom: border(LINES.bottom),
  }
}
