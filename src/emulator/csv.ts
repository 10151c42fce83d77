// CSV text for the emulator's reports (RFC 4180): a header row, then one row per record, lines
// ended by CRLF. A field is quoted when it holds a comma, a quote, CR or LF, or starts or ends
// with a space; quotes inside are doubled. null and undefined are empty fields.

export type CsvValue = string | number | boolean | null | undefined

function field(value: CsvValue): string {
  if (value === null || value === undefined) return ''
  const text = String(value)
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One row: fields joined by commas, ended by CRLF. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(field).join(',')}\r\n`
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  return `${[header, ...rows].map((row) => row.map(field).join(',')).join('\r\n')}\r\n`
}
