// Which columns a rendering uses: --columns selection, and how columns become CSV cells.
import { moneyIn } from './cells.js'
import { flatten, isMoney, isPlainObject, pathReader } from './flatten.js'
import { columnReader, readColumn, type Column, type View } from './view.js'

/** A --columns entry the view does not know. Thrown before anything is written. */
export class UnknownColumnError extends Error {
  override name = 'UnknownColumnError'
  readonly column: string
  readonly valid: string[]

  constructor(column: string, valid: string[]) {
    super(`Unknown column "${column}". Valid columns: ${valid.join(', ')}`)
    this.column = column
    this.valid = valid
  }
}

const MONEY_PARTS = ['minorCurrencyUnits', 'currency'] as const
type MoneyPart = (typeof MONEY_PARTS)[number]

function holdsMoney<T>(column: Column<T>): boolean {
  return column.kind === 'money' || column.kind === 'minor'
}

/** `<key>.minorCurrencyUnits` or `<key>.currency` of a money column, as a column of its own. */
function moneyPart<T>(column: Column<T>, part: MoneyPart): Column<T> {
  const read = columnReader(column)
  if (part === 'currency') {
    return { key: `${column.key}.currency`, header: `${column.header} currency`, get: (r) => moneyIn(column, read(r), r)?.currency }
  }
  return {
    key: `${column.key}.minorCurrencyUnits`,
    header: `${column.header} (minor units)`,
    get: (r) => {
      const value = read(r)
      const money = moneyIn(column, value, r)
      if (money) return money.minorCurrencyUnits
      return typeof value === 'number' ? value : undefined
    },
  }
}

export interface ViewColumns<T> {
  columns: Column<T>[]
  detail: Column<T>[] | undefined
}

/** The view's columns; for a data-driven view, made from `sample` (none without one). */
export function viewColumns<T>(view: View<T>, sample?: { record: T }): ViewColumns<T> {
  if (view.fromSample) {
    if (!sample) return { columns: [], detail: undefined }
    const made = view.fromSample(sample.record)
    return { columns: made.columns, detail: made.detail }
  }
  return { columns: view.columns, detail: view.detail }
}

/** Every column a view knows, once each: the list columns, then detail columns not among them. */
export function allColumns<T>({ columns, detail }: ViewColumns<T>): Column<T>[] {
  const all = [...columns]
  const seen = new Set(columns.map((c) => c.key))
  for (const column of detail ?? []) {
    if (seen.has(column.key)) continue
    seen.add(column.key)
    all.push(column)
  }
  return all
}

/**
 * The columns to show: `defaults`, or the --columns selection in the order given. A money
 * column's parts (`amount.minorCurrencyUnits`, `amount.currency`) can be selected too. Throws
 * UnknownColumnError listing the valid keys.
 */
export function selectColumns<T>(
  known: Column<T>[],
  defaults: Column<T>[],
  selected: readonly string[] | undefined,
  sample?: { json: (record: T) => unknown; record: T },
): Column<T>[] {
  if (!selected || selected.length === 0) return defaults
  const byKey = new Map<string, Column<T>>()
  for (const column of known) {
    byKey.set(column.key, column)
    if (holdsMoney(column)) for (const part of MONEY_PARTS) byKey.set(`${column.key}.${part}`, moneyPart(column, part))
  }
  const chosen: Column<T>[] = []
  for (const key of selected) {
    const column = byKey.get(key.trim()) ?? (sample ? recordPath(key.trim(), sample) : undefined)
    if (!column) {
      const paths = sample ? flatten(sample.json(sample.record)).map(([path]) => path) : []
      throw new UnknownColumnError(key, [...new Set([...byKey.keys(), ...paths])])
    }
    if (!chosen.includes(column)) chosen.push(column)
  }
  return chosen
}

/**
 * A column for any dot path of the JSON record (`purchaseDetails.status`), when the sample
 * record has something there; undefined otherwise (a typo).
 */
function recordPath<T>(key: string, sample: { json: (record: T) => unknown; record: T }): Column<T> | undefined {
  const read = pathReader(key)
  if (read(sample.json(sample.record)) === undefined) return undefined
  return { key, header: key, get: (record) => read(sample.json(record)) }
}

/**
 * CSV columns: money becomes two columns (`<key>.minorCurrencyUnits`, `<key>.currency`); a
 * column holding a nested object (in the sample, the first record) becomes one column per leaf
 * (`<key>.<path>`); kind 'json' and arrays stay one cell of JSON text.
 */
export function csvColumns<T>(columns: Column<T>[], sample?: { record: T }): Column<T>[] {
  const out: Column<T>[] = []
  for (const column of columns) {
    if (holdsMoney(column)) {
      out.push(moneyPart(column, 'minorCurrencyUnits'), moneyPart(column, 'currency'))
      continue
    }
    const value = column.kind === 'json' || !sample ? undefined : readColumn(column, sample.record)
    if (isMoney(value)) {
      const money: Column<T> = { ...column, kind: 'money' }
      out.push(moneyPart(money, 'minorCurrencyUnits'), moneyPart(money, 'currency'))
    } else if (isPlainObject(value) && Object.keys(value).length > 0) {
      const outer = columnReader(column)
      for (const [path] of flatten(value)) {
        const inner = pathReader(path)
        out.push({ key: `${column.key}.${path}`, header: path, get: (r) => inner(outer(r)) })
      }
    } else {
      out.push(column)
    }
  }
  return out
}

/** Columns chosen by --columns, or `defaults` picked from the view's columns. */
export type Chooser<T> = (known: ViewColumns<T>, sample?: { json: (record: T) => unknown; record: T }) => Column<T>[]

/**
 * For a static view, choose now (so a bad --columns fails before the source is touched);
 * for a data-driven one, when the first record arrives.
 */
export function columnsFor<T>(view: View<T>, choose: Chooser<T>): (record: T) => Column<T>[] {
  let upfront: Column<T>[] | undefined
  if (!view.fromSample) {
    try {
      upfront = choose(viewColumns(view))
    } catch (error) {
      // Not a column of the view: maybe a dot path of the JSON record, checked on the first one.
      if (!(error instanceof UnknownColumnError)) throw error
    }
  }
  const json = (record: T) => (view.json ? view.json(record) : record)
  return (record) => upfront ?? choose(viewColumns(view, { record }), { json, record })
}
