// The fallback view for records no view was written for (and for `payfac api`): columns are
// made from the first record. A list table shows its first 8 top-level scalar (or Money)
// fields; the single-record table shows every top-level field. Headers are the field names
// themselves, so what a person sees is what --columns takes.
import { isMoney, isPlainObject } from '../flatten.js'
import type { Column, View } from '../view.js'

/** How many columns a generic list table shows. */
export const GENERIC_LIST_COLUMNS = 8

function isScalar(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function')
}

function columnFor(key: string, value: unknown): Column<unknown> {
  if (isMoney(value)) return { key, header: key, kind: 'money' }
  return { key, header: key }
}

function columnsFromSample(sample: unknown): { columns: Column<unknown>[]; detail: Column<unknown>[] } {
  if (!isPlainObject(sample)) {
    const value: Column<unknown> = { key: 'value', header: 'value', get: (record) => record }
    return { columns: [value], detail: [value] }
  }
  const entries = Object.entries(sample)
  const columns = entries
    .filter(([, value]) => isScalar(value) || isMoney(value))
    .slice(0, GENERIC_LIST_COLUMNS)
    .map(([key, value]) => columnFor(key, value))
  const detail = entries.map(([key, value]) => columnFor(key, value))
  return { columns: columns.length > 0 ? columns : detail.slice(0, GENERIC_LIST_COLUMNS), detail }
}

/** A generic view named `name` (singular), for any record type. */
export function genericView<T = unknown>(name: string): View<T> {
  return {
    name,
    columns: [],
    fromSample: columnsFromSample as (sample: T) => { columns: Column<T>[]; detail: Column<T>[] },
  }
}

/** Any JSON answer of the service, as `payfac api` prints it. */
export const rawView: View<unknown> = genericView('record')
