// Lenient by default, strict on request. The request schemas the emulator shares with the client
// are strict (a key they do not know is an issue). The service itself accepts fields it does not
// know, and real clients send some (field notes, "What real clients send"), so by default the
// emulator accepts them too: it validates the body without them, then puts them back where they
// were, so that a handler that keeps the value keeps them, and it reports them (the
// `Emulator-Warning` header and the request log). With `--strict` they are refused with a 400, as
// the client's own check would refuse them. Any other problem is a 400 in both modes.
import type { z } from 'zod'
import { describeIssues, formatPath } from '../client/schemas/common.js'
import { badRequest } from './api-error.js'

/** The response header naming the unknown fields a lenient emulator accepted. */
export const WARNING_HEADER = 'Emulator-Warning'

/** Keys never put back: they would change the prototype of the object they land on. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

type Path = ReadonlyArray<PropertyKey>
interface Unknown {
  path: Path
  key: string
  value: unknown
}

export interface Checked {
  value: unknown
  /** Paths of the unknown fields accepted, such as `CreateOnlineOrder.billing.address.line3`. */
  unknown: string[]
}

/**
 * Validates `value` with `schema`. Strict: any issue is a 400 `invalid_request`. Lenient: unknown
 * keys are taken out, the rest is validated, and the unknown keys are put back into the result at
 * the same place (when that place is still an object there).
 */
export function validateBody(schema: z.ZodType, value: unknown, options: { strict: boolean; root?: string | undefined }): Checked {
  const first = schema.safeParse(value)
  if (first.success) return { value: first.data, unknown: [] }
  if (options.strict) throw invalid(first.error, options.root)
  const found = strippable(first.error.issues, [])
  if (found === undefined || found.length === 0) throw invalid(first.error, options.root)
  const unknown: Unknown[] = []
  const stripped = structuredClone(value)
  for (const { path, keys } of found) {
    const holder = at(stripped, path)
    if (!isObject(holder)) throw invalid(first.error, options.root)
    for (const key of keys) {
      unknown.push({ path, key, value: holder[key] })
      delete holder[key]
    }
  }
  const second = schema.safeParse(stripped)
  if (!second.success) throw invalid(second.error, options.root)
  const result = second.data
  for (const field of unknown) {
    const holder = at(result, field.path)
    if (isObject(holder) && !UNSAFE_KEYS.has(field.key) && !Object.hasOwn(holder, field.key)) holder[field.key] = field.value
  }
  const prefix = options.root ? [options.root] : []
  return { value: result, unknown: unknown.map((f) => formatPath([...prefix, ...f.path, f.key])) }
}

/**
 * The fields of `body` that `schema` (an object schema) does not name: what a lenient emulator
 * accepted beside the known ones. Handlers add them to the record they make, under the record's
 * own fields (which always win).
 */
export function extraFields(body: unknown, schema: { shape: Record<string, unknown> }): Record<string, unknown> {
  const extras: Record<string, unknown> = {}
  if (!isObject(body)) return extras
  for (const [key, value] of Object.entries(body)) {
    if (!Object.hasOwn(schema.shape, key) && !UNSAFE_KEYS.has(key)) extras[key] = value
  }
  return extras
}

/** Order actions whose `billing` block the emulator takes all-empty (field notes). */
const ORDER_ACTIONS = new Set(['CreateOnlineOrder', 'CreatePayByLinkOrder', 'CreatePayByLink'])

/**
 * The service's shop plug-in sends an order made by the shop owner with a billing block whose
 * every part is empty (`address` parts all "", `name` " ", field notes), and the service takes
 * it: such a block is taken out before validation and put back as sent after (`restore`), in
 * both modes, as what real clients send is known (`--strict` refuses only what the service is known
 * to refuse). Any non-blank part keeps it checked.
 */
export function blankBilling(action: string, value: unknown): { restore(result: unknown): void } | undefined {
  if (!ORDER_ACTIONS.has(action) || !isObject(value) || !isObject(value.billing)) return undefined
  const billing = value.billing
  const blank = (v: unknown) => typeof v === 'string' && v.trim() === ''
  if (!isObject(billing.address) || !Object.values(billing.address).every(blank)) return undefined
  if (!Object.entries(billing).every(([key, v]) => key === 'address' || blank(v))) return undefined
  delete value.billing
  return {
    restore(result) {
      if (isObject(result)) result.billing = billing
    },
  }
}

/**
 * An order item's `quantity` that is not a whole number (1.5). The contract says integer, and so
 * does the shared schema (what payfac sends); but real integrations send decimals and the service
 * takes them (field notes). By default such a quantity is set aside before validation, put back
 * as sent after, and reported (`Emulator-Warning`); with `--strict` it is left to the schema,
 * which refuses it (400 `invalid_request` naming the field). Anything but a positive finite
 * number stays an error in both modes.
 */
export function decimalQuantities(action: string, value: unknown, strict: boolean): { paths: string[]; restore(result: unknown): void } | undefined {
  if (strict || !ORDER_ACTIONS.has(action) || !isObject(value) || !Array.isArray(value.items)) return undefined
  const taken: Array<[number, number]> = []
  value.items.forEach((item: unknown, i: number) => {
    const quantity = isObject(item) ? item.quantity : undefined
    if (typeof quantity === 'number' && Number.isFinite(quantity) && quantity > 0 && !Number.isInteger(quantity)) {
      taken.push([i, quantity])
      ;(item as Record<string, unknown>).quantity = 1
    }
  })
  if (taken.length === 0) return undefined
  return {
    paths: taken.map(([i]) => `${action}.items[${i}].quantity`),
    restore(result) {
      const items = isObject(result) && Array.isArray(result.items) ? result.items : []
      for (const [i, quantity] of taken) if (isObject(items[i])) items[i].quantity = quantity
    },
  }
}

/** The header value naming the unknown fields and the decimal quantities accepted: printable ASCII only, bounded in length. */
export function warningText(fields: readonly string[], decimals: readonly string[] = []): string {
  const quote = (list: readonly string[]) => {
    const names = list.slice(0, 20).map((f) => JSON.stringify(f).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))
    return `${names.join(', ')}${list.length > 20 ? ` and ${list.length - 20} more` : ''}`
  }
  const parts = [
    fields.length > 0 ? `unknown field${fields.length === 1 ? '' : 's'} accepted: ${quote(fields)}` : '',
    decimals.length > 0 ? `decimal quantit${decimals.length === 1 ? 'y' : 'ies'} accepted (the contract says integer): ${quote(decimals)}` : '',
  ]
  const text = parts.filter(Boolean).join('; ')
  return text.length > 2000 ? `${text.slice(0, 1997)}...` : text
}

/** The unknown-key issues of a failed parse, or undefined when any other issue is among them. */
function strippable(issues: readonly z.core.$ZodIssue[], base: Path): Array<{ path: Path; keys: string[] }> | undefined {
  const out: Array<{ path: Path; keys: string[] }> = []
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      out.push({ path: [...base, ...issue.path], keys: issue.keys })
    } else if (issue.code === 'invalid_union') {
      // A union: only when exactly one option fails on nothing but unknown keys. Two such options
      // mean a body with both of an "exactly one of" pair ({Alias, Bban}): that stays an error.
      const options = issue.errors.map((option) => strippable(option, [...base, ...issue.path]))
      const usable = options.filter((o): o is Array<{ path: Path; keys: string[] }> => o !== undefined && o.length > 0)
      if (usable.length !== 1) return undefined
      out.push(...(usable[0] as Array<{ path: Path; keys: string[] }>))
    } else {
      return undefined
    }
  }
  return out
}

function at(value: unknown, path: Path): unknown {
  let current = value
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[part]
  }
  return current
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function invalid(error: z.ZodError, root?: string) {
  return badRequest('invalid_request', `Invalid request: ${describeIssues(error, root)}`)
}
