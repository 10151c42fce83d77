// Data shown on a terminal is inert (JSON keeps its value), data piped elsewhere is byte-exact,
// and a locale that cannot show box drawing gets ASCII borders.
import { describe, expect, it } from 'vitest'

import { renderList, renderRecord } from '../../src/output/render.js'
import { defineView, type View } from '../../src/output/view.js'
import { BOX, options } from './output-collect.js'

interface Note {
  id: string
  note: string
}

const view: View<Note> = defineView<Note>({
  name: 'note',
  columns: [
    { key: 'id', header: 'Id' },
    { key: 'note', header: 'Note' },
  ],
})

const HOSTILE = 'pay \u001b]52;c;eA==\u0007 \u009b2J now \u202etxt.exe\u007f'
const records: Note[] = [
  { id: 'note_1', note: HOSTILE },
  { id: 'note_2', note: 'Zoë, 東京' },
]
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

describe('data on a terminal', () => {
  it('--json escapes C1, DEL and bidi controls and still parses to the same records', async () => {
    const o = options('json', { isTTY: true, color: true })
    await renderList(view, records, o)
    expect(o.text()).not.toMatch(OBEYED)
    expect(o.text()).toContain('\\u009b2J now \\u202etxt.exe\\u007f')
    expect(JSON.parse(o.text())).toEqual(records)
  })

  it('--json piped is byte for byte what JSON.stringify writes', async () => {
    const o = options('json', { isTTY: false })
    await renderList(view, records, o)
    expect(o.text()).toBe(`${JSON.stringify(records, null, 2)}\n`)
  })

  it('a --query string is plain text, inert on a terminal and exact when piped', async () => {
    const tty = options('json', { isTTY: true, color: true, query: 'note' })
    await renderRecord(view, records[0] as Note, tty)
    expect(tty.text()).toBe('pay \\u001b]52;c;eA==\\u0007 \\u009b2J now \\u202etxt.exe\\u007f\n')
    const piped = options('json', { isTTY: false, query: 'note' })
    await renderRecord(view, records[0] as Note, piped)
    expect(piped.text()).toBe(`${HOSTILE}\n`)
  })

  it('CSV on a terminal shows the escapes; piped it is exact', async () => {
    const tty = options('csv', { isTTY: true, color: true })
    await renderList(view, records, tty)
    expect(tty.text()).not.toMatch(OBEYED)
    const piped = options('csv', { isTTY: false })
    await renderList(view, records, piped)
    expect(piped.text()).toContain(HOSTILE)
  })

  it('a table keeps its own colours and shows the cell escapes', async () => {
    const o = options('table', { isTTY: true, color: true, width: 200 })
    await renderList(view, records, o)
    expect(o.text()).toContain('\u001b[1m')
    expect(o.text()).toContain('\\u009b2J now \\u202etxt.exe')
    expect(o.text()).not.toMatch(/[\u0080-\u009f\u202e\u007f]/)
  })
})

describe('a locale that is not UTF-8 (ascii)', () => {
  it('draws list borders with + - | and cuts cells with ...', async () => {
    const o = options('table', { isTTY: true, color: true, ascii: true, width: 30 })
    await renderList(view, [{ id: 'note_1', note: 'a long note that will not fit in thirty columns' }], o)
    const plain = o.text().replace(/\u001b\[[0-9;]*m/g, '')
    expect(plain).not.toMatch(BOX)
    expect(plain).not.toContain('…')
    expect(plain).toMatch(/^\+-+\+-+\+$/m)
    expect(plain).toMatch(/^\| Id {5}\| Note +\|$/m)
    expect(plain).toContain('...')
    expect(plain).not.toMatch(/[^\x00-\x7f]/)
  })

  it('draws a record with ASCII borders too; with Unicode the box characters stay', async () => {
    const ascii = options('table', { isTTY: true, color: true, ascii: true })
    await renderRecord(view, records[1] as Note, ascii)
    expect(ascii.text()).not.toMatch(BOX)
    expect(ascii.text()).toMatch(/\+-+\+-+\+/)
    const unicode = options('table', { isTTY: true, color: true })
    await renderRecord(view, records[1] as Note, unicode)
    expect(unicode.text()).toMatch(BOX)
  })
})
