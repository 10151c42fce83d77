// The operator's own ledger (`--ledger file.csv`): a CSV whose columns are named by
// `--ledger-columns reference=…,amount=…,currency=…[,date=…]`, amounts in decimals (12.50) or
// minor units (1250) as `--ledger-amounts` says. Lines are matched by reference (a transaction,
// order, reference-order or refund id) and then compared by amount. Pure but for reading the file.
import { readFile } from 'node:fs/promises'

import { parseCurrency, toMinorUnits } from '../../client/money.js'
import { UsageError } from '../errors/index.js'

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

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks). */
export function csvRecords(text: string): string[][] {
  const records: string[][] = []
  let field = ''
  let record: string[] = []
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"' && field === '') quoted = true
    else if (c === ',') {
      record.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      record.push(field)
      records.push(record)
      record = []
      field = ''
    } else field += c
  }
  if (field !== '' || record.length > 0) {
    record.push(field)
    records.push(record)
  }
  return records.filter((r) => !(r.length === 1 && r[0] === ''))
}

/** The lines of a ledger text; a bad line is a usage error naming it. */
export function parseLedger(text: string, columns: LedgerColumns, amounts: 'decimal' | 'minor', file = 'the ledger'): LedgerLine[] {
  const [header, ...rows] = csvRecords(text.replace(/^\uFEFF/, ''))
  if (!header) throw new UsageError(`--ledger: ${file} is empty`, 'Give a CSV with a header line')
  const index = (name: string | undefined) => {
    if (name === undefined) return -1
    const at = header.findIndex((h) => h.trim() === name)
    if (at < 0) throw new UsageError(`--ledger: ${file} has no column "${name}" (columns: ${header.join(', ')})`, 'Name the columns with --ledger-columns')
    return at
  }
  const at = { reference: index(columns.reference), amount: index(columns.amount), currency: index(columns.currency), date: index(columns.date) }
  return rows.map((row, i) => {
    const line = i + 2
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
  })
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

  static async read(path: string, columns: LedgerColumns, amounts: 'decimal' | 'minor', within?: { from: Date; to: Date }): Promise<LedgerBook> {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (error) {
      throw new UsageError(`--ledger: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 'Check the path of the ledger CSV')
    }
    const lines = parseLedger(text, columns, amounts, path).filter((l) => {
      if (!within || !l.date) return true
      const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(l.date) ? `${l.date}T00:00:00Z` : l.date)
      return Number.isNaN(t) || (t >= within.from.getTime() && t < within.to.getTime())
    })
    return new LedgerBook(lines)
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
