// Tables on a terminal are drawn by cli-table3 (src/output/table-draw.ts), loaded only when a
// table goes to a terminal; our code still decides widths, columns and cell texts. The exact
// lines expected here are also the canary of how cli-table3 draws: an upgrade that draws rows
// differently (bars, padding, widths, one line per row) fails them.
import { describe, expect, it, vi } from 'vitest'

const loads = vi.hoisted(() => ({ count: 0 }))
vi.mock('cli-table3', async (importOriginal) => {
  loads.count += 1
  return importOriginal()
})

import { renderList, renderRecord } from '../../src/output/render.js'
import { draw, loadTableClass } from '../../src/output/table-draw.js'
import { defineView, type View } from '../../src/output/view.js'
import { options } from './output-collect.js'

interface Row {
  id: string
  note: string
}

const view: View<Row> = defineView<Row>({
  name: 'row',
  columns: [
    { key: 'id', header: 'Id' },
    { key: 'note', header: 'Note' },
  ],
})

const GREY = (text: string) => `\u001b[90m${text}\u001b[39m`
const BOLD = (text: string) => `\u001b[1m${text}\u001b[22m`

describe('cli-table3 is loaded only for a table on a terminal', () => {
  // One test, in order: the module registry keeps cli-table3 once loaded.
  it('not for --json, CSV, piped tables or a piped record; then for a terminal table', async () => {
    const rows: Row[] = [{ id: 'r_1', note: 'one' }]
    for (const o of [options('json', { isTTY: true, color: true }), options('csv', { isTTY: true, color: true }), options('table', { isTTY: false })]) {
      await renderList(view, rows, o)
      expect(o.text().length).toBeGreaterThan(0)
    }
    const piped = options('table', { isTTY: false })
    await renderRecord(view, rows[0] as Row, piped)
    expect(piped.text()).toBe('Id    r_1\nNote  one\n')
    expect(loads.count).toBe(0)
    const tty = options('table', { isTTY: true, color: false })
    await renderList(view, rows, tty)
    expect(tty.text()).toBe('Id   Note\nr_1  one\n')
    expect(loads.count).toBe(1)
  })
})

describe('draw', () => {
  it('boxed: grey box borders, the header row and the line under it, rows one line each', async () => {
    const Table = await loadTableClass()
    const drawn = draw(Table, [3, 4], [BOLD('Id '), BOLD('Note')], [['r_1', 'one ']], { boxed: true, ascii: false })
    const bar = GREY('│')
    expect(drawn.top).toBe(`${GREY('┌─────┬──────┐')}\n`)
    expect(drawn.head).toBe(`${GREY('┌─────┬──────┐')}\n${bar} ${BOLD('Id ')} ${bar} ${BOLD('Note')} ${bar}\n${GREY('├─────┼──────┤')}\n`)
    expect(drawn.rows).toEqual([`${bar} r_1 ${bar} one  ${bar}`])
    expect(drawn.bottom).toBe(`${GREY('└─────┴──────┘')}\n`)
  })

  it('ascii: + - | borders', async () => {
    const Table = await loadTableClass()
    const drawn = draw(Table, [2], undefined, [['ab']], { boxed: true, ascii: true })
    expect(drawn.top).toBe(`${GREY('+----+')}\n`)
    expect(drawn.rows).toEqual([`${GREY('|')} ab ${GREY('|')}`])
    expect(drawn.bottom).toBe(`${GREY('+----+')}\n`)
  })

  it('aligned: no border characters, two spaces between columns, no trailing spaces', async () => {
    const Table = await loadTableClass()
    const drawn = draw(Table, [3, 4], ['Id ', 'Note'], [['r_1', 'a   ']], { boxed: false, ascii: false })
    expect(drawn).toEqual({ top: '', head: 'Id   Note\n', rows: ['r_1  a'], bottom: '' })
  })

  it('draws each row as one line, wide characters and colour codes included, and refuses a row cli-table3 would draw on two', async () => {
    const Table = await loadTableClass()
    const rows = [
      ['名前', 'ok'],
      [BOLD('ab'), '✓ '],
      ['r_3', 'x '],
    ]
    const drawn = draw(Table, [4, 2], undefined, rows, { boxed: true, ascii: false })
    const bar = GREY('│')
    expect(drawn.rows).toEqual([`${bar} 名前 ${bar} ok ${bar}`, `${bar} ${BOLD('ab')}   ${bar} ✓  ${bar}`, `${bar} r_3  ${bar} x  ${bar}`])
    expect(() => draw(Table, [3], undefined, [['a\nb']], { boxed: true, ascii: false })).toThrow('cli-table3 drew 2 lines for 1 rows')
  })

  it('cuts a cell too wide for its width with the truncate mark (backstop; table.ts cuts first)', async () => {
    const Table = await loadTableClass()
    expect(draw(Table, [5], undefined, [['abcdefgh']], { boxed: false, ascii: false }).rows).toEqual(['abcd…'])
    expect(draw(Table, [5], undefined, [['abcdefgh']], { boxed: false, ascii: true }).rows).toEqual(['ab...'])
  })
})

describe('a streamed table on a terminal', () => {
  it('keeps a later, longer id whole: that row alone is drawn wider, the others keep the widths of the first batch', async () => {
    async function* source(): AsyncGenerator<Row> {
      yield { id: 'r_1', note: 'one' }
      await new Promise((resolve) => setImmediate(resolve))
      yield { id: 'r_2', note: 'two' }
      yield { id: 'r_1000000', note: 'six' }
      yield { id: 'r_3', note: 'ten' }
    }
    const o = options('table', { isTTY: true, color: false, width: 80 })
    await renderList(view, source(), o)
    expect(o.text()).toBe('Id   Note\nr_1  one\nr_2  two\nr_1000000  six\nr_3  ten\n')
  })

  it('draws one bordered table across batches, the bottom border at the widths of the first', async () => {
    async function* source(): AsyncGenerator<Row> {
      yield { id: 'r_1', note: 'one' }
      await new Promise((resolve) => setImmediate(resolve))
      yield { id: 'r_2', note: 'a note far longer than the first' }
    }
    const o = options('table', { isTTY: true, color: true, width: 80 })
    await renderList(view, source(), o)
    const plain = o.text().replace(/\u001b\[\d+m/g, '')
    expect(plain).toBe(['┌─────┬──────┐', '│ Id  │ Note │', '├─────┼──────┤', '│ r_1 │ one  │', '│ r_2 │ a n… │', '└─────┴──────┘', ''].join('\n'))
  })
})
