// How output is asked for. The caller (the CLI) decides every field; nothing here looks at the
// process: `color` is false when NO_COLOR or TERM=dumb is set or stdout is not a terminal, and
// `ascii` true when the locale is not UTF-8 (./terminal.ts decides both from the environment).

/** `jsonl`: JSON Lines, one compact JSON object a line (a list streamed record by record). */
export type OutputFormat = 'table' | 'json' | 'csv' | 'jsonl'

/** Shown in a table for a missing value (keeps whitespace-separated columns countable). */
export const MISSING = '-'

export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'csv', 'jsonl']

export interface OutputOptions {
  format: OutputFormat
  /** Dot paths chosen with `--columns` (table and csv; json always prints the whole record). */
  columns?: string[] | undefined
  /** Where data goes: stdout. Nothing else is ever written to it. */
  out: NodeJS.WritableStream
  /** A terminal: bordered tables. Otherwise plain aligned text with no borders. */
  isTTY: boolean
  /** Colour and borders in tables. Ignored when not a TTY. */
  color: boolean
  /** ASCII only (a locale that is not UTF-8): `+-|` borders and `...` for a cut cell. */
  ascii?: boolean | undefined
  /** Terminal width in cells: tables on a TTY fit it (default 80). */
  width?: number | undefined
  /** Show every column and whole cells, whatever the width (`--wide`). */
  wide?: boolean | undefined
  /** A JMESPath expression applied to the JSON output (`--query`). */
  query?: string | undefined
  /**
   * Told, for stderr, what the user should know about the data printed: a `--query` that
   * selected nothing, the columns a table left out to fit the terminal (one line, no newline).
   */
  notice?: ((line: string) => void) | undefined
  /** Only the id of each record, one a line (`--ids`). */
  ids?: boolean | undefined
  /** Aborted (Ctrl-C): a list stops at the next record; JSON still ends as a valid array. */
  signal?: AbortSignal | undefined
}

/** `"a, b,,c"` → `['a', 'b', 'c']`: the text of a `--columns` flag, trimmed, empty entries dropped. */
export function parseColumnsFlag(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
}
