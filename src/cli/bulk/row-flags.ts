// A row read as the same flags on a command line: each value goes through the command's own flag
// or argument definition (its parse function, its options, boolean words, repeatable flags,
// defaults, what is required), so a row means what the same flags mean. Any mistake is a usage
// error naming the row's line, the column and the value.
import { UsageError } from '../errors/index.js'
import { ROW_REQUIRED } from '../flags/bulk.js'
import type { Cell, Row } from './reader.js'

/** The parts of an oclif flag or argument definition a row uses. */
interface Definition {
  type?: 'boolean' | 'option'
  multiple?: boolean
  allowNo?: boolean
  options?: readonly string[]
  required?: boolean
  default?: unknown
  parse?: (input: string, context: unknown, definition: unknown) => Promise<unknown>
  [ROW_REQUIRED]?: boolean
}

export interface Definitions {
  flags: Record<string, unknown>
  args: Record<string, unknown>
}

/** Flags of the command that are not columns: the run's own, and the ones for one request only. */
const NOT_COLUMNS = new Set(['from-file', 'concurrency', 'out', 'again', 'data'])

/** The columns a command's rows may have: its arguments, then its own flags. */
export function columnsOf(defs: Definitions): Map<string, { definition: Definition; kind: 'arg' | 'flag' }> {
  const columns = new Map<string, { definition: Definition; kind: 'arg' | 'flag' }>()
  for (const [name, def] of Object.entries(defs.args)) columns.set(name, { definition: def as Definition, kind: 'arg' })
  for (const [name, def] of Object.entries(defs.flags)) if (!NOT_COLUMNS.has(name)) columns.set(name, { definition: def as Definition, kind: 'flag' })
  return columns
}

const TRUE = new Set(['true', 'yes', '1'])
const FALSE = new Set(['false', 'no', '0'])

/** The row's values as parsed flags (`--name` keys as oclif gives them) and arguments; exit 2 on the first mistake. */
export async function rowValues(row: Row, columns: ReturnType<typeof columnsOf>, file: string): Promise<Record<string, unknown>> {
  const where = `--from-file ${file} line ${row.line}`
  const out: Record<string, unknown> = {}
  for (const [column, cell] of Object.entries(row.values)) {
    const entry = columns.get(column)
    if (!entry) {
      const names = [...columns.keys()].join(', ')
      throw new UsageError(`${where}: "${column}" is not a column of this command`, `Columns are the command's own flag names and arguments: ${names}`)
    }
    const value = await cellValue(cell, column, entry.definition, where)
    if (value !== undefined) out[column] = value
  }
  for (const [column, { definition }] of columns) {
    if (out[column] !== undefined) continue
    if (definition.default !== undefined)
      out[column] = typeof definition.default === 'function' ? await (definition.default as () => unknown)() : definition.default
    else if (definition.required || definition[ROW_REQUIRED])
      throw new UsageError(`${where}: ${label(column, columns)} is missing`, `Give every row a value in the "${column}" column`)
  }
  return out
}

function label(column: string, columns: ReturnType<typeof columnsOf>): string {
  return columns.get(column)?.kind === 'arg' ? column : `--${column}`
}

async function cellValue(cell: Cell, column: string, def: Definition, where: string): Promise<unknown> {
  const given = (Array.isArray(cell) ? cell : [cell]).filter((v) => v !== null && v !== undefined && v !== '')
  if (given.length === 0) return undefined
  if (given.length > 1 && !def.multiple) throw new UsageError(`${where}: --${column} is given ${given.length} times`, `--${column} takes one value`)
  if (def.type === 'boolean') return booleanOf(given[0], column, def, where)
  const texts = given.map((v) => textOf(v, column, where))
  const parsed: unknown[] = []
  for (const text of texts) {
    if (def.options && !def.options.includes(text)) throw new UsageError(`${where}: --${column} must be one of ${def.options.join(', ')} (got "${text}")`)
    try {
      parsed.push(def.parse ? await def.parse(text, {}, { ...def, name: column }) : text)
    } catch (error) {
      throw inRow(error, where, text)
    }
  }
  return def.multiple ? parsed : parsed[0]
}

function booleanOf(value: unknown, column: string, def: Definition, where: string): boolean {
  const word = typeof value === 'boolean' ? String(value) : typeof value === 'string' ? value.trim().toLowerCase() : ''
  if (TRUE.has(word)) return true
  if (FALSE.has(word) && def.allowNo) return false
  if (FALSE.has(word)) return false
  throw new UsageError(`${where}: --${column} is true or false (got ${JSON.stringify(value)})`)
}

function textOf(value: unknown, column: string, where: string): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  throw new UsageError(`${where}: --${column} must be text or a number (got ${JSON.stringify(value)})`)
}

/** A check's refusal, said of the row: its line, and the value when the refusal does not show it. */
export function inRow(error: unknown, where: string, value?: string): UsageError {
  const reason = error instanceof UsageError ? error.reason : error instanceof Error ? error.message : String(error)
  const hint = error instanceof UsageError ? error.hint : undefined
  const shown = value === undefined || reason.includes(value) ? '' : ` (got "${value}")`
  return new UsageError(`${where}: ${reason}${shown}`, hint)
}
