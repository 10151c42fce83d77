// JSON Lines (--jsonl): one compact JSON value a record, a line each, through the view's json
// form; one record is one line; a list stopped part way leaves whole lines only.
import { describe, expect, it } from 'vitest'
import { OutputInterruptedError, renderList, renderRecord } from '../../src/output/render.js'
import { defineView, type View } from '../../src/output/view.js'
import { generate, options } from './output-collect.js'

interface Item {
  id: string
  note: string
  amount: { minorCurrencyUnits: number; currency: string }
}

const view: View<Item> = defineView<Item>({ name: 'item', columns: [{ key: 'id', header: 'Id' }] })
const item = (i: number): Item => ({ id: `itm_${i}`, note: i % 3 === 0 ? 'two\nlines, "quoted"' : 'plain', amount: { minorCurrencyUnits: i, currency: 'AUD' } })

describe('JSON Lines', () => {
  it('writes each record as one compact line, newlines inside values escaped', async () => {
    const o = options('jsonl')
    expect(await renderList(view, generate(250, item), o)).toBe(250)
    const lines = o.text().split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(250)
    expect(lines.map((line) => JSON.parse(line))).toEqual(Array.from({ length: 250 }, (_, i) => item(i)))
    expect(lines[0]).toBe(JSON.stringify(item(0)))
  })

  it("uses the view's json form, and prints nothing at all for an empty list", async () => {
    const o = options('jsonl')
    await renderList({ ...view, json: (r) => ({ id: r.id }) }, [item(1), item(2)], o)
    expect(o.text()).toBe('{"id":"itm_1"}\n{"id":"itm_2"}\n')
    const empty = options('jsonl')
    expect(await renderList(view, [], empty)).toBe(0)
    expect(empty.text()).toBe('')
  })

  it('prints one record as one line, and an array given as the record as a line each', async () => {
    const one = options('jsonl')
    await renderRecord(view, item(4), one)
    expect(one.text()).toBe(`${JSON.stringify(item(4))}\n`)
    const many = options('jsonl')
    await renderRecord(view as unknown as View<Item[]>, [item(1), item(2)], many)
    expect(many.text()).toBe(`${JSON.stringify(item(1))}\n${JSON.stringify(item(2))}\n`)
  })

  it('stopped part way (Ctrl-C), leaves whole lines only', async () => {
    const controller = new AbortController()
    const o = options('jsonl', { signal: controller.signal })
    const source = generate(10_000, (i) => {
      if (i === 1234) controller.abort()
      return item(i)
    })
    await expect(renderList(view, source, o)).rejects.toBeInstanceOf(OutputInterruptedError)
    const text = o.text()
    expect(text.endsWith('\n')).toBe(true)
    const lines = text
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as Item)
    expect(lines.length).toBeGreaterThan(1000)
    expect(lines.length).toBeLessThan(10_000)
    expect(lines.map((l) => l.id)).toEqual(Array.from({ length: lines.length }, (_, i) => `itm_${i}`))
  })
})
