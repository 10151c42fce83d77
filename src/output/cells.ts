// The text of one cell: for tables (people) and for CSV (programs). Pure.
import { formatMinorUnits, formatMoney, type Money } from '../client/money.js'
import { isMoney, isPlainObject } from './flatten.js'
import { MISSING } from './format.js'
import { sanitizeLine } from './sanitize.js'
import { readColumn, type Column } from './view.js'

// Tabs and line breaks in a cell become spaces (a row stays one line); every other control is
// shown as an escape by the one sanitiser (./sanitize.ts), as everywhere else on a terminal.
const LINE_BREAKS = /[\t\n\r]+/g

/** One line of inert text: tabs and line breaks become spaces, other controls visible escapes (`\u001b`). */
export function sanitize(text: string): string {
  return sanitizeLine(text.replace(LINE_BREAKS, ' '))
}

/** The value as Money when the column holds money: a Money object, or minor units plus currency. */
export function moneyOf<T>(column: Column<T>, record: T): Money | undefined {
  return moneyIn(column, readColumn(column, record), record)
}

/** moneyOf for a value already read from the column. */
export function moneyIn<T>(column: Column<T>, value: unknown, record: T): Money | undefined {
  if (isMoney(value)) return value
  if (column.kind === 'minor' && typeof value === 'number') {
    const currency = column.currency?.(record)
    if (currency) return { minorCurrencyUnits: value, currency }
  }
  return undefined
}

const ISO_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/i

/** `2024-05-01T10:00:00.123Z` → `2024-05-01 10:00:00Z`; anything else unchanged. The zone is kept as sent. */
export function formatTimestamp(text: string): string {
  const match = ISO_TIMESTAMP.exec(text)
  if (!match) return text
  const [, date, time, zone = ''] = match
  return `${date} ${time}${zone.toUpperCase()}`
}

function plainText(value: unknown): string {
  if (value === undefined || value === null || value === '') return MISSING
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (isMoney(value)) return formatMoney(value)
  if (Array.isArray(value)) {
    if (value.length === 0) return MISSING
    if (value.every((item) => item === null || typeof item !== 'object')) return value.map((item) => String(item)).join(', ')
    return JSON.stringify(value)
  }
  if (isPlainObject(value)) return JSON.stringify(value)
  return String(value)
}

/** What a table shows for a column of a record: by `display`, else by kind, on one safe line. */
export function tableText<T>(column: Column<T>, record: T): string {
  const value = readColumn(column, record)
  let text: string
  if (column.display) {
    text = column.display(value, record)
  } else if (column.kind === 'minor' && typeof value === 'number') {
    const currency = column.currency?.(record)
    text = currency ? `${formatMinorUnits(value, currency)} ${currency.toUpperCase()}` : String(value)
  } else if (column.kind === 'date' && typeof value === 'string') {
    text = formatTimestamp(value)
  } else if (column.kind === 'json' && value !== undefined && value !== null) {
    text = JSON.stringify(value)
  } else {
    text = plainText(value)
  }
  return sanitize(text)
}

// A cell a spreadsheet would run as a formula (OWASP's CSV injection rule): it begins with
// = + - @, a tab or a carriage return. A plain number such as -12.50 is data, not a formula.
const FORMULA_START = /^[=+\-@\t\r]/
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/

/** Text that a spreadsheet will show as written: a leading `'` when it would otherwise be run. */
export function defuseFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text
}

/**
 * A CSV cell: strings as they are (defused when they look like a formula), numbers and booleans
 * as JSON writes them, objects and arrays as JSON text, nothing for null.
 */
export function csvText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return defuseFormula(value)
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  return JSON.stringify(value)
}

// Code points that take two terminal cells: CJK, Hangul, fullwidth forms, most emoji.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u
// Combining marks and zero-width characters take none.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is matched alone, combining or not
const ZERO = /[\u0300-\u036f\u200b-\u200d\ufe00-\ufe0f]/u

/** Terminal cells a (sanitized) string takes: an approximation good for alignment. */
export function displayWidth(text: string): number {
  let width = 0
  for (const char of text) width += ZERO.test(char) ? 0 : WIDE.test(char) ? 2 : 1
  return width
}

/** Cuts text to at most `max` terminal cells, ending with `…` (or `ascii`: `...`) when cut. */
export function truncate(text: string, max: number, ascii = false): string {
  if (displayWidth(text) <= max) return text
  const mark = ascii ? '...' : '…'
  let out = ''
  let width = 0
  for (const char of text) {
    const w = ZERO.test(char) ? 0 : WIDE.test(char) ? 2 : 1
    if (width + w > max - mark.length) break
    out += char
    width += w
  }
  return `${out}${mark}`
}
