// What a terminal can show, from the environment the CLI passes in. Pure: nothing here reads the
// process itself.
//
// - Colour: never with NO_COLOR (any non-empty value, as no-color.org says) or TERM=dumb.
// - Unicode (box-drawing borders, `…`): unless the locale names another character set. The first
//   non-empty of LC_ALL, LC_CTYPE and LANG decides, as POSIX orders them; `C`, `POSIX` or any
//   locale that does not say UTF-8 gets ASCII (`+-|` borders, `...`). With none of them set
//   (Windows, many containers) Unicode is kept.

export type TerminalEnv = Readonly<Record<string, string | undefined>>

/** Whether colour may be used (the stream being a terminal is the caller's other condition). */
export function colourAllowed(env: TerminalEnv): boolean {
  if (env.NO_COLOR) return false
  return env.TERM !== 'dumb'
}

/** Whether the locale can show characters beyond ASCII. */
export function unicodeAllowed(env: TerminalEnv): boolean {
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((value) => value !== undefined && value !== '')
  if (locale === undefined) return true
  return /utf-?8/i.test(locale)
}

/**
 * The width to lay out for: what the terminal reports, or 80 when it reports nothing or 0 (some
 * `docker exec -t` and `script` sessions do), so that a table never shrinks to its first column.
 */
export function terminalWidth(columns: number | undefined): number {
  return typeof columns === 'number' && Number.isFinite(columns) && columns > 0 ? columns : 80
}

/** Text wrapped between words to `width` columns, each paragraph (`\n`) on its own lines. */
export function wrapWords(text: string, width: number): string {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line)
        line = word
      } else line = line ? `${line} ${word}` : word
    }
    lines.push(line)
  }
  return lines.join('\n')
}
