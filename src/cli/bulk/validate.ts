// Every row checked before the first is sent: each row's flags parsed as on a command line
// (row-flags.ts) and its request built by the command's own builder (rows.ts), streamed, so
// memory stays flat however many rows. Any bad row is exit 2 naming its line and value (the
// first one, and how many more); nothing is sent. Also counts the rows and adds up their money
// per currency, exactly (BigInt minor units), for the production confirmation. The check stops at
// the tenth bad row: a file of junk fails at once, not after reading all of it.
import { currencyExponent } from '../../client/money.js'
import { UsageError } from '../errors/index.js'
import { type Definitions, columnsOf, inRow, rowValues } from './row-flags.js'
import { type RowSource, readRows } from './reader.js'
import type { RowContext, RowKind } from './rows.js'

export interface Checked {
  rows: number
  /** SHA-256 of the file (hex). */
  digest: string
  /** Minor units per currency. */
  totals: Map<string, bigint>
  /** Rows whose currency only the service knows (a refund without --currency). */
  undecided: number
}

/** After this many bad rows the check stops reading: the file is refused either way. */
export const MAX_BAD_ROWS = 10

/** Checks every row; throws a UsageError for the first bad one. */
export async function checkAll(source: RowSource, kind: RowKind<never>, defs: Definitions, ctx: RowContext): Promise<Checked> {
  const columns = columnsOf(defs)
  const { rows, digest } = readRows(source)
  const totals = new Map<string, bigint>()
  let count = 0
  let undecided = 0
  let first: UsageError | undefined
  const badLines: number[] = []
  for await (const row of rows) {
    count++
    try {
      const flags = await rowValues(row, columns, source.name)
      let built: ReturnType<RowKind['build']>
      try {
        built = kind.build(flags, ctx)
      } catch (error) {
        throw inRow(error, `--from-file ${source.name} line ${row.line}`)
      }
      const money = built.money
      if (money?.currency === undefined) undecided += money ? 1 : 0
      else totals.set(money.currency, (totals.get(money.currency) ?? 0n) + BigInt(money.units))
    } catch (error) {
      if (!(error instanceof UsageError)) throw error
      first ??= error
      badLines.push(row.line)
      if (badLines.length >= MAX_BAD_ROWS) break
    }
  }
  if (first) {
    const more =
      badLines.length >= MAX_BAD_ROWS
        ? `; at least ${MAX_BAD_ROWS} bad rows (lines ${badLines.join(', ')}; payfac stopped reading there)`
        : badLines.length > 1
          ? `; ${badLines.length} bad rows in all (lines ${badLines.join(', ')})`
          : ''
    throw new UsageError(`${first.reason}${more}. Nothing was sent`, first.hint ?? 'Correct the row and run the command again')
  }
  if (count === 0) throw new UsageError(`--from-file ${source.name} has no rows`, 'Give a header row of flag names, then one row per run')
  return { rows: count, digest: digest(), totals, undecided }
}

/** `1 234.50 AUD, 20.00 NZD`: exact, by each currency's exponent. */
export function describeTotals(checked: Checked): string {
  const parts = [...checked.totals.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, units]) => `${formatUnits(units, currency)} ${currency}`)
  if (checked.undecided > 0) parts.push(`${checked.undecided} row${checked.undecided === 1 ? '' : 's'} in the currency of each transaction`)
  return parts.join(', ') || 'no amounts'
}

function formatUnits(units: bigint, currency: string): string {
  const exponent = currencyExponent(currency) ?? 2
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(exponent + 1, '0')
  const whole = digits.slice(0, digits.length - exponent)
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${digits.slice(-exponent)}` : ''}`
}
