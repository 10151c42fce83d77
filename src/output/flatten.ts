// Records as dot paths. Pure: no I/O, no formatting.
import type { Money } from '../client/money.js'

/** A non-null object that is not an array (JSON's "object"). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The contract's Money shape: `{ minorCurrencyUnits: integer, currency: string }` (extra keys allowed). */
export function isMoney(value: unknown): value is Money {
  return (
    isPlainObject(value) &&
    typeof value.minorCurrencyUnits === 'number' &&
    Number.isInteger(value.minorCurrencyUnits) &&
    typeof value.currency === 'string'
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
  if (path === '') return value
  if (!isPlainObject(value)) return undefined
  if (Object.hasOwn(value, path)) return value[path]
  for (let i = path.indexOf('.'); i !== -1; i = path.indexOf('.', i + 1)) {
    const head = path.slice(0, i)
    if (!Object.hasOwn(value, head)) continue
    const found = getPath(value[head], path.slice(i + 1))
    if (found !== undefined) return found
  }
  return undefined
}
