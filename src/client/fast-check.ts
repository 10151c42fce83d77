// A fast path for checking list records against their (loose) response schema.
//
// zod's parse builds a new object for every record; at 500 records a page that copying (and the
// garbage it leaves) costs more than reading the JSON. For a schema made only of parts whose
// output equals their input when the input is valid (objects that keep or refuse unknown keys,
// strings, numbers, booleans, null, optional/nullable, arrays, records, enums, literals, unions,
// with length, range, integer and regex checks), `fastCheck` compiles a predicate: when it says
// yes, zod would have returned a deep copy of the record, so the record itself is used as is.
// When it says no, or for any schema with a transform, default, refinement or a part not listed,
// zod parses as before (and gives the exact message). The fast path never accepts what zod refuses.
import type { z } from 'zod'

type Predicate = (value: unknown) => boolean

interface Def {
  type: string
  checks?: Array<{ _zod: { def: CheckDef } }>
  shape?: Record<string, Schema>
  catchall?: Schema
  innerType?: Schema
  element?: Schema
  keyType?: Schema
  valueType?: Schema
  options?: Schema[]
  entries?: Record<string, unknown>
  values?: unknown[]
}

interface CheckDef {
  check: string
  format?: string
  pattern?: RegExp
  value?: unknown
  inclusive?: boolean
  minimum?: number
  maximum?: number
  length?: number
}

interface Schema {
  _zod: { def: Def }
}

const compiled = new WeakMap<object, Predicate | null>()

/** The predicate for `schema`, or undefined when only zod itself can check it. */
export function fastCheck(schema: z.ZodType): Predicate | undefined {
  const key = schema as unknown as object
  let predicate = compiled.get(key)
  if (predicate === undefined) {
    try {
      predicate = build(schema as unknown as Schema)
    } catch {
      predicate = null
    }
    compiled.set(key, predicate)
  }
  return predicate ?? undefined
}

/** Thrown while building: this part has no fast path. */
class NoFastPath extends Error {}

function build(schema: Schema): Predicate {
  const def = schema?._zod?.def
  if (!def) throw new NoFastPath()
  switch (def.type) {
    case 'string':
      return withChecks((v) => typeof v === 'string', def, stringCheck)
    case 'number':
      return withChecks((v) => typeof v === 'number' && Number.isFinite(v), def, numberCheck)
    case 'boolean':
      return plain(def, (v) => typeof v === 'boolean')
    case 'null':
      return plain(def, (v) => v === null)
    case 'unknown':
    case 'any':
      return plain(def, () => true)
    case 'optional': {
      const inner = build(def.innerType as Schema)
      return plain(def, (v) => v === undefined || inner(v))
    }
    case 'nullable': {
      const inner = build(def.innerType as Schema)
      return plain(def, (v) => v === null || inner(v))
    }
    case 'enum': {
      const allowed = new Set(Object.values(def.entries ?? {}))
      return plain(def, (v) => allowed.has(v))
    }
    case 'literal': {
      const allowed = new Set(def.values ?? [])
      return plain(def, (v) => allowed.has(v))
    }
    case 'array': {
      const element = build(def.element as Schema)
      const each = (v: unknown) => {
        if (!Array.isArray(v)) return false
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false
        return true
      }
      return withChecks(each, def, lengthCheck)
    }
    case 'record': {
      const keyDef = def.keyType?._zod?.def
      if (keyDef?.type !== 'string' || (keyDef.checks ?? []).length > 0) throw new NoFastPath()
      const value = build(def.valueType as Schema)
      return plain(def, (v) => {
        if (!isPlainObject(v)) return false
        for (const k in v) if (!value(v[k])) return false
        return true
      })
    }
    case 'union': {
      const options = (def.options ?? []).map(build)
      return plain(def, (v) => options.some((option) => option(v)))
    }
    case 'object':
      return plain(def, objectCheck(def))
    default:
      throw new NoFastPath()
  }
}

function objectCheck(def: Def): Predicate {
  const entries = Object.entries(def.shape ?? {}).map(([name, field]) => [name, build(field)] as const)
  const known = new Set(entries.map(([name]) => name))
  const catchallType = def.catchall?._zod?.def.type
  // Loose (unknown keys kept as they are) and strict (refused) objects give back what they got;
  // the default strips unknown keys, so a record with any must go through zod.
  const rest: Predicate | 'strip' = catchallType === undefined ? 'strip' : catchallType === 'never' ? () => false : build(def.catchall as Schema)
  return (v) => {
    if (!isPlainObject(v)) return false
    for (let i = 0; i < entries.length; i++) {
      const [name, check] = entries[i] as readonly [string, Predicate]
      if (!check(v[name])) return false
    }
    for (const k in v) {
      if (known.has(k)) continue
      if (rest === 'strip' || !rest(v[k])) return false
    }
    return true
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** A part with no checks of its own. */
function plain(def: Def, predicate: Predicate): Predicate {
  if ((def.checks ?? []).length > 0) throw new NoFastPath()
  return predicate
}

function withChecks(base: Predicate, def: Def, toCheck: (check: CheckDef) => Predicate): Predicate {
  const checks = (def.checks ?? []).map((c) => toCheck(c._zod.def))
  if (checks.length === 0) return base
  return (v) => {
    if (!base(v)) return false
    for (let i = 0; i < checks.length; i++) if (!(checks[i] as Predicate)(v)) return false
    return true
  }
}

function lengthCheck(check: CheckDef): Predicate {
  const length = (v: unknown) => (v as { length: number }).length
  if (check.check === 'min_length' && typeof check.minimum === 'number') return (v) => length(v) >= (check.minimum as number)
  if (check.check === 'max_length' && typeof check.maximum === 'number') return (v) => length(v) <= (check.maximum as number)
  if (check.check === 'length_equals' && typeof check.length === 'number') return (v) => length(v) === check.length
  throw new NoFastPath()
}

function stringCheck(check: CheckDef): Predicate {
  if (check.check === 'string_format' && check.format === 'regex' && check.pattern instanceof RegExp && !check.pattern.global && !check.pattern.sticky) {
    const pattern = check.pattern
    return (v) => pattern.test(v as string)
  }
  return lengthCheck(check)
}

function numberCheck(check: CheckDef): Predicate {
  const value = check.value
  if (check.check === 'greater_than' && typeof value === 'number') return check.inclusive ? (v) => (v as number) >= value : (v) => (v as number) > value
  if (check.check === 'less_than' && typeof value === 'number') return check.inclusive ? (v) => (v as number) <= value : (v) => (v as number) < value
  if (check.check === 'number_format') {
    if (check.format === 'safeint') return (v) => Number.isSafeInteger(v)
    if (check.format === 'int32') return (v) => Number.isInteger(v) && (v as number) >= -2_147_483_648 && (v as number) <= 2_147_483_647
    if (check.format === 'uint32') return (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 4_294_967_295
  }
  throw new NoFastPath()
}
