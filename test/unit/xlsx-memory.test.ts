// settlement reconcile --xlsx on a large month: the workbook is streamed, not built in memory
// (exceljs' model took about 15 KB a row, and a month of a few hundred thousand records killed the
// process before anything was written). A child with a small heap writes a workbook of tens of
// thousands of rows: with the model in memory it runs out of heap.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const dist = (file: string) => pathToFileURL(resolve(__dirname, '../../dist/cli/reconcile', file)).href
const dir = mkdtempSync(join(tmpdir(), 'payfac-xlsx-memory-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const script = `
const { ReconcileBook } = await import(${JSON.stringify(dist('xlsx.js'))})
const { makeRecord, recordMoney } = await import(${JSON.stringify(dist('records.js'))})
const book = new ReconcileBook()
for (let i = 0; i < 30000; i++) {
  const record = i % 10 === 0 ? 'difference' : 'matched'
  book.add(makeRecord({ record, kind: 'payment', reference: 'tran_' + i, merchantId: 'mcht_a', currency: 'AUD', amount: recordMoney(1250 + i, 'AUD'), count: 1, matched: record === 'matched', detail: record === 'matched' ? null : '=1+1 differs' }))
}
book.add(makeRecord({ record: 'summary', kind: 'summary', matched: false, count: 30000 }))
process.stdout.write(String(await book.save(process.argv[1])))
`

describe('settlement reconcile --xlsx', () => {
  it('writes a workbook of 30,000 rows within a 48 MiB heap', () => {
    const file = join(dir, 'month.xlsx')
    const temporary = mkdtempSync(join(dir, 'tmp-'))
    const child = spawnSync(process.execPath, ['--max-old-space-size=48', '--input-type=module', '-e', script, file], {
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: temporary },
    })
    expect(child.status, child.stderr.slice(-400)).toBe(0)
    const bytes = readFileSync(file)
    expect(Number(child.stdout)).toBe(bytes.length)
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004')
    // The rows waited in temporary files, which are gone.
    expect(readdirSync(temporary)).toEqual([])
  })
})
