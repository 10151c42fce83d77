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
//   XML file cannot hold (C0 controls other than tab and line breaks) become U+FFFD, and a text
//   longer than a cell holds (32,767 characters; Excel calls a longer one unreadable content and
//   repairs the file) is cut there with a `…`, which stderr says (the CSV has it whole).
//
// A month can hold a million records. The workbook is not built in memory (exceljs' model takes
// about 15 KB a row: a heap of gigabytes, and the process dies before the file is written): the
// records of the Matched and Differences sheets wait in private temporary files as they come,
// the few of the Summary sheet in memory, and the workbook is streamed sheet by sheet (exceljs'
// streaming writer) into the atomic --out writer, so memory stays the same whatever the month.
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { PassThrough } from 'node:stream'

import { csvText } from '../../output/cells.js'
import { columnReader } from '../../output/view.js'
import { saveStream } from '../files/out-file.js'
import { addCleanup } from '../runtime/signals.js'
import { DECIMAL_COLUMNS, MINOR_COLUMNS, RECORD_COLUMNS, type ReconcileRecord } from './records.js'

/** The sheets, in order, and which records each holds. */
export const SHEETS = [
  { name: 'Summary', holds: (r: ReconcileRecord) => r.record === 'summary' || r.record === 'total' || r.record === 'balance' },
  { name: 'Matched', holds: (r: ReconcileRecord) => r.record === 'matched' },
  { name: 'Differences', holds: (r: ReconcileRecord) => r.record === 'difference' },
] as const

/** The most rows a sheet holds, its header included (Excel's limit). */
export const MAX_SHEET_ROWS = 1_048_576

/** The most characters a cell holds (Excel's limit). */
export const MAX_CELL_TEXT = 32_767

const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g

type Cell = string | number | boolean | null

const readers = RECORD_COLUMNS.map((column) => ({ key: column.key, read: columnReader(column) }))

/** A text cell as a workbook holds it (see the top of this file); `cut` when it had to be shortened. */
function textCell(value: unknown): { text: string; cut: boolean } {
  const text = csvText(value).replace(NOT_XML, '\ufffd')
  if (text.length <= MAX_CELL_TEXT) return { text, cut: false }
  // Not between the two halves of a surrogate pair.
  let end = MAX_CELL_TEXT - 1
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1
  return { text: `${text.slice(0, end)}…`, cut: true }
}

/** A record's cells, in RECORD_COLUMNS' order, the number format of each decimal amount, and how many texts were cut. */
export function recordCells(record: ReconcileRecord): { cells: Cell[]; formats: Array<string | undefined>; cut: number } {
  const formats: Array<string | undefined> = []
  let cut = 0
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
    const cell = textCell(value)
    if (cell.cut) cut += 1
    return cell.text
  })
  return { cells, formats, cut }
}

/** Records kept in a private temporary file, one JSON line each, written in blocks. */
class Spool {
  private fd: number | undefined
  private block: string[] = []
  private size = 0
  count = 0

  constructor(readonly file: string) {}

  add(record: ReconcileRecord): void {
    const line = `${JSON.stringify(record)}\n`
    this.block.push(line)
    this.size += line.length
    this.count += 1
    if (this.size >= 64 * 1024) this.flush()
  }

  flush(): void {
    if (this.block.length === 0) return
    this.fd ??= openSync(this.file, 'wx', 0o600)
    writeSync(this.fd, this.block.join(''))
    this.block = []
    this.size = 0
  }

  async *records(): AsyncGenerator<ReconcileRecord> {
    this.flush()
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
    if (this.count === 0) return
    for await (const line of createInterface({ input: createReadStream(this.file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY })) {
      if (line) yield JSON.parse(line) as ReconcileRecord
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }
}

export class ReconcileBook {
  private readonly summary: ReconcileRecord[] = []
  private folder: string | undefined
  private spools: Spool[] | undefined
  private forget: (() => void) | undefined
  /** Texts cut to a cell's size, said once the workbook is saved. */
  cut = 0

  add(record: ReconcileRecord): void {
    const at = SHEETS.findIndex((sheet) => sheet.holds(record))
    if (at < 0) return
    const rows = at === 0 ? this.summary.length : (this.spoolsMade()[at - 1] as Spool).count
    if (rows + 1 >= MAX_SHEET_ROWS) {
      throw new Error(`--xlsx: the ${SHEETS[at]?.name} sheet would pass ${MAX_SHEET_ROWS - 1} rows, the most a workbook sheet holds; use --csv`)
    }
    if (at === 0) this.summary.push(record)
    else this.spoolsMade()[at - 1]?.add(record)
  }

  private spoolsMade(): Spool[] {
    if (!this.spools) {
      const folder = mkdtempSync(join(tmpdir(), 'payfac-xlsx-'))
      this.folder = folder
      this.forget = addCleanup(() => rmSync(folder, { recursive: true, force: true }))
      this.spools = SHEETS.slice(1).map((sheet) => new Spool(join(folder, `${sheet.name}.jsonl`)))
    }
    return this.spools
  }

  private async *rowsOf(at: number): AsyncGenerator<ReconcileRecord> {
    if (at === 0) yield* this.summary
    else if (this.spools) yield* (this.spools[at - 1] as Spool).records()
  }

  /** Writes the workbook to `path` atomically; the bytes written. Its temporary files are removed. */
  async save(path: string): Promise<number> {
    try {
      const ExcelJS = ((await import('exceljs')) as unknown as { default: typeof import('exceljs') }).default
      const out = new PassThrough()
      const saving = saveStream(out, path)
      // A failed write (a full disk) ends the workbook: its writer would wait for ever on a closed stream.
      const failed = saving.then(
        () => new Promise<never>(() => undefined),
        (error: unknown) => Promise.reject(error),
      )
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
      workbook.creator = 'payfac'
      const write = async () => {
        for (const [at, sheet] of SHEETS.entries()) {
          const worksheet = workbook.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1 }] })
          worksheet.columns = RECORD_COLUMNS.map((c) => ({ width: Math.max(10, Math.min(60, c.key.length + 4)) }))
          const header = worksheet.addRow(RECORD_COLUMNS.map((c) => c.key))
          header.font = { bold: true }
          header.commit()
          let written = 0
          for await (const record of this.rowsOf(at)) {
            const { cells, formats, cut } = recordCells(record)
            this.cut += cut
            const row = worksheet.addRow(cells)
            formats.forEach((format, i) => {
              if (format) row.getCell(i + 1).numFmt = format
            })
            row.commit()
            // Lets the zip take what was written before more is made.
            if (++written % 200 === 0) await new Promise((resolve) => setImmediate(resolve))
          }
          worksheet.commit()
        }
        await workbook.commit()
      }
      const written = write().catch((error: unknown) => {
        // The half-made workbook is not saved: the writer removes its temporary file.
        out.destroy(error instanceof Error ? error : new Error(String(error)))
        throw error
      })
      await Promise.race([written, failed])
      return await saving
    } finally {
      this.dispose()
    }
  }

  /** Removes the temporary files (also when the run fails before the workbook is saved). */
  dispose(): void {
    for (const spool of this.spools ?? []) spool.close()
    if (this.folder) rmSync(this.folder, { recursive: true, force: true })
    this.forget?.()
    this.spools = undefined
    this.folder = undefined
  }
}
