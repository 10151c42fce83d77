// Records as dot paths. Pure: no I/O, no formatting.
import type { Money } from '../client/money.js'

/** A non-null object that is not an array (JSON's "object"). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The contract's Money shape: `{ minorCurrencyUnits: integer, currency: string }` (extra keys allowed). */
export function isMoney(value: unknown): value is Money {
  return (
    isPlainObject(value) && typeof value.minorCurrencyUnits === 'number' && Number.isInteger(value.minorCurrencyUnits) && typeof value.currency === 'string'
  )
}

/**
 * The leaves of a value as [dot path, value] pairs, in key order. Nested objects are walked;
 * arrays, scalars, null and empty objects are leaves. A non-object value is one leaf at `prefix`.
 *   flatten({ a: 1, b: { c: 2, d: [3] } }) → [['a', 1], ['b.c', 2], ['b.d', [3]]]
 */
export function flatten(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (!isPlainObject(value) || (prefix !== '' && Object.keys(value).length === 0)) return [[prefix, value]]
  const leaves: Array<[string, unknown]> = []
  for (const [key, child] of Object.entries(value)) {
    const path = prefix === '' ? key : `${prefix}.${key}`
    if (isPlainObject(child) && Object.keys(child).length > 0) leaves.push(...flatten(child, path))
    else leaves.push([path, child])
  }
  return leaves
}

/**
 * The value at a dot path, or undefined. A key that itself contains dots is found too
 * (`getPath({ 'a.b': 1 }, 'a.b')` is 1), so every path flatten() produces can be read back.
 */
export function getPath(value: unknown, path: string): unknown {
  return pathReader(path)(value)
}

/** A reader of one dot path: what getPath(value, path) gives. */
export type PathReader = (value: unknown) => unknown

const readers = new Map<string, PathReader>()
/** Readers kept at most: paths come from columns, a handful a rendering. */
const MAX_READERS = 1000

/**
 * getPath for one path, made once: the ways to split the path at its dots are found when the
 * reader is made, not on every read (a CSV export reads every column of every record).
 * The whole path as a key wins; then each split, first dot first, as long as it finds a value.
 */
export function pathReader(path: string): PathReader {
  let reader = readers.get(path)
  if (reader) return reader
  if (path === '') {
    reader = (value) => value
  } else if (!path.includes('.')) {
    reader = (value) => (isPlainObject(value) && Object.hasOwn(value, path) ? value[path] : undefined)
  } else {
    const splits: Array<[string, PathReader]> = []
    for (let i = path.indexOf('.'); i !== -1; i = path.indexOf('.', i + 1)) splits.push([path.slice(0, i), pathReader(path.slice(i + 1))])
    reader = (value) => {
      if (!isPlainObject(value)) return undefined
      if (Object.hasOwn(value, path)) return value[path]
      for (const [head, rest] of splits) {
        if (!Object.hasOwn(value, head)) continue
        const found = rest(value[head])
        if (found !== undefined) return found
      }
      return undefined
    }
  }
  if (readers.size >= MAX_READERS) readers.clear()
  readers.set(path, reader)
  return reader
}
