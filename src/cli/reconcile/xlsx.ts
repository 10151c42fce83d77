// `settlement reconcile --xlsx FILE`: one workbook an accountant opens, written with exceljs
// (loaded here only, when --xlsx is given: no other command pays for it at start-up). One sheet
// per part: Summary (the summary, totals and balance records), Matched, Differences; each with
// the CSV's columns in a frozen header row, so its cells are the CSV's cells:
//
// - minor units and counts are numbers; the decimal amounts are numbers shown with the
//   currency's decimals (`#,##0.00` for AUD, `#,##0` for JPY);
// - `matched` is a boolean;
// - text is the CSV's text (formula cells with their leading `'`), written as text: a workbook
//   cell is a formula only when made as one, and nothing the service sends is. Characters an
//   XML file cannot hold (C0 controls other than tab and line breaks) become U+FFFD.
//
// The workbook is built in memory (a month's records; a sheet holds at most 1,048,575 rows) and
// saved atomically, as every --out file.
import { Readable } from 'node:stream'

import { csvText } from '../../output/cells.js'
import { columnReader } from '../../output/view.js'
import { saveStream } from '../files/out-file.js'
import { DECIMAL_COLUMNS, MINOR_COLUMNS, RECORD_COLUMNS, type ReconcileRecord } from './records.js'

/** The sheets, in order, and which records each holds. */
export const SHEETS = [
  { name: 'Summary', holds: (r: ReconcileRecord) => r.record === 'summary' || r.record === 'total' || r.record === 'balance' },
  { name: 'Matched', holds: (r: ReconcileRecord) => r.record === 'matched' },
  { name: 'Differences', holds: (r: ReconcileRecord) => r.record === 'difference' },
] as const

/** The most rows a sheet holds, its header included (Excel's limit). */
export const MAX_SHEET_ROWS = 1_048_576

const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g

type Cell = string | number | boolean | null

const readers = RECORD_COLUMNS.map((column) => ({ key: column.key, read: columnReader(column) }))

/** A record's cells, in RECORD_COLUMNS' order, and the number format of each decimal amount. */
export function recordCells(record: ReconcileRecord): { cells: Cell[]; formats: Array<string | undefined> } {
  const formats: Array<string | undefined> = []
  const cells = readers.map(({ key, read }, i) => {
    const value = read(record)
    if (value === null || value === undefined) return null
    if (MINOR_COLUMNS.has(key) || key === 'count') return typeof value === 'number' ? value : null
    if (DECIMAL_COLUMNS.has(key)) {
      const text = String(value)
      const places = text.split('.')[1]?.length ?? 0
      formats[i] = places > 0 ? `#,##0.${'0'.repeat(places)}` : '#,##0'
      return Number(text)
    }
    if (key === 'matched') return typeof value === 'boolean' ? value : null
    return csvText(value).replace(NOT_XML, '\ufffd')
  })
  return { cells, formats }
}

export class ReconcileBook {
  private readonly rows: ReconcileRecord[][] = SHEETS.map(() => [])

  add(record: ReconcileRecord): void {
    const at = SHEETS.findIndex((sheet) => sheet.holds(record))
    const rows = this.rows[at]
    if (!rows) return
    if (rows.length + 1 >= MAX_SHEET_ROWS) {
      throw new Error(`--xlsx: the ${SHEETS[at]?.name} sheet would pass ${MAX_SHEET_ROWS - 1} rows, the most a workbook sheet holds; use --csv`)
    }
    rows.push(record)
  }

  /** Writes the workbook to `path` atomically; the bytes written. */
  async save(path: string): Promise<number> {
    const ExcelJS = ((await import('exceljs')) as unknown as { default: typeof import('exceljs') }).default
    const workbook = new ExcelJS.Workbook()
    workbook.creator = 'payfac'
    for (const [at, sheet] of SHEETS.entries()) {
      const worksheet = workbook.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1 }] })
      const header = worksheet.addRow(RECORD_COLUMNS.map((c) => c.key))
      header.font = { bold: true }
      for (const record of this.rows[at] ?? []) {
        const { cells, formats } = recordCells(record)
        const row = worksheet.addRow(cells)
        formats.forEach((format, i) => {
          if (format) row.getCell(i + 1).numFmt = format
        })
      }
      worksheet.columns.forEach((column, i) => {
        column.width = Math.max(10, Math.min(60, (RECORD_COLUMNS[i]?.key.length ?? 10) + 4))
      })
    }
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer())
    return saveStream(Readable.from([buffer]), path)
  }
}
