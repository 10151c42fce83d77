// The settlement report's CSV as payfac checks and rewrites it (report-csv.ts), and what the
// download checks make of a body's first bytes (download-checks.ts): pure, with bytes injected.
import { parse as parseSync } from 'csv-parse/sync'
import { stringify as stringifySync } from 'csv-stringify/sync'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { AnswerShapeError, checkedDownload, describeStart, guardedBody } from '../../src/cli/files/download-checks.js'
import { type CsvReportState, checkedCsvPart } from '../../src/cli/range/report-csv.js'
import { ConnectionError } from '../../src/client/errors.js'
import { defuseFormula } from '../../src/output/cells.js'

const at = { method: 'GET', path: '/transactions/settlement/report', expected: 'a CSV report', timeoutMs: 5000 }
const HEADER = 'settlementEntryId,createdAt,type,amountMinorUnits,currency,description\r\n'

async function* bytes(text: string | Buffer, size = 7) {
  const all = typeof text === 'string' ? Buffer.from(text) : text
  for (let i = 0; i < all.length; i += size) yield all.subarray(i, i + size)
}

async function rewrite(text: string, state: CsvReportState = {}, part?: Parameters<typeof checkedCsvPart>[3]): Promise<string> {
  const out: Buffer[] = []
  for await (const b of checkedCsvPart(bytes(text), at, state, part)) out.push(b)
  return Buffer.concat(out).toString()
}

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a failure')
}

describe.concurrent('the report CSV rewritten', () => {
  it('defuses cells a spreadsheet would run, keeping plain numbers and clean rows as sent', async () => {
    const rows = [
      'stl_1,2026-11-01T00:00:00Z,Payment,1250,AUD,Coffee\r\n',
      'stl_2,2026-11-01T00:00:00Z,Refund,-1250,AUD,-12.50\r\n',
      'stl_3,2026-11-01T00:00:00Z,Fee,-5,AUD,-1+2\r\n',
      'stl_4,2026-11-01T00:00:00Z,Fee,-5,AUD,"=1+1"\r\n',
      'stl_5,2026-11-01T00:00:00Z,Fee,-5,AUD,\t@x\r\n',
      'stl_6,2026-11-01T00:00:00Z,Fee,-5,AUD,+\r\n',
    ]
    const out = (await rewrite(HEADER + rows.join(''))).split('\r\n')
    expect(out.slice(0, 3)).toEqual([HEADER.trimEnd(), rows[0]?.trimEnd(), rows[1]?.trimEnd()])
    expect(out[3]).toBe("stl_3,2026-11-01T00:00:00Z,Fee,-5,AUD,'-1+2")
    expect(out[4]).toBe("stl_4,2026-11-01T00:00:00Z,Fee,-5,AUD,'=1+1")
    expect(out[5]).toBe("stl_5,2026-11-01T00:00:00Z,Fee,-5,AUD,'\t@x")
    expect(out[6]).toBe("stl_6,2026-11-01T00:00:00Z,Fee,-5,AUD,'+")
  })

  it('keeps columns it does not know, in the service order, and defuses their names', async () => {
    const out = await rewrite('settlementEntryId,=cmd,createdAt,type,amount,currency,extra\nstl_1,x,2026-11-01,Payment,12.50,AUD,y\n')
    expect(out).toBe("settlementEntryId,'=cmd,createdAt,type,amount,currency,extra\nstl_1,x,2026-11-01,Payment,12.50,AUD,y\n")
  })

  it('ends a last row without a line end, so that the next part starts on its own line', async () => {
    expect(await rewrite(`${HEADER}stl_1,2026-11-01,Payment,1,AUD,x`)).toBe(`${HEADER}stl_1,2026-11-01,Payment,1,AUD,x\r\n`)
  })

  it('keeps, in parts, one header and the rows created in each part', async () => {
    const state: CsvReportState = {}
    const range = (from: string, to: string) => ({ from: new Date(from), to: new Date(to), fromText: from, toText: to })
    const body = `${HEADER}a,2026-11-01T00:00:00Z,P,1,AUD,x\r\nb,"2026-11-02T00:00:00Z",P,1,AUD,x\r\n`
    const first = await rewrite(body, state, { range: range('2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z'), index: 1 })
    const second = await rewrite(body, state, { range: range('2026-11-02T00:00:00Z', '2026-11-03T00:00:00Z'), index: 2 })
    expect(first + second).toBe(`${HEADER}a,2026-11-01T00:00:00Z,P,1,AUD,x\r\nb,"2026-11-02T00:00:00Z",P,1,AUD,x\r\n`)
    const other = await failure(() =>
      rewrite('settlementEntryId,createdAt,type,amount,currency\n', state, { range: range('2026-11-03T00:00:00Z', '2026-11-04T00:00:00Z'), index: 3 }),
    )
    expect(other.message).toMatch(/header differs from the first part's \(5 columns against 6\) \(part 3\)/)
  })

  it.each([
    ['a column named twice', 'settlementEntryId,createdAt,type,amount,currency,type\n', /names the column "type" twice/],
    ['a row cut inside quotes', `${HEADER}stl_1,2026-11-01,Payment,1,AUD,"unfinished`, /ends inside a quoted field after \d+ bytes: it is incomplete/],
    ['a quote inside a plain field', `${HEADER}stl_1,2026-11-01,Payment,1,AUD,a"b\r\n`, /row 1 of the report is not CSV/],
    ['a first line over 1 MiB', 'x'.repeat(1_100_000), /first line is longer than 1 MiB/],
    ['XML', '<?xml version="1.0"?><report/>', /answered markup \(starts `<\?xml version="1.0"\?><report\/>`\)/],
    ['binary bytes', Buffer.from([0x00, 0x01, 0x02, 0x03, 0x41]).toString('latin1'), /answered binary data \(starts 00 01 02 03\)/],
  ])('refuses %s as an AnswerShapeError (exit 7)', async (_name, text, message) => {
    const error = await failure(() => rewrite(text))
    expect(error).toBeInstanceOf(AnswerShapeError)
    expect(error.message).toMatch(message)
  })
})

describe.concurrent('download checks', () => {
  it('names what the first bytes are', () => {
    expect(describeStart(Buffer.from('%PDF-1.7'))).toBe('a PDF')
    expect(describeStart(Buffer.from('PK\x03\x04'))).toBe('a zip file (starts 50 4b 03 04)')
    expect(describeStart(Buffer.from('  \r\n'))).toBe('a body of blank space (4 bytes)')
    expect(describeStart(Buffer.from('\x1b]52;c;aGk=\x07'))).toMatch(/^binary data/)
    expect(describeStart(Buffer.from('Internal error\r\nat line 3'))).toBe('text (starts `Internal error`)')
  })

  it('a zip must begin with a local file header and end with the end record', async () => {
    const drain = async (body: Buffer) => {
      for await (const _ of checkedDownload(bytes(body, 3), 'zip', { method: 'GET', path: '/x', timeoutMs: 5000 })) void _
    }
    await expect(drain(Buffer.from('{"error":"x"}'))).rejects.toThrow(/answered JSON \(starts `\{"error":"x"\}`\) where a zip file was expected/)
    await expect(drain(Buffer.from('PK\x03\x04rest of it'))).rejects.toThrow(/a zip file without its end marker came \(14 bytes\)/)
    await expect(drain(Buffer.from(`PK\x03\x04data PK\x05\x06${'\0'.repeat(18)}`))).resolves.toBeUndefined()
  })

  it('a body that breaks off is a ConnectionError counting the bytes that came', async () => {
    async function* broken() {
      yield Buffer.from('12345')
      throw Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })
    }
    const error = await failure(async () => {
      for await (const _ of guardedBody(broken(), at)) void _
    })
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error.message).toBe(
      'GET /transactions/settlement/report failed: the connection was lost after 5 bytes of the answer: other side closed; what was received is incomplete',
    )
  })
})

// Every byte a cell can hold, against the rewrite: whatever the service's cells are (line breaks
// alone or in pairs, quotes, separators, a BOM, a leading = + - @ tab or CR) and however it quotes
// them, ends its lines or cuts its chunks, csv-parse reads back exactly those cells from what payfac
// writes, the defused ones with their leading '. (issue 36: "-x\n=1+1" used to come out unquoted.)
describe('the report CSV rewritten, for any cell (property)', () => {
  const EMULATOR_HEADER =
    'settlementEntryId,createdAt,availableOn,merchantId,type,amountMinorUnits,amount,currency,transactionId,orderId,refundId,payoutId,description'.split(',')
  const piece = fc.constantFrom('\r', '\n', '\r\n', '"', ',', ';', '\t', '\uFEFF', '=', '+', '-', '@', ' ', 'a', 'Z', '1', '0', '.', 'é', '€', "'")
  const cell = fc.oneof(fc.string({ unit: piece, maxLength: 8 }), fc.constantFrom('-12.50', '+3', '-x\n=1+1', '@x\r=2+2', '=HYPERLINK("x")', ''))

  it('parses back to the cells the service sent, defused ones with their leading quote', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ unit: piece, minLength: 1, maxLength: 6 }), { maxLength: 2 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('\r\n', '\n'),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        fc.infiniteStream(cell),
        async (extra, rowSeeds, lineEnd, quoteAll, bom, chunk, cells) => {
          const header = [...EMULATOR_HEADER, ...extra.filter((name) => !EMULATOR_HEADER.includes(name))]
          const rows = rowSeeds.map(() => header.map(() => cells.next().value as string))
          const sent = `${bom ? '\uFEFF' : ''}${stringifySync([header, ...rows], { record_delimiter: lineEnd, quote_record_delimiter: true, quoted: quoteAll })}`
          const out: Buffer[] = []
          for await (const b of checkedCsvPart(bytes(sent, chunk), at, {})) out.push(b)
          const written = Buffer.concat(out).toString('utf8')
          const read = parseSync(written, { bom: true }) as string[][]
          expect(read).toEqual([header, ...rows].map((row) => row.map(defuseFormula)))
        },
      ),
      { numRuns: 300 },
    )
  })
})
