// CSV through csv-stringify: the same bytes on every path (one record, one page with the sync
// API, a list one record at a time or a page at a time through the stream API), checked against
// RFC 4180 as payfac writes it, and a page larger than the stream's buffers comes out whole
// before the next page is asked for.
import { describe, expect, it } from 'vitest'
import { defuseFormula } from '../../src/output/cells.js'
import { renderList, renderRecord } from '../../src/output/render.js'
import { defineView, type View } from '../../src/output/view.js'
import { generate, options } from './output-collect.js'

interface Note {
  id: string
  note: string | null
  count: number
}

const view: View<Note> = defineView<Note>({
  name: 'note',
  columns: [
    { key: 'id', header: 'Id' },
    { key: 'note', header: 'Note' },
    { key: 'count', header: 'Count' },
  ],
})

/** The rule, written out independently: quote a cell holding `"`, `,`, CR or LF, double its quotes; LF ends a record. */
function expected(records: Note[]): string {
  const cell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text)
  const line = (cells: string[]) => `${cells.map(cell).join(',')}\n`
  return line(['id', 'note', 'count']) + records.map((r) => line([r.id, r.note === null ? '' : defuseFormula(r.note), String(r.count)])).join('')
}

// Cells that test each quoting rule: a CR alone and CRLF (quoted), a tab (not quoted, but defused
// when leading), an empty cell (left bare), quotes, commas, formulas, negative numbers.
const NOTES = ['plain', 'a\rb', 'a\r\nb', 'tab\there', '\tlead', '', 'say "hi"', 'x,y', '=SUM(A1)', '-12.50', '-x', '@me', null, 'ünïcödé ✓', ' spaced ']
const records: Note[] = Array.from({ length: 700 }, (_, i) => ({ id: `note_${i}`, note: NOTES[i % NOTES.length] ?? null, count: i - 3 }))

function batched<T>(all: T[], size: number, before: (page: number) => void = () => undefined): AsyncIterable<T> & { batches(): AsyncIterable<T[]> } {
  return {
    [Symbol.asyncIterator]() {
      throw new Error('a batched source is read page by page')
    },
    async *batches() {
      for (let start = 0, page = 1; start < all.length; start += size, page += 1) {
        await new Promise((resolve) => setImmediate(resolve))
        before(page)
        yield all.slice(start, start + size)
      }
    },
  }
}

describe('CSV written by csv-stringify', () => {
  it('one page (an array): the same bytes as the rule', async () => {
    const o = options('csv')
    expect(await renderList(view, records, o)).toBe(records.length)
    expect(o.text()).toBe(expected(records))
  })

  it('a list one record at a time: the same bytes as the rule', async () => {
    const o = options('csv')
    expect(
      await renderList(
        view,
        generate(records.length, (i) => records[i] as Note, 37),
        o,
      ),
    ).toBe(records.length)
    expect(o.text()).toBe(expected(records))
  })

  it('a list a page at a time: the same bytes as the rule', async () => {
    const o = options('csv')
    expect(await renderList(view, batched(records, 500), o)).toBe(records.length)
    expect(o.text()).toBe(expected(records))
  })

  it('one record: a header and one row', async () => {
    for (const record of records.slice(0, NOTES.length)) {
      const o = options('csv')
      await renderRecord(view, record, o)
      expect(o.text()).toBe(expected([record]))
    }
  })

  it('a page larger than the stream buffers is written whole before the next page is asked for', async () => {
    const long: Note[] = Array.from({ length: 400 }, (_, i) => ({ id: `long_${i}`, note: 'x'.repeat(200), count: i }))
    const o = options('csv')
    const seen: string[] = []
    await renderList(
      view,
      batched(long, 200, () => seen.push(o.text())),
      o,
    )
    // Before page 2: the header and all 200 rows of page 1 (about 44 KB), nothing of page 2.
    expect(seen[1]).toBe(expected(long.slice(0, 200)))
    expect(o.text()).toBe(expected(long))
  })

  it('an empty list: the header only, on every path', async () => {
    for (const source of [[], generate(0, () => records[0] as Note), batched([], 10)]) {
      const o = options('csv')
      expect(await renderList(view, source, o)).toBe(0)
      expect(o.text()).toBe('id,note,count\n')
    }
  })
})
