// The operator's own ledger (`--ledger file.csv`): a CSV whose columns are named by
// `--ledger-columns reference=…,amount=…,currency=…[,date=…]`, amounts in decimals (12.50) or
// minor units (1250) as `--ledger-amounts` says. Lines are matched by reference (a transaction,
// order, reference-order or refund id) and then compared by amount. The file is streamed through
// csv-parse, each line bounded (MAX_LEDGER_RECORD_BYTES) and the lines counted (MAX_LEDGER_LINES).
import { Readable, pipeline } from 'node:stream'

import { parseCurrency, toMinorUnits } from '../../client/money.js'
import { UsageError } from '../errors/index.js'
import { noteWaiting, openInput } from '../files/bounded-input.js'

export interface LedgerColumns {
  reference: string
  amount: string
  currency: string
  date?: string | undefined
}

export interface LedgerLine {
  line: number
  reference: string
  amount: number
  currency: string
  date: string | null
}

/** `reference=ref,amount=total,currency=ccy[,date=day]`. */
export function parseLedgerColumns(input: string): LedgerColumns {
  const out: Record<string, string> = {}
  for (const pair of input.split(',')) {
    const at = pair.indexOf('=')
    const key = pair.slice(0, at).trim()
    const value = pair.slice(at + 1).trim()
    if (at <= 0 || value === '' || !['reference', 'amount', 'currency', 'date'].includes(key)) {
      throw new UsageError(
        `--ledger-columns takes reference=…,amount=…,currency=… and optionally date=… (got "${pair.trim()}")`,
        'Each value is a column name of the header line of --ledger',
      )
    }
    out[key] = value
  }
  const missing = ['reference', 'amount', 'currency'].filter((k) => !(k in out))
  if (missing.length > 0)
    throw new UsageError(`--ledger-columns misses ${missing.join(', ')}`, 'For example --ledger-columns reference=Ref,amount=Amount,currency=Currency')
  return out as unknown as LedgerColumns
}

/** The longest line (a CSV record) of a ledger payfac reads: 64 KiB, far beyond any line of books. */
export const MAX_LEDGER_RECORD_BYTES = 64 * 1024
/** The most lines of a ledger payfac reads: 1,000,000 (a month of books; a longer ledger is cut by date first). */
export const MAX_LEDGER_LINES = 1_000_000

/**
 * The ledger's CSV as csv-parse reads it (RFC 4180: quoted fields may hold commas, quotes and line
 * breaks), leniently as spreadsheets write it: a byte-order mark dropped, rows of any length (a
 * missing cell is empty), a quote inside an unquoted field kept as a character, empty lines skipped.
 */
const CSV_OPTIONS = {
  bom: true,
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  max_record_size: MAX_LEDGER_RECORD_BYTES,
  info: true,
} as const

type ParsedRecord = { record: string[]; info: { lines: number } }

/**
 * The ledger's lines, streamed from `source` (its text, for tests, or a stream of its bytes): each
 * record is checked as it comes, so a bad line, a line longer than 64 KiB or more than 1,000,000
 * lines is a usage error naming it, at once. `keep` leaves lines out (outside the range).
 */
export async function parseLedger(
  source: string | NodeJS.ReadableStream,
  columns: LedgerColumns,
  amounts: 'decimal' | 'minor',
  file = 'the ledger',
  keep: (line: LedgerLine) => boolean = () => true,
): Promise<LedgerLine[]> {
  const { parse } = await import('csv-parse')
  const input = typeof source === 'string' ? Readable.from([source]) : source
  const parser = pipeline(input, parse(CSV_OPTIONS), () => undefined) as unknown as AsyncIterable<ParsedRecord>
  const lines: LedgerLine[] = []
  let read: ((row: string[], line: number) => LedgerLine) | undefined
  let count = 0
  try {
    for await (const { record, info } of parser) {
      if (!read) {
        read = ledgerLineReader(record, columns, amounts, file)
        continue
      }
      if (++count > MAX_LEDGER_LINES)
        throw new UsageError(
          `--ledger: ${file} has more than ${MAX_LEDGER_LINES.toLocaleString('en')} lines; payfac reads at most that many`,
          'Give the lines of the range alone (or a shorter range)',
        )
      const line = read(record, info.lines)
      if (keep(line)) lines.push(line)
    }
  } catch (error) {
    throw ledgerError(error, file)
  } finally {
    ;(input as unknown as { destroy?: () => void }).destroy?.()
  }
  if (!read) throw new UsageError(`--ledger: ${file} is empty`, 'Give a CSV with a header line')
  return lines
}

/** A failure of reading or parsing, said of the ledger (exit 2). */
function ledgerError(error: unknown, file: string): Error {
  if (error instanceof UsageError) return error
  const e = error as { code?: string; lines?: number; message?: string }
  const where = e.lines ? `line ${e.lines} of ${file}` : file
  if (e.code === 'CSV_MAX_RECORD_SIZE')
    return new UsageError(
      `--ledger: ${where} is longer than ${MAX_LEDGER_RECORD_BYTES / 1024} KiB; payfac reads ledger lines of at most ${MAX_LEDGER_RECORD_BYTES / 1024} KiB`,
      'Check that --ledger names a CSV file',
    )
  if (e.code?.startsWith('CSV_')) {
    const said = (e.message ?? '').replace(/\s+/g, ' ')
    return new UsageError(
      `--ledger: ${where} is not CSV payfac can read (${said.length > 160 ? `${said.slice(0, 160)}…` : said})`,
      'Check that --ledger names a CSV file',
    )
  }
  return new UsageError(`--ledger: cannot read ${file} (${e.code ?? 'error'})`, 'Check the path of the ledger CSV')
}

/** Reads rows under `header`: a bad row is a usage error naming its line. */
function ledgerLineReader(header: string[], columns: LedgerColumns, amounts: 'decimal' | 'minor', file: string): (row: string[], line: number) => LedgerLine {
  const index = (name: string | undefined) => {
    if (name === undefined) return -1
    const at = header.findIndex((h) => h.trim() === name)
    if (at < 0) {
      const shown = header.join(', ')
      throw new UsageError(
        `--ledger: ${file} has no column "${name}" (columns: ${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown})`,
        'Name the columns with --ledger-columns',
      )
    }
    return at
  }
  const at = { reference: index(columns.reference), amount: index(columns.amount), currency: index(columns.currency), date: index(columns.date) }
  return (row, line) => {
    const cell = (n: number) => (row[n] ?? '').trim()
    const reference = cell(at.reference)
    if (reference === '') throw new UsageError(`--ledger: line ${line} of ${file} has no reference`)
    let currency: string
    let amount: number
    try {
      currency = parseCurrency(cell(at.currency))
      const text = cell(at.amount)
      if (amounts === 'minor') {
        if (!/^-?\d+$/.test(text)) throw new Error(`"${text}" is not a whole number of minor units`)
        amount = Number(text)
      } else {
        const negative = text.startsWith('-')
        amount = toMinorUnits(negative ? text.slice(1) : text, currency, { allowZero: true }) * (negative ? -1 : 1)
      }
    } catch (error) {
      throw new UsageError(
        `--ledger: line ${line} of ${file}: ${(error as Error).message}`,
        amounts === 'minor'
          ? 'Amounts are minor units here (--ledger-amounts minor)'
          : 'Amounts are decimals such as 12.50; give --ledger-amounts minor for cents',
      )
    }
    return { line, reference, amount, currency, date: at.date >= 0 ? cell(at.date) : null }
  }
}

/** The ledger's lines by reference; each line is taken at most once. */
export class LedgerBook {
  private readonly byReference = new Map<string, LedgerLine[]>()

  constructor(lines: LedgerLine[]) {
    for (const line of lines) {
      const list = this.byReference.get(line.reference) ?? []
      list.push(line)
      this.byReference.set(line.reference, list)
    }
  }

  /**
   * The ledger at `path`, streamed (a file, a FIFO or `<(…)`, each a wait Ctrl-C ends; a folder or
   * a device that never ends is refused, see files/bounded-input.ts); with `within`, lines dated
   * outside the range are left out.
   */
  static async read(path: string, columns: LedgerColumns, amounts: 'decimal' | 'minor', within?: { from: Date; to: Date }): Promise<LedgerBook> {
    const input = await openInput(path, '--ledger', 'Check the path of the ledger CSV')
    const stop = noteWaiting(input, '--ledger', path)
    const inRange = (l: LedgerLine) => {
      if (!within || !l.date) return true
      const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(l.date) ? `${l.date}T00:00:00Z` : l.date)
      return Number.isNaN(t) || (t >= within.from.getTime() && t < within.to.getTime())
    }
    try {
      return new LedgerBook(await parseLedger(input.stream, columns, amounts, path, inRange))
    } finally {
      stop()
    }
  }

  /** The first unused line in `currency` whose reference is one of `references`. */
  take(references: Array<string | null>, currency: string): LedgerLine | undefined {
    for (const reference of references) {
      if (!reference) continue
      const list = this.byReference.get(reference)
      const at = list?.findIndex((l) => l.currency === currency) ?? -1
      if (list && at >= 0) {
        const [line] = list.splice(at, 1)
        if (list.length === 0) this.byReference.delete(reference)
        return line
      }
    }
    return undefined
  }

  /** Lines in `currency` that nothing took. */
  *left(currency: string): Generator<LedgerLine> {
    for (const list of this.byReference.values()) for (const line of list) if (line.currency === currency) yield line
  }
}
