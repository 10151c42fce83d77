// The CLI bundle builds the client's zod schemas on first use (scripts/bundle/schemas-plugin.mjs
// and lazy-schema.mjs): which constants are deferred, and that a deferred schema behaves as the
// schema itself wherever zod meets it.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const ROOT = resolve(__dirname, '../..')
type Lazify = (typescript: typeof ts, text: string, fileName?: string) => string
type LazySchema = <T>(build: () => T) => T
const load = async () => {
  const plugin = (await import(pathToFileURL(resolve(ROOT, 'scripts/bundle/schemas-plugin.mjs')).href)) as { lazify: Lazify }
  const helper = (await import(pathToFileURL(resolve(ROOT, 'scripts/bundle/lazy-schema.mjs')).href)) as { lazySchema: LazySchema }
  return { lazify: plugin.lazify, lazySchema: helper.lazySchema }
}

describe('schemas built on first use', () => {
  it('defers schema constants and leaves everything else as it is', async () => {
    const { lazify } = await load()
    const text = [
      "import { z } from 'zod'",
      "import { Money, idOf, hasIdPrefix } from './common.js'",
      'const PATTERN = /^a$/',
      "const fields = { amount: Money, note: z.string() }",
      'export const Item = z.strictObject({ ...fields })',
      'export const Items = Item.array()',
      'export const Same = Money',
      "export const Token = idOf('tokn')",
      "export const LIST = ['a', 'b']",
      'export function check(value: string) { return hasIdPrefix(value, "x") }',
    ].join('\n')
    const out = lazify(ts, text)
    expect(out).toContain('export const Item = __lazySchema(() => (z.strictObject({ ...fields })))')
    expect(out).toContain('export const Items = __lazySchema(() => (Item.array()))')
    expect(out).toContain('export const Same = __lazySchema(() => (Money))')
    expect(out).toContain("export const Token = __lazySchema(() => (idOf('tokn')))")
    expect(out).toContain("const fields = __lazySchema(() => ({ amount: Money, note: z.string() }))")
    for (const kept of ['const PATTERN = /^a$/', "export const LIST = ['a', 'b']", 'export function check']) {
      expect(out).toContain(kept)
    }
  })

  it('builds a schema once, when it is first used, and behaves as the schema', async () => {
    const { lazySchema } = await load()
    let built = 0
    const Money = lazySchema(() => (built++, z.strictObject({ minorCurrencyUnits: z.number().int(), currency: z.string().length(3) })))
    const Order = lazySchema(() => z.looseObject({ orderId: z.string(), amount: Money, shipping: Money.optional() }))
    expect(built).toBe(0)
    const order = { orderId: 'ordr_1', amount: { minorCurrencyUnits: 1250, currency: 'AUD' }, extra: true }
    expect(Order.parse(order)).toEqual(order)
    expect(built).toBe(1)
    expect(Order.safeParse({ orderId: 'ordr_1', amount: { minorCurrencyUnits: 1.5, currency: 'AUD' } }).success).toBe(false)
    expect(Money).toBeInstanceOf(z.ZodObject)
    expect(Object.keys(Money.shape)).toEqual(['minorCurrencyUnits', 'currency'])
    expect(Money.extend({ note: z.string() }).parse({ minorCurrencyUnits: 1, currency: 'AUD', note: 'x' })).toMatchObject({ note: 'x' })
    expect(built).toBe(1)
  })
})
