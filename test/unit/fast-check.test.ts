// The fast path for list records never accepts what zod refuses, and whatever it accepts is
// exactly what zod would have returned: checked over every exported schema with a spread of
// records built from the golden payloads and mutations of them.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { compilePlan, fastCheck, planOf } from '../../src/client/fast-check.js'
import * as schemas from '../../src/client/schemas/index.js'

const GOLDEN = join(import.meta.dirname, '../fixtures/golden')

/** Every object found anywhere in the golden payloads (orders, transactions, customers …). */
function goldenObjects(): unknown[] {
  const found: unknown[] = []
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object') {
      found.push(value)
      Object.values(value).forEach(walk)
    }
  }
  for (const file of readdirSync(GOLDEN)) if (file.endsWith('.json')) walk(JSON.parse(readFileSync(join(GOLDEN, file), 'utf8')))
  return found
}

/** Variations of a record: each field removed, nulled, made a number, a string, an object; an extra key. */
function mutations(record: unknown): unknown[] {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return []
  const out: unknown[] = [{ ...record, extraField: 'x' }]
  for (const key of Object.keys(record)) {
    const { [key]: _dropped, ...rest } = record as Record<string, unknown>
    out.push(rest)
    for (const value of [null, 7, 1.5, -1, '', 'text', '2026-11-21T10:00:00.000Z', {}, [], true]) out.push({ ...record, [key]: value })
  }
  return out
}

const zodSchemas = (Object.entries(schemas) as Array<[string, unknown]>).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType)

describe('fastCheck', () => {
  const samples = goldenObjects().flatMap((record) => [record, ...mutations(record)])

  it('has a fast path for the list records of the common lists', () => {
    for (const name of ['Order', 'Customer', 'Refund', 'PaymentSource', 'Transaction', 'AnyObject']) {
      expect(fastCheck((schemas as unknown as Record<string, z.ZodType>)[name] as z.ZodType), name).toBeTypeOf('function')
    }
  })

  it.each(zodSchemas)('%s: accepts only what zod accepts, and zod returns the record unchanged', (_name, schema) => {
    const fast = fastCheck(schema)
    if (!fast) return
    let accepted = 0
    for (const sample of samples) {
      const parsed = schema.safeParse(sample)
      if (fast(sample)) {
        accepted++
        expect(parsed.success).toBe(true)
        expect(parsed.data).toEqual(sample)
      }
    }
    // Not a check that can never fire: the loose schemas accept some of the samples.
    if (schema === schemas.AnyObject) expect(accepted).toBeGreaterThan(0)
  })

  it('checks an integer schema (z.int(), its format on the schema itself) as zod does', () => {
    const schema = z.looseObject({ quantity: z.int().positive(), page: z.int32() })
    const fast = fastCheck(schema)
    expect(fast).toBeTypeOf('function')
    for (const sample of [
      { quantity: 2, page: 1 },
      { quantity: 1.5, page: 1 },
      { quantity: 0, page: 1 },
      { quantity: 1, page: 2 ** 31 },
    ]) {
      expect(fast?.(sample), JSON.stringify(sample)).toBe(schema.safeParse(sample).success)
    }
  })

  it('checks strings, numbers and their limits as zod does', () => {
    const schema = z.looseObject({
      id: z.string().regex(/^ordr_/),
      n: z.number().int().nonnegative(),
      tags: z.array(z.string().min(1)).max(2).nullish(),
      kind: z.enum(['a', 'b']).optional(),
      meta: z.record(z.string(), z.unknown()).nullish(),
      either: z.union([z.string(), z.number()]).optional(),
    })
    const fast = fastCheck(schema) as (v: unknown) => boolean
    const cases: unknown[] = [
      { id: 'ordr_1', n: 0 },
      { id: 'cust_1', n: 0 },
      { id: 'ordr_1', n: -1 },
      { id: 'ordr_1', n: 1.5 },
      { id: 'ordr_1', n: 1, tags: ['a', 'b'] },
      { id: 'ordr_1', n: 1, tags: ['a', 'b', 'c'] },
      { id: 'ordr_1', n: 1, tags: [''] },
      { id: 'ordr_1', n: 1, kind: 'c' },
      { id: 'ordr_1', n: 1, meta: { a: [1] }, either: 3, more: { deep: true } },
      { id: 'ordr_1', n: 1, meta: [] },
      { id: 'ordr_1', n: 1, either: true },
      [],
      null,
    ]
    expect(cases.map((c) => fast(c))).toEqual(cases.map((c) => schema.safeParse(c).success))
    expect(fast({ id: 'ordr_1', n: 0 })).toBe(true)
  })

  it('leaves schemas that change what they parse to zod', () => {
    expect(fastCheck(z.object({ a: z.string() }))).toBeTypeOf('function')
    expect(fastCheck(z.object({ a: z.string() }))?.({ a: 'x', b: 1 })).toBe(false)
    expect(fastCheck(z.looseObject({ a: z.string().default('x') }))).toBeUndefined()
    expect(fastCheck(z.looseObject({ a: z.string().transform((s) => s.length) }))).toBeUndefined()
    expect(fastCheck(z.looseObject({ a: z.string().trim() }))).toBeUndefined()
    expect(fastCheck(z.string().refine(() => true))).toBeUndefined()
  })

  it.each(zodSchemas)("%s: its plan, as JSON, checks exactly as the schema's own predicate", (_name, schema) => {
    const plan = planOf(schema)
    const fast = fastCheck(schema)
    expect(plan === undefined).toBe(fast === undefined)
    if (!plan || !fast) return
    const fromJson = compilePlan(JSON.parse(JSON.stringify(plan)))
    for (const sample of samples) expect(fromJson(sample)).toBe(fast(sample))
  })
})
