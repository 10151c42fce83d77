// A fast path for checking answers against their (loose) response schema.
//
// zod's parse builds a new object for every record; at 500 records a page that copying (and the
// garbage it leaves) costs more than reading the JSON. For a schema made only of parts whose
// output equals their input when the input is valid (objects that keep or refuse unknown keys,
// strings, numbers, booleans, null, optional/nullable, arrays, records, enums, literals, unions,
// with length, range, integer and regex checks), `fastCheck` gives a predicate: when it says
// yes, zod would have returned a deep copy of the value, so the value itself is used as is.
// When it says no, or for any schema with a transform, default, refinement or a part not listed,
// zod parses as before (and gives the exact message). The fast path never accepts what zod refuses.
//
// It is made in two steps: `planOf` reads the zod schema (through zod's typed definitions, see
// Schema below) into a plan, plain JSON data, and `compilePlan` turns a plan into the predicate.
import type { z } from 'zod'

type Predicate = (value: unknown) => boolean

/** One check of a string, number or array, as plain data. */
export type PlanCheck =
  | ['regex', string, string]
  | ['min_length' | 'max_length' | 'length', number]
  | ['>' | '>=' | '<' | '<=', number]
  | ['safeint' | 'int32' | 'uint32']

/** What a schema accepts, as plain JSON data. */
export type Plan =
  | { t: 'string' | 'number'; checks?: PlanCheck[] }
  | { t: 'boolean' | 'null' | 'any' }
  | { t: 'optional' | 'nullable'; of: Plan }
  | { t: 'oneOf'; values: Array<string | number | boolean | null> }
  | { t: 'array'; of: Plan; checks?: PlanCheck[] }
  | { t: 'record'; of: Plan }
  | { t: 'union'; of: Plan[] }
  | { t: 'object'; shape: Array<[string, Plan]>; rest: 'strip' | 'never' | Plan }

/**
 * A schema as zod's core describes it (zod/v4/core, `z.core`): its `_zod.def` is the definition
 * zod documents for libraries that read schemas. Reading it through zod's own types makes a change
 * of its shape a type error; test/unit/fast-check.test.ts runs every contract schema against zod
 * itself, so a change of meaning fails there.
 */
type Schema = z.core.$ZodTypes
type Check = z.core.$ZodChecks | z.core.$ZodStringFormatChecks

/** Predicates made so far, by schema (null: only zod can check it). */
const compiled = new WeakMap<object, Predicate | null>()
/** The predicate for `schema`, or undefined when only zod itself can check it. */
export function fastCheck(schema: z.ZodType): Predicate | undefined {
  const key = schema as unknown as object
  let predicate = compiled.get(key)
  if (predicate === undefined) {
    const plan = planOf(schema)
    predicate = plan ? compilePlan(plan) : null
    compiled.set(key, predicate)
  }
  return predicate ?? undefined
}

/** The plan of `schema`, or undefined when only zod itself can check it. */
export function planOf(schema: z.ZodType): Plan | undefined {
  try {
    return plan(schema as unknown as Schema)
  } catch (error) {
    if (error instanceof NoFastPath) return undefined
    throw error
  }
}

/** Thrown while planning: this part has no fast path. */
class NoFastPath extends Error {}

function plan(schema: Schema): Plan {
  const def = schema?._zod?.def
  if (!def) throw new NoFastPath()
  switch (def.type) {
    case 'string':
      return withChecks({ t: 'string' }, def.checks, stringCheck)
    case 'number': {
      // z.int(), z.int32() …: their format is on the schema's own definition, not among its checks.
      const format = 'check' in def && def.check === 'number_format' ? (def as z.core.$ZodNumberFormatDef) : undefined
      const own = format ? [numberCheck(format)] : []
      const checks = [...own, ...(def.checks ?? []).map((c) => numberCheck((c as Check)._zod.def))]
      return checks.length === 0 ? { t: 'number' } : { t: 'number', checks }
    }
    case 'boolean':
    case 'null':
      return plain(def.checks, { t: def.type })
    case 'unknown':
    case 'any':
      return plain(def.checks, { t: 'any' })
    case 'optional':
    case 'nullable':
      return plain(def.checks, { t: def.type, of: plan(def.innerType as Schema) })
    case 'enum':
      return plain(def.checks, { t: 'oneOf', values: Object.values(def.entries).map(jsonValue) })
    case 'literal':
      return plain(def.checks, { t: 'oneOf', values: def.values.map(jsonValue) })
    case 'array':
      return withChecks({ t: 'array', of: plan(def.element as Schema) }, def.checks, lengthCheck)
    case 'record': {
      const keyDef = (def.keyType as Schema)._zod.def
      if (keyDef.type !== 'string' || (keyDef.checks ?? []).length > 0) throw new NoFastPath()
      return plain(def.checks, { t: 'record', of: plan(def.valueType as Schema) })
    }
    case 'union':
      return plain(def.checks, { t: 'union', of: def.options.map((option) => plan(option as Schema)) })
    case 'object': {
      const shape = Object.entries(def.shape).map(([name, field]) => [name, plan(field as Schema)] as [string, Plan])
      const catchall = def.catchall as Schema | undefined
      // Loose (unknown keys kept as they are) and strict (refused) objects give back what they got;
      // the default strips unknown keys, so a record with any must go through zod.
      const rest = catchall === undefined ? 'strip' : catchall._zod.def.type === 'never' ? 'never' : plan(catchall)
      return plain(def.checks, { t: 'object', shape, rest })
    }
    default:
      throw new NoFastPath()
  }
}

/** A value a plan can hold as JSON and compare with `===`. */
function jsonValue(value: unknown): string | number | boolean | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return value
  throw new NoFastPath()
}

/** A part with no checks of its own. */
function plain(checks: readonly unknown[] | undefined, result: Plan): Plan {
  if ((checks ?? []).length > 0) throw new NoFastPath()
  return result
}

function withChecks(
  base: Extract<Plan, { t: 'string' | 'number' | 'array' }>,
  checks: readonly unknown[] | undefined,
  toCheck: (check: Check['_zod']['def']) => PlanCheck,
): Plan {
  const planned = (checks ?? []).map((c) => toCheck((c as Check)._zod.def))
  return planned.length === 0 ? base : { ...base, checks: planned }
}

function lengthCheck(check: Check['_zod']['def']): PlanCheck {
  if (check.check === 'min_length') return ['min_length', check.minimum]
  if (check.check === 'max_length') return ['max_length', check.maximum]
  if (check.check === 'length_equals') return ['length', check.length]
  throw new NoFastPath()
}

function stringCheck(check: Check['_zod']['def']): PlanCheck {
  if (check.check === 'string_format' && check.format === 'regex' && 'pattern' in check && check.pattern instanceof RegExp) {
    const { pattern } = check
    if (!pattern.global && !pattern.sticky) return ['regex', pattern.source, pattern.flags]
  }
  return lengthCheck(check)
}

function numberCheck(check: Check['_zod']['def']): PlanCheck {
  if (check.check === 'greater_than' && typeof check.value === 'number') return [check.inclusive ? '>=' : '>', check.value]
  if (check.check === 'less_than' && typeof check.value === 'number') return [check.inclusive ? '<=' : '<', check.value]
  if (check.check === 'number_format' && (check.format === 'safeint' || check.format === 'int32' || check.format === 'uint32')) return [check.format]
  throw new NoFastPath()
}

/** The predicate a plan describes. */
export function compilePlan(p: Plan): Predicate {
  switch (p.t) {
    case 'string':
      return checked((v) => typeof v === 'string', p.checks)
    case 'number':
      return checked((v) => typeof v === 'number' && Number.isFinite(v), p.checks)
    case 'boolean':
      return (v) => typeof v === 'boolean'
    case 'null':
      return (v) => v === null
    case 'any':
      return () => true
    case 'optional': {
      const inner = compilePlan(p.of)
      return (v) => v === undefined || inner(v)
    }
    case 'nullable': {
      const inner = compilePlan(p.of)
      return (v) => v === null || inner(v)
    }
    case 'oneOf': {
      const allowed = new Set<unknown>(p.values)
      return (v) => allowed.has(v)
    }
    case 'array': {
      const element = compilePlan(p.of)
      const each = (v: unknown) => {
        if (!Array.isArray(v)) return false
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false
        return true
      }
      return checked(each, p.checks)
    }
    case 'record': {
      const value = compilePlan(p.of)
      return (v) => {
        if (!isPlainObject(v)) return false
        for (const k in v) if (!value(v[k])) return false
        return true
      }
    }
    case 'union': {
      const options = p.of.map(compilePlan)
      return (v) => options.some((option) => option(v))
    }
    case 'object':
      return objectCheck(p.shape, p.rest)
  }
}

function objectCheck(shape: Array<[string, Plan]>, restPlan: 'strip' | 'never' | Plan): Predicate {
  const entries = shape.map(([name, field]) => [name, compilePlan(field)] as const)
  const known = new Set(entries.map(([name]) => name))
  const rest: Predicate | 'strip' = restPlan === 'strip' ? 'strip' : restPlan === 'never' ? () => false : compilePlan(restPlan)
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

function checked(base: Predicate, checks: PlanCheck[] | undefined): Predicate {
  if (!checks || checks.length === 0) return base
  const each = checks.map(checkOf)
  return (v) => {
    if (!base(v)) return false
    for (let i = 0; i < each.length; i++) if (!(each[i] as Predicate)(v)) return false
    return true
  }
}

function checkOf(check: PlanCheck): Predicate {
  const length = (v: unknown) => (v as { length: number }).length
  switch (check[0]) {
    case 'regex': {
      const pattern = new RegExp(check[1], check[2])
      return (v) => pattern.test(v as string)
    }
    case 'min_length':
      return (v) => length(v) >= check[1]
    case 'max_length':
      return (v) => length(v) <= check[1]
    case 'length':
      return (v) => length(v) === check[1]
    case '>':
      return (v) => (v as number) > check[1]
    case '>=':
      return (v) => (v as number) >= check[1]
    case '<':
      return (v) => (v as number) < check[1]
    case '<=':
      return (v) => (v as number) <= check[1]
    case 'safeint':
      return (v) => Number.isSafeInteger(v)
    case 'int32':
      return (v) => Number.isInteger(v) && (v as number) >= -2_147_483_648 && (v as number) <= 2_147_483_647
    case 'uint32':
      return (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 4_294_967_295
  }
}
