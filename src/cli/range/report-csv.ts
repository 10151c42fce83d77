// The settlement report's CSV, read, checked and written again as it arrives (never whole in memory).
//
// - The first line is the header, parsed with csv-parse: it must name the report's required
//   columns (REQUIRED_COLUMNS, and an amount); columns payfac does not know are kept, in the
//   service's order (the service may add columns without notice); a name given twice is refused.
// - Every row must have as many fields as the header. A row whose cells are plain (no cell a
//   spreadsheet would run as a formula, RFC 4180 quoting) is passed on byte for byte, so a clean
//   report is written exactly as the service sent it; any other row is parsed with csv-parse, its
//   cells defused with the rule of payfac's own CSV (defuseFormula: a leading `'` before `=`, `+`,
//   `-`, `@`, a tab or CR, plain numbers left alone) and written again with csv-stringify.
//   (Measured on a 44 MiB report of the emulator's shape: csv-parse alone read 15-20 MiB/s on the
//   build machine, this scan with its checks 60-80 MiB/s on the same machine under heavier load;
//   so a million-entry report keeps the bench's pace against curl, and the libraries still judge
//   every row that is not plainly clean.)
// - What is not that CSV (HTML, JSON, binary, an empty body, a row cut off) is an AnswerShapeError
//   (exit 7) naming what came.
import { AnswerShapeError, type StreamAt, describeStart, withHead } from '../files/download-checks.js'
import { defuseFormula } from '../../output/cells.js'
import { type DateRange, inPart } from './range.js'

/** Columns the report must have (the emulator's documented header; the contract shows none). */
export const REQUIRED_COLUMNS = ['settlementEntryId', 'createdAt', 'type', 'currency'] as const
/** At least one of these. */
export const AMOUNT_COLUMNS = ['amountMinorUnits', 'amount'] as const
/** A row (the header included) longer than this is not the report's CSV. */
export const MAX_RECORD_BYTES = 1024 * 1024

type ParseSync = (input: Buffer | string, options: Record<string, unknown>) => string[][]
type StringifySync = (records: string[][], options: Record<string, unknown>) => string

interface Libraries {
  parse: ParseSync
  stringify: StringifySync
}

let libraries: Promise<Libraries> | undefined

/**
 * csv-parse and csv-stringify, loaded on first use (only this command needs them); called early
 * (while the request is sent) so that the body is read as soon as it comes.
 */
export function csvLibraries(): Promise<Libraries> {
  libraries ??= Promise.all([import('csv-parse/sync'), import('csv-stringify/sync')]).then(([p, s]) => ({
    parse: p.parse as unknown as ParseSync,
    stringify: s.stringify as unknown as StringifySync,
  }))
  return libraries
}

/**
 * How a header or a rewritten row is written: with the report's line end, and quoted wherever a
 * reader could take a cell apart. csv-stringify quotes a lone CR or LF only when told to once a
 * record delimiter is named (it then looks for that delimiter alone), so `quote_record_delimiter`
 * is set; a cell that begins with a BOM is quoted too, so that a reader that drops a BOM at the
 * start of the file never eats a cell's own.
 */
export function rowOptions(lineEnd: '\r\n' | '\n'): Record<string, unknown> {
  return { record_delimiter: lineEnd, quote_record_delimiter: true, quoted_match: /^\uFEFF/, eof: true }
}

const QUOTE = 0x22
const COMMA = 0x2c
const LF = 0x0a
const CR = 0x0d

const formulaStart = (b: number | undefined) => b === 0x3d || b === 0x2b || b === 0x2d || b === 0x40 || b === 0x09 || b === CR

const isDigit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39

/** Whether buf[from, to) is `[+-]digits[.digits]`: a plain number, which is not defused. */
function plainNumber(buf: Buffer, from: number, to: number): boolean {
  let i = from
  if (buf[i] === 0x2b || buf[i] === 0x2d) i++
  let digits = 0
  for (; i < to && isDigit(buf[i]); i++) digits++
  if (digits === 0) return false
  if (i === to) return true
  if (buf[i] !== 0x2e) return false
  i++
  let decimals = 0
  for (; i < to && isDigit(buf[i]); i++) decimals++
  return decimals > 0 && i === to
}

/** What scanRecord found about the record it cut. */
interface Scan {
  fields: number
  /** Not plainly clean: csv-parse and csv-stringify write it again. */
  risky: boolean
  /** Bytes of the createdAt field (as sent, quotes included). */
  createdFrom: number
  createdTo: number
}

/**
 * Cuts the record starting at `start` (up to and with its LF outside quotes); returns the index
 * after it, or -1 when `buf` ends first.
 */
function scanRecord(buf: Buffer, start: number, createdAt: number, scan: Scan, crlf?: boolean): number {
  const n = buf.length
  let i = start
  let field = 0
  scan.risky = false
  scan.createdFrom = -1
  scan.createdTo = -1
  for (;;) {
    if (i >= n) return -1
    const fieldStart = i
    let numberCheck = false
    if (buf[i] === QUOTE) {
      i++
      if (i < n && formulaStart(buf[i])) scan.risky = true
      for (;;) {
        if (i >= n) return -1
        if (buf[i++] !== QUOTE) continue
        if (i >= n) return -1
        if (buf[i] !== QUOTE) break
        i++
      }
      const after = buf[i]
      if (after !== COMMA && after !== LF && !(after === CR && buf[i + 1] === LF)) scan.risky = true
    } else if (formulaStart(buf[i])) {
      if (buf[i] === 0x2b || buf[i] === 0x2d) numberCheck = true
      else scan.risky = true
    }
    // The rest of the field, up to a comma or the line end.
    while (i < n && buf[i] !== COMMA && buf[i] !== LF) {
      const c = buf[i]
      if (c === QUOTE || (c === CR && i + 1 < n && buf[i + 1] !== LF)) scan.risky = true
      i++
    }
    if (i >= n) return -1
    const end = buf[i] === LF && buf[i - 1] === CR && i - 1 >= fieldStart ? i - 1 : i
    if (numberCheck && !plainNumber(buf, fieldStart, end)) scan.risky = true
    if (field === createdAt) {
      scan.createdFrom = fieldStart
      scan.createdTo = end
    }
    field++
    if (buf[i] === LF) {
      scan.fields = field
      // A row whose line end is not the header's is written again with the header's: a reader
      // that takes its line end from the first line would otherwise read a CR into the last cell,
      // or run two rows into one.
      if (crlf !== undefined && crlf !== (end === i - 1)) scan.risky = true
      return i + 1
    }
    i++
  }
}

/**
 * Where the first record of `buf` ends (after its LF outside quotes) when `quoted` says whether
 * `buf` begins inside quotes; -1 and the quoting at its end when it does not end there. Linear:
 * a record that arrives in many small chunks is looked at once per chunk, and scanned whole once.
 */
function recordEnd(buf: Buffer, quoted: boolean): { end: number; quoted: boolean } {
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i]
    if (c === QUOTE) quoted = !quoted
    else if (c === LF && !quoted) return { end: i + 1, quoted }
  }
  return { end: -1, quoted }
}

function fieldText(buf: Buffer, from: number, to: number): string | undefined {
  if (from < 0) return undefined
  const raw = buf.toString('utf8', from, to)
  return raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw
}

/** The header and line end of the report as its first part gave them. */
export interface CsvReportState {
  header?: string[]
  lineEnd?: '\r\n' | '\n'
  createdAt?: number
}

/**
 * One part's CSV (`body`, already guarded), checked and rewritten; with `part`, only the rows
 * created in it are kept, and only the first part's header is written.
 */
export async function* checkedCsvPart(
  body: AsyncIterable<Buffer>,
  at: StreamAt,
  state: CsvReportState,
  part?: { range: DateRange; index: number },
): AsyncGenerator<Buffer> {
  const { parse, stringify } = await csvLibraries()
  const where = part ? ` (part ${part.index})` : ''
  const refuse = (what: string) => new AnswerShapeError(at, `${what}${where}`)
  let bytes = 0
  const source = withHead(body, 512, (head, ended) => {
    const what = describeStart(head, ended ? head.length : Math.max(head.length, 1))
    if (!what.startsWith('text')) throw refuse(`the service answered ${what} where ${at.expected} was expected`)
  })
  /** The start of a record not yet complete, as it came, and whether it ends inside quotes. */
  let pending: Buffer[] = []
  let pendingBytes = 0
  let quoted = false
  let headerDone = false
  let row = 0
  const scan: Scan = { fields: 0, risky: false, createdFrom: -1, createdTo: -1 }

  const header = (record: Buffer): Buffer | undefined => {
    let cells: string[]
    try {
      const records = parse(record, { bom: true, max_record_size: MAX_RECORD_BYTES })
      if (records.length !== 1) throw new Error(`${records.length} records`)
      cells = records[0] as string[]
    } catch (error) {
      throw refuse(`the service's first line is not a CSV header (${(error as Error).message.split('\n')[0]})`)
    }
    const missing: string[] = REQUIRED_COLUMNS.filter((c) => !cells.includes(c))
    if (!AMOUNT_COLUMNS.some((c) => cells.includes(c))) missing.push(AMOUNT_COLUMNS.join(' or '))
    if (missing.length > 0) {
      const shown = cells.join(',').replace(/[^\x20-\x7e]/g, '?')
      throw refuse(
        `the CSV that came is not the settlement report: its header lacks ${missing.join(', ')} (it has \`${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}\`)`,
      )
    }
    const twice = cells.find((c, i) => cells.indexOf(c) !== i)
    if (twice !== undefined) throw refuse(`the report's header names the column ${JSON.stringify(twice)} twice`)
    headerDone = true
    if (state.header) {
      if (state.header.length !== cells.length || state.header.some((c, i) => c !== cells[i])) {
        throw refuse(`the report's header differs from the first part's (${cells.length} columns against ${state.header.length})`)
      }
      return undefined
    }
    state.header = cells
    state.lineEnd = record.length >= 2 && record[record.length - 2] === CR && record[record.length - 1] === LF ? '\r\n' : '\n'
    state.createdAt = cells.indexOf('createdAt')
    return Buffer.from(stringify([cells.map(defuseFormula)], rowOptions(state.lineEnd)), 'utf8')
  }

  /** A row that is not plainly clean, parsed and written again with its cells defused. */
  const rewrite = (record: Buffer): { text: Buffer; createdAt: string | undefined } => {
    const width = (state.header as string[]).length
    let records: string[][]
    try {
      // Its own line end (CRLF or LF) ends it; a CR anywhere else is a character of its cell.
      records = parse(record, { bom: false, max_record_size: MAX_RECORD_BYTES, record_delimiter: ['\r\n', '\n'] })
    } catch (error) {
      throw refuse(`row ${row} of the report is not CSV (${(error as Error).message.split('\n')[0]})`)
    }
    if (records.length !== 1 || (records[0] as string[]).length !== width) {
      throw refuse(`row ${row} of the report has ${records.map((r) => r.length).join('+') || 0} fields where the header has ${width}`)
    }
    const cells = records[0] as string[]
    return {
      text: Buffer.from(stringify([cells.map(defuseFormula)], rowOptions(state.lineEnd as '\r\n' | '\n')), 'utf8'),
      createdAt: cells[state.createdAt ?? -1],
    }
  }

  /** The records of `buf` from 0: what to write, and where the incomplete rest begins. */
  const records = (buf: Buffer, atEnd: boolean): { out: Buffer[]; rest: number } => {
    const out: Buffer[] = []
    let runFrom = -1
    let runTo = -1
    const flush = () => {
      if (runFrom >= 0) out.push(buf.subarray(runFrom, runTo))
      runFrom = -1
    }
    let start = 0
    while (start < buf.length) {
      const end = scanRecord(buf, start, headerDone ? (state.createdAt ?? -1) : -1, scan, headerDone ? state.lineEnd === '\r\n' : undefined)
      if (end < 0) break
      const record = buf.subarray(start, end)
      const from = start
      start = end
      if (!headerDone) {
        const written = header(record)
        if (written) out.push(written)
        continue
      }
      if (record.length <= 2 && (record[0] === LF || (record[0] === CR && record[1] === LF))) {
        flush()
        continue
      }
      row++
      const width = (state.header as string[]).length
      if (!scan.risky && scan.fields !== width) throw refuse(`row ${row} of the report has ${scan.fields} fields where the header has ${width}`)
      let createdAt: string | undefined
      let rewritten: Buffer | undefined
      if (scan.risky) ({ text: rewritten, createdAt } = rewrite(record))
      else if (part) createdAt = fieldText(buf, scan.createdFrom, scan.createdTo)
      if (part && !inPart(createdAt, part.range)) {
        flush()
        continue
      }
      if (rewritten) {
        flush()
        out.push(rewritten)
      } else {
        if (runFrom < 0) runFrom = from
        runTo = end
      }
    }
    flush()
    if (!atEnd && buf.length - start > MAX_RECORD_BYTES) throw tooLong()
    return { out, rest: start }
  }

  const tooLong = () =>
    refuse(
      `${headerDone ? `row ${row + 1} of the report` : "the service's first line"} is longer than ${MAX_RECORD_BYTES / 1048576} MiB: not the settlement report's CSV`,
    )
  const malformed = () => refuse(`${headerDone ? `row ${row + 1} of the report` : "the service's first line"} is not CSV (a quote inside a field)`)
  for await (const chunk of source) {
    bytes += chunk.length
    let buf = chunk
    const completing = pendingBytes > 0
    if (completing) {
      // A record begun in earlier chunks: joined (once) only when its line end has come.
      const found = recordEnd(chunk, quoted)
      if (found.end < 0) {
        pending.push(chunk)
        pendingBytes += chunk.length
        quoted = found.quoted
        if (pendingBytes > MAX_RECORD_BYTES) throw tooLong()
        continue
      }
      buf = Buffer.concat([...pending, chunk])
      pending = []
      pendingBytes = 0
    }
    const { out, rest } = records(buf, false)
    // RFC 4180 quoting: a record whose line end came outside quotes is complete.
    if (completing && rest === 0) throw malformed()
    if (rest < buf.length) {
      const carry = buf.subarray(rest)
      const inside = recordEnd(carry, false)
      if (inside.end >= 0) throw malformed()
      pending = [carry]
      pendingBytes = carry.length
      quoted = inside.quoted
    }
    if (out.length > 0) yield out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out)
  }
  if (pendingBytes > 0) {
    // The last record without its line end: ended here, or cut off inside a quoted field.
    const lineEnd = state.lineEnd ?? '\n'
    const ended = Buffer.concat([...pending, Buffer.from(lineEnd)])
    const { out, rest } = records(ended, true)
    if (rest < ended.length) throw refuse(`the report ends inside a quoted field after ${bytes} bytes: it is incomplete`)
    if (out.length > 0) yield Buffer.concat(out)
  }
  if (!headerDone) throw refuse(`the service answered ${describeStart(Buffer.alloc(0), bytes)} where ${at.expected} was expected`)
}
