import jmespath from 'jmespath'
import { describe, expect, it } from 'vitest'
import { UnknownColumnError } from '../../src/output/columns.js'
import { csvText, defuseFormula } from '../../src/output/cells.js'
import { checkQuery } from '../../src/output/query.js'
import { OutputClosedError, OutputInterruptedError, TABLE_BATCH_ROWS, renderList, renderRecord } from '../../src/output/render.js'
import { defineView, type View } from '../../src/output/view.js'
import { ANSI, BOX, generate, options, slowWritable } from './output-collect.js'
import { PassThrough } from 'node:stream'

interface Row {
  id: string
  total: { minorCurrencyUnits: number; currency: string }
  fee: number
  currency: string
  note?: string | null
  createdAt?: string
  customer?: { name: string; address: { city: string } }
  tags?: string[]
  metadata?: Record<string, unknown>
}

const rowView: View<Row> = defineView<Row>({
  name: 'row',
  columns: [
    { key: 'id', header: 'Id' },
    { key: 'total', header: 'Total', kind: 'money' },
    { key: 'fee', header: 'Fee', kind: 'minor', currency: (r) => r.currency },
    { key: 'note', header: 'Note' },
  ],
  detail: [
    { key: 'id', header: 'Id' },
    { key: 'total', header: 'Total', kind: 'money' },
    { key: 'createdAt', header: 'Created', kind: 'date' },
    { key: 'customer', header: 'Customer' },
    { key: 'tags', header: 'Tags' },
    { key: 'metadata', header: 'Metadata', kind: 'json' },
  ],
})

function row(i: number, overrides: Partial<Row> = {}): Row {
  return {
    id: `row_${i}`,
    total: { minorCurrencyUnits: 1250 + i, currency: 'AUD' },
    fee: 30,
    currency: 'AUD',
    note: `note ${i}`,
    createdAt: '2024-05-01T10:00:00.123Z',
    customer: { name: 'Ann', address: { city: 'Sydney' } },
    tags: ['a', 'b'],
    metadata: { source: 'test', nested: { x: 1 } },
    ...overrides,
  }
}

describe('JSON', () => {
  it.each([0, 1, 1000])('a list of %i records from an async generator is one valid JSON array', async (count) => {
    const o = options('json')
    const records = Array.from({ length: count }, (_, i) => row(i))
    const written = await renderList(
      rowView,
      generate(count, (i) => row(i)),
      o,
    )
    expect(written).toBe(count)
    expect(JSON.parse(o.text())).toEqual(records)
    expect(o.text()).toBe(`${JSON.stringify(records, null, 2)}\n`)
  })

  it('prints an empty list as []', async () => {
    const o = options('json')
    await renderList(rowView, [], o)
    expect(o.text()).toBe('[]\n')
  })

  it('prints a single record bare, with two-space indentation', async () => {
    const o = options('json')
    await renderRecord(rowView, row(1), o)
    expect(o.text()).toBe(`${JSON.stringify(row(1), null, 2)}\n`)
  })

  it("uses the view's json form when it has one", async () => {
    const wrapped = defineView<{ inner: Row }>({ name: 'w', columns: [], json: (r) => r.inner })
    const o = options('json')
    await renderList(wrapped, [{ inner: row(1) }], o)
    expect(JSON.parse(o.text())).toEqual([row(1)])
  })

  it('ignores --columns (the whole record is printed)', async () => {
    const o = options('json', { columns: ['id'] })
    await renderRecord(rowView, row(1), o)
    expect(JSON.parse(o.text())).toEqual(row(1))
  })
})

describe('CSV', () => {
  it('writes a header of dot paths, money as minor units and currency, then one row per record', async () => {
    const o = options('csv')
    const count = await renderList(
      rowView,
      generate(2, (i) => row(i)),
      o,
    )
    expect(count).toBe(2)
    const [header, first, second, end] = o.text().split('\n')
    expect(header).toBe(
      'id,total.minorCurrencyUnits,total.currency,fee.minorCurrencyUnits,fee.currency,note,createdAt,customer.name,customer.address.city,tags,metadata',
    )
    expect(first).toBe('row_0,1250,AUD,30,AUD,note 0,2024-05-01T10:00:00.123Z,Ann,Sydney,"[""a"",""b""]","{""source"":""test"",""nested"":{""x"":1}}"')
    expect(second?.startsWith('row_1,1251,AUD,')).toBe(true)
    expect(end).toBe('')
  })

  it('selects columns with --columns, money parts included', async () => {
    const o = options('csv', { columns: ['total.currency', 'id', 'fee'] })
    await renderList(rowView, [row(7)], o)
    expect(o.text()).toBe('total.currency,id,fee.minorCurrencyUnits,fee.currency\nAUD,row_7,30,AUD\n')
  })

  it('quotes commas, quotes and line breaks, and leaves null cells empty', async () => {
    const o = options('csv', { columns: ['id', 'note'] })
    await renderList(rowView, [row(1, { note: 'a, "b"\nc' }), row(2, { note: null })], o)
    expect(o.text()).toBe('id,note\nrow_1,"a, ""b""\nc"\nrow_2,\n')
  })

  it('writes only the header for an empty list', async () => {
    const o = options('csv', { columns: ['id', 'total'] })
    expect(await renderList(rowView, [], o)).toBe(0)
    expect(o.text()).toBe('id,total.minorCurrencyUnits,total.currency\n')
  })

  it('writes a single record as a header and one row', async () => {
    const o = options('csv', { columns: ['id', 'customer'] })
    await renderRecord(rowView, row(3), o)
    expect(o.text()).toBe('id,customer.name,customer.address.city\nrow_3,Ann,Sydney\n')
  })
})

describe('tables', () => {
  it('shows money as 12.50 AUD and JPY without decimals', async () => {
    const o = options('table')
    await renderList(rowView, [row(0), row(0, { id: 'jpy', total: { minorCurrencyUnits: 1250, currency: 'JPY' }, currency: 'JPY' })], o)
    const lines = o.text().split('\n')
    expect(lines[1]).toMatch(/^row_0\s+12\.50 AUD\s+0\.30 AUD\s+note 0$/)
    expect(lines[2]).toMatch(/^jpy\s+1250 JPY\s+30 JPY\s+note 0$/)
  })

  it('off a TTY: tab-separated text, header once, no borders, no colour even if asked', async () => {
    const o = options('table', { isTTY: false, color: true })
    await renderList(
      rowView,
      generate(3, (i) => row(i)),
      o,
    )
    const text = o.text()
    expect(text).not.toMatch(ANSI)
    expect(text).not.toMatch(BOX)
    expect(text).toBe(
      ['Id\tTotal\tFee\tNote', 'row_0\t12.50 AUD\t0.30 AUD\tnote 0', 'row_1\t12.51 AUD\t0.30 AUD\tnote 1', 'row_2\t12.52 AUD\t0.30 AUD\tnote 2', ''].join('\n'),
    )
  })

  it('on a TTY: a bordered table with colour; aligned text with no box characters when colour is off (NO_COLOR)', async () => {
    const plain = options('table', { isTTY: true, color: false })
    await renderList(rowView, [row(1)], plain)
    expect(plain.text()).not.toMatch(BOX)
    expect(plain.text()).not.toMatch(ANSI)
    expect(plain.text()).toBe('Id     Total      Fee       Note\nrow_1  12.51 AUD  0.30 AUD  note 1\n')

    const coloured = options('table', { isTTY: true, color: true })
    await renderList(rowView, [row(1)], coloured)
    expect(coloured.text()).toMatch(ANSI)
    expect(coloured.text()).toMatch(BOX)
  })

  it('writes nothing for an empty list and returns 0', async () => {
    for (const isTTY of [true, false]) {
      const o = options('table', { isTTY })
      expect(
        await renderList(
          rowView,
          generate(0, (i) => row(i)),
          o,
        ),
      ).toBe(0)
      expect(o.text()).toBe('')
    }
  })

  it('draws one TTY table however many pages arrive, widths fixed from the first page', async () => {
    const o = options('table', { isTTY: true, color: true, columns: ['id', 'note'] })
    const count = TABLE_BATCH_ROWS * 2 + 1
    const id = (i: number) => `row_${String(i).padStart(3, '0')}`
    await renderList(
      rowView,
      generate(count, (i) => row(i, { id: id(i), note: i < 50 ? 'short' : `a much longer note on row ${i}` }), 50),
      o,
    )
    const lines = o
      .text()
      .replace(/\u001b\[[0-9;]*m/g, '')
      .trimEnd()
      .split('\n')
    expect(lines.filter((line) => line.startsWith('┌'))).toHaveLength(1)
    expect(lines.filter((line) => line.startsWith('└'))).toHaveLength(1)
    expect(lines.filter((line) => line.startsWith('│ row_'))).toHaveLength(count)
    // Every line is as wide as the first: later, longer notes are cut to the first page's width.
    expect(new Set(lines.map((line) => line.length)).size).toBe(1)
    expect(lines.at(-2)).toBe(`│ ${id(count - 1)} │ a mu… │`)
  })

  it('never shifts piped columns: a later, longer cell stays in its tab-separated field', async () => {
    const o = options('table', { columns: ['id', 'note'] })
    const count = TABLE_BATCH_ROWS + 5
    await renderList(
      rowView,
      generate(count, (i) => row(i, { id: i === count - 1 ? 'a-much-longer-id' : `r${i}` }), 1000),
      o,
    )
    const lines = o.text().trimEnd().split('\n')
    expect(lines).toHaveLength(count + 1)
    expect(lines.filter((l) => l.startsWith('Id'))).toHaveLength(1)
    for (const line of lines) expect(line.split('\t')).toHaveLength(2)
    expect(lines.at(-1)).toBe(`a-much-longer-id\tnote ${count - 1}`)
  })

  it('fits a TTY table to the terminal: free text cut with …, ids and money whole, the last columns left out', async () => {
    const long = row(1, { id: 'row_0123456789abcdef0123', note: 'a note far too long to fit in a narrow terminal at all' })
    for (const color of [true, false]) {
      const o = options('table', { isTTY: true, color, width: 64 })
      await renderList(rowView, [long], o)
      const lines = o
        .text()
        .replace(/\u001b\[[0-9;]*m/g, '')
        .trimEnd()
        .split('\n')
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(64)
      expect(o.text()).toContain('row_0123456789abcdef0123')
      expect(o.text()).toContain('12.51 AUD')
      expect(o.text()).toContain('…')
    }
    const narrow = options('table', { isTTY: true, color: false, width: 40 })
    await renderList(rowView, [long], narrow)
    expect(narrow.text()).toBe(`${'Id'.padEnd(24)}  Total\nrow_0123456789abcdef0123  12.51 AUD\n`)
    const wide = options('table', { isTTY: true, color: false, width: 40, wide: true })
    await renderList(rowView, [long], wide)
    expect(wide.text()).toContain('a note far too long to fit in a narrow terminal at all')
  })

  it('shows one record as a key/value table of its detail columns', async () => {
    const o = options('table')
    await renderRecord(rowView, row(4), o)
    expect(o.text()).toBe(
      [
        'Id        row_4',
        'Total     12.54 AUD',
        'Created   2024-05-01 10:00:00Z',
        'Customer  {"name":"Ann","address":{"city":"Sydney"}}',
        'Tags      a, b',
        'Metadata  {"source":"test","nested":{"x":1}}',
        '',
      ].join('\n'),
    )
  })

  it('shows a missing value as -', async () => {
    const o = options('table', { columns: ['id', 'note'] })
    await renderList(rowView, [row(1, { note: null }), row(2, { note: undefined })], o)
    expect(o.text()).toBe('Id\tNote\nrow_1\t-\nrow_2\t-\n')
  })

  it('neutralises control characters and terminal escapes in the data', async () => {
    for (const isTTY of [true, false]) {
      const o = options('table', { isTTY, columns: ['id', 'note'] })
      await renderList(rowView, [row(1, { note: 'red \u001b[31mtext\u0007\r\nnext \u202eevil' })], o)
      expect(o.text()).not.toMatch(ANSI)
      expect(o.text()).not.toMatch(/[\u0007\u202e\r]/)
      expect(o.text()).toContain('red \\u001b[31mtext\\u0007 next \\u202eevil')
    }
  })
})

describe('--columns', () => {
  it('selects and orders table columns by dot path, detail columns included', async () => {
    const o = options('table', { columns: ['createdAt', 'id', 'total.minorCurrencyUnits'] })
    await renderList(rowView, [row(1)], o)
    expect(o.text()).toBe('Created\tId\tTotal (minor units)\n2024-05-01 10:00:00Z\trow_1\t1251\n')
  })

  it("takes any dot path of the JSON record, not only the view's columns", async () => {
    const table = options('table', { columns: ['id', 'customer.address.city'] })
    await renderList(rowView, [row(1)], table)
    expect(table.text()).toBe('Id\tcustomer.address.city\nrow_1\tSydney\n')
    const csv = options('csv', { columns: ['id', 'metadata.nested.x'] })
    await renderList(
      rowView,
      generate(2, (i) => row(i)),
      csv,
    )
    expect(csv.text()).toBe('id,metadata.nested.x\nrow_0,1\nrow_1,1\n')
    const one = options('table', { columns: ['customer.name'] })
    await renderRecord(rowView, row(1), one)
    expect(one.text()).toBe('customer.name  Ann\n')
  })

  it('throws UnknownColumnError listing the valid columns and paths at the first record, before writing', async () => {
    for (const format of ['table', 'csv'] as const) {
      const o = options(format, { columns: ['id', 'bogus'] })
      let pulled = 0
      async function* source() {
        pulled += 1
        yield row(1)
        pulled += 1
        yield row(2)
      }
      const error = await renderList(rowView, source(), o).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnknownColumnError)
      const unknown = error as UnknownColumnError
      expect(unknown.column).toBe('bogus')
      expect(unknown.valid).toEqual(
        expect.arrayContaining(['id', 'total', 'total.minorCurrencyUnits', 'total.currency', 'fee', 'note', 'createdAt', 'metadata', 'customer.address.city']),
      )
      expect(unknown.message).toContain('Valid columns: id, total')
      expect(pulled).toBe(1)
      expect(o.text()).toBe('')
    }
  })

  it('throws UnknownColumnError for a single record too', async () => {
    await expect(renderRecord(rowView, row(1), options('table', { columns: ['nope'] }))).rejects.toBeInstanceOf(UnknownColumnError)
  })
})

describe('streaming', () => {
  it('waits for drain on a slow stream and still writes everything', async () => {
    const slow = slowWritable(64)
    const records = Array.from({ length: 300 }, (_, i) => row(i))
    await renderList(
      rowView,
      generate(300, (i) => row(i)),
      { format: 'json', out: slow.out, isTTY: false, color: false },
    )
    await new Promise<void>((resolve) => slow.out.end(resolve))
    expect(JSON.parse(slow.text())).toEqual(records)
    expect(slow.drains()).toBeGreaterThan(0)
  })

  it('writes what it has while the source waits for its next page', async () => {
    for (const format of ['json', 'csv', 'table'] as const) {
      const o = options(format)
      let release!: () => void
      const gate = new Promise<void>((resolve) => (release = resolve))
      async function* pages() {
        yield row(1)
        await gate
        yield row(2)
      }
      const done = renderList(rowView, pages(), o)
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(o.text()).toContain('row_1')
      expect(o.text()).not.toContain('row_2')
      release()
      expect(await done).toBe(2)
      expect(o.text()).toContain('row_2')
    }
  })

  it('stops the source when writing fails, and reports a closed stream', async () => {
    const out = new PassThrough({ highWaterMark: 16 })
    let finished = false
    async function* endless() {
      try {
        for (let i = 0; ; i += 1) yield row(i)
      } finally {
        finished = true
      }
    }
    const done = renderList(rowView, endless(), { format: 'json', out, isTTY: false, color: false })
    setTimeout(() => out.destroy(), 10)
    await expect(done).rejects.toBeInstanceOf(OutputClosedError)
    expect(finished).toBe(true)
  })

  it.each(['table', 'csv', 'json'] as const)('%s: passes an error of the source on after writing what came before', async (format) => {
    const o = options(format)
    async function* failing() {
      yield row(1)
      throw new Error('page 2 failed')
    }
    await expect(renderList(rowView, failing(), o)).rejects.toThrow('page 2 failed')
    expect(o.text()).toContain('row_1')
  })
})

describe('a list that stops part way', () => {
  it('JSON: a failing source still leaves one valid, closed array of what came before', async () => {
    const o = options('json')
    async function* failing() {
      yield row(1)
      yield row(2)
      throw new Error('page 2 failed')
    }
    await expect(renderList(rowView, failing(), o)).rejects.toThrow('page 2 failed')
    expect(JSON.parse(o.text())).toEqual([row(1), row(2)])
  })

  it('JSON: an abort (Ctrl-C) while the next page is awaited stops at once and closes the array', async () => {
    const o = options('json')
    const controller = new AbortController()
    async function* slow() {
      yield row(1)
      await new Promise(() => undefined)
    }
    const done = renderList(rowView, slow(), { ...o, signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    await expect(done).rejects.toBeInstanceOf(OutputInterruptedError)
    expect(JSON.parse(o.text())).toEqual([row(1)])
  })
})

describe('CSV formula injection (OWASP)', () => {
  it.each(['=HYPERLINK("http://x")', '+1+2', '-1+2', '@SUM(A1)', '\tlead', '\rlead'])('defuses a cell starting %j with a quote', async (note) => {
    const o = options('csv', { columns: ['id', 'note'] })
    await renderList(rowView, [row(1, { note })], o)
    const [, line] = o.text().split('\n')
    expect(line?.startsWith(`row_1,`)).toBe(true)
    expect(o.text()).toContain(`'${note.charAt(0)}`)
    expect(defuseFormula(note)).toBe(`'${note}`)
  })

  it('leaves plain numbers, including negative ones, and ordinary text alone', () => {
    for (const text of ['-12.50', '+3', '42', 'note - with dash', 'a=b']) expect(defuseFormula(text)).toBe(text)
    expect(csvText(-5)).toBe('-5')
  })
})

describe('--query and --ids', () => {
  it('applies a JMESPath expression to the streamed array, or to the bare record', async () => {
    const list = options('json', { query: '[].id' })
    await renderList(
      rowView,
      generate(3, (i) => row(i)),
      list,
    )
    expect(JSON.parse(list.text())).toEqual(['row_0', 'row_1', 'row_2'])
    const one = options('json', { query: 'customer.address.city' })
    await renderRecord(rowView, row(1), one)
    expect(one.text()).toBe('Sydney\n')
    const filtered = options('json', { query: '[?total.minorCurrencyUnits > `1251`].id | [0]' })
    await renderList(
      rowView,
      generate(4, (i) => row(i)),
      filtered,
    )
    expect(filtered.text()).toBe('row_2\n')
  })

  it('prints null for a query that selects nothing, and tells the caller once; a value is not noted', async () => {
    const notes: string[] = []
    const one = options('json', { query: 'refundId', notice: (line) => notes.push(line) })
    await renderRecord(rowView, row(1), one)
    expect(one.text()).toBe('null\n')
    const whole = options('json', { query: '[?id==`"nope"`] | [0]', notice: (line) => notes.push(line) })
    await renderList(
      rowView,
      generate(3, (i) => row(i)),
      whole,
    )
    expect(whole.text()).toBe('null\n')
    const found = options('json', { query: 'id', notice: (line) => notes.push(line) })
    await renderRecord(rowView, row(2), found)
    expect(found.text()).toBe('row_2\n')
    // refundId is no field of the row: one note says so, and that null was printed (query-fields.ts).
    expect(notes[0]).toMatch(/^--query "refundId" names "refundId", which the record does not have .*; printed null$/)
    expect(notes.slice(1)).toEqual(['--query "[?id==`\\"nope\\"`] | [0]" selected nothing: printed null'])
  })

  it('rejects an expression that is not JMESPath before anything runs', () => {
    expect(() => checkQuery('[.')).toThrow(/not a valid JMESPath expression/)
  })

  it('prints only the ids, one a line, for a list and for one record', async () => {
    const list = options('table', { ids: true })
    await renderList(
      rowView,
      generate(3, (i) => row(i)),
      list,
    )
    expect(list.text()).toBe('row_0\nrow_1\nrow_2\n')
    const one = options('json', { ids: true })
    await renderRecord(rowView, row(7), one)
    expect(one.text()).toBe('row_7\n')
  })
})

describe('--query over a list, streamed when it is a plain projection', () => {
  it.each(['[].id', '[*].note', '[].{id: id, city: customer.address.city}', '[].customer.name', '[].missing', '[0].id', 'length(@)', "[?id=='row_1'].id"])(
    '%s prints what JMESPath gives for the whole array',
    async (expression) => {
      const records = Array.from({ length: 5 }, (_, i) => row(i, i === 2 ? { note: null } : {}))
      const o = options('json', { query: expression })
      await renderList(
        rowView,
        generate(5, (i) => records[i] as Row),
        o,
      )
      const whole = jmespath.search(records as never, expression) as unknown
      expect(o.text()).toBe(typeof whole === 'string' ? `${whole}\n` : whole === null ? 'null\n' : `${JSON.stringify(whole, null, 2)}\n`)
    },
  )

  it('writes projected records while the source waits for its next page', async () => {
    const o = options('json', { query: '[].id' })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    async function* pages() {
      yield row(1)
      await gate
      yield row(2)
    }
    const done = renderList(rowView, pages(), o)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(o.text()).toContain('"row_1"')
    release()
    await done
    expect(JSON.parse(o.text())).toEqual(['row_1', 'row_2'])
  })
})

describe('a source that hands over a page at a time (the client walk: batches())', () => {
  /** Records in pages of `size`, each page after a turn of the event loop; iterating one by one is refused. */
  function paged<T>(
    records: T[],
    size: number,
    hooks: { before?: (page: number) => Promise<void> } = {},
  ): AsyncIterable<T> & { batches(): AsyncIterable<T[]> } {
    return {
      [Symbol.asyncIterator]() {
        throw new Error('a batched source is read page by page')
      },
      async *batches() {
        for (let start = 0, page = 1; start < records.length; start += size, page += 1) {
          await (hooks.before?.(page) ?? new Promise((resolve) => setImmediate(resolve)))
          yield records.slice(start, start + size)
        }
      },
    }
  }

  const records = Array.from({ length: 1234 }, (_, i) => row(i, i % 7 === 0 ? { note: i % 2 ? '=SUM(A1)' : 'a, "quoted"\nline' } : {}))

  it.each(['csv', 'json', 'jsonl', 'table'] as const)('%s: writes the same text as the same records one by one', async (format) => {
    const one = options(format)
    const paging = options(format)
    expect(
      await renderList(
        rowView,
        generate(records.length, (i) => records[i] as Row),
        one,
      ),
    ).toBe(1234)
    expect(await renderList(rowView, paged(records, 500), paging)).toBe(1234)
    expect(paging.text()).toBe(one.text())
  })

  it("JSON: the view's json form, page by page, is the array JSON.stringify writes", async () => {
    const view: View<Row> = { ...rowView, json: (r) => ({ id: r.id, cents: r.total.minorCurrencyUnits }) }
    const o = options('json')
    await renderList(view, paged(records.slice(0, 30), 7), o)
    expect(o.text()).toBe(
      `${JSON.stringify(
        records.slice(0, 30).map((r) => view.json?.(r)),
        null,
        2,
      )}\n`,
    )
  })

  it('writes each page before the next one arrives', async () => {
    const o = options('csv')
    const seen: string[] = []
    const source = paged(records.slice(0, 6), 3, {
      before: async (page) => {
        seen.push(o.text())
        await new Promise((resolve) => setImmediate(resolve))
        void page
      },
    })
    await renderList(rowView, source, o)
    expect(seen[1]).toContain('row_2')
    expect(seen[1]).not.toContain('row_3')
  })

  it('JSON: Ctrl-C while the next page is awaited stops at once and closes the array', async () => {
    const o = options('json')
    const controller = new AbortController()
    const source = paged(records.slice(0, 4), 2, { before: (page) => (page === 1 ? Promise.resolve() : new Promise(() => undefined)) })
    const done = renderList(rowView, source, { ...o, signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    await expect(done).rejects.toBeInstanceOf(OutputInterruptedError)
    expect(JSON.parse(o.text())).toEqual(records.slice(0, 2))
  })

  it('CSV: a failing page leaves the rows of the pages before it', async () => {
    const o = options('csv')
    const source = paged(records.slice(1, 5), 2, { before: async (page) => (page === 2 ? Promise.reject(new Error('page 2 failed')) : undefined) })
    await expect(renderList(rowView, source, o)).rejects.toThrow('page 2 failed')
    const lines = o.text().trimEnd().split('\n')
    expect([lines.length, lines[2]?.startsWith('row_2,')]).toEqual([3, true])
  })
})
