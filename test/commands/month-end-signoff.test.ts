// The month-end an accountant signs off (issue 36): the emulator makes last month, reconcile gives
// it as CSV with money in minor units, totals and opening/closing balances, and --xlsx gives the
// same cells in a workbook that exceljs reads back. (The per-merchant report files are proved in
// output-flags.test.ts; the CSV rewrite's hostile cells in unit/report-csv.test.ts.)
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'

import { type RefusalCase, RECORDING_MARKETPLACE_KEY, itRefusesBeforeSending, useEmulator, useRecordingServer, useTempDir } from '../helpers/command-harness.js'

const { payfac, marketplace } = useEmulator()
const dir = useTempDir('payfac-signoff-')

type Row = Record<string, string>

describe('last month, reconciled for a spreadsheet', () => {
  let month: { from: string; to: string; month: string }
  let csv: { code: number; stdout: string; stderr: string }
  let rows: Row[]
  const xlsx = () => join(dir(), 'month.xlsx')

  beforeAll(async () => {
    month = await marketplace.json('emulator', 'month', '--last-month', '--transactions', '120', '--sub-merchants', '1')
    csv = await payfac('settlement', 'reconcile', '--last-month', '--csv', '--xlsx', xlsx())
    rows = parse(csv.stdout, { columns: true }) as Row[]
  })

  it('fills exactly last month in UTC', () => {
    const now = new Date()
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
    expect(month.from).toBe(first.toISOString())
    expect(month.to).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString())
  })

  it('matches everything (exit 0), says so on stderr and in the data', () => {
    expect(csv.code, csv.stderr).toBe(0)
    expect(csv.stderr).toMatch(/^All \d+ records matched \(\d+ settlement entries\): nothing to report\.$/m)
    const summary = rows.filter((r) => r.record === 'summary')
    expect(summary).toHaveLength(1)
    expect(summary[0]).toMatchObject({ kind: 'summary', matched: 'true', merchantId: 'mcht_LocalMerchant001' })
    expect(rows.filter((r) => r.record === 'difference')).toEqual([])
    expect(rows.filter((r) => r.record === 'matched').length).toBeGreaterThan(20)
  })

  it('gives money as minor units with a currency and the exact decimal beside them', () => {
    expect(Object.keys(rows[0] as Row)).toEqual([
      'record',
      'merchantId',
      'kind',
      'reference',
      'currency',
      'amountMinorUnits',
      'amount',
      'expectedMinorUnits',
      'expected',
      'foundMinorUnits',
      'found',
      'count',
      'matched',
      'detail',
    ])
    for (const row of rows) {
      if (row.amountMinorUnits === '') continue
      expect(row.amountMinorUnits).toMatch(/^-?\d+$/)
      expect(row.currency).toBe('AUD')
      const minor = Number(row.amountMinorUnits)
      expect(row.amount).toBe(`${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`)
    }
  })

  it('has totals per kind (what other holds on rows of its own) adding up to the net', () => {
    const totals = rows.filter((r) => r.record === 'total')
    const of = (kind: string) => totals.find((r) => r.kind === kind)
    for (const kind of ['payments', 'refunds', 'fees', 'payouts', 'other', 'net']) expect(of(kind), kind).toBeDefined()
    const sum = ['payments', 'refunds', 'fees', 'payouts', 'other'].reduce((n, kind) => n + Number(of(kind)?.amountMinorUnits), 0)
    expect(sum).toBe(Number(of('net')?.amountMinorUnits))
    const otherTypes = totals.filter((r) => !['payments', 'refunds', 'fees', 'payouts', 'other', 'net'].includes(r.kind as string))
    expect(otherTypes.length).toBeGreaterThan(0)
    expect(of('other')?.detail).toBe(`entries of other types: ${otherTypes.map((r) => r.kind).join(', ')} (each on the rows that follow)`)
    expect(otherTypes.reduce((n, r) => n + Number(r.amountMinorUnits), 0)).toBe(Number(of('other')?.amountMinorUnits))
    expect(Number(of('payments')?.amountMinorUnits)).toBeGreaterThan(0)
    expect(Number(of('payouts')?.amountMinorUnits)).toBeLessThan(0)
  })

  it('has opening and closing balances with opening + movements = closing', async () => {
    const balance = (kind: string) => rows.find((r) => r.record === 'balance' && r.kind === kind) as Row
    const [opening, movements, closing] = ['opening', 'movements', 'closing'].map((k) => Number(balance(k).amountMinorUnits))
    expect(balance('opening').amountMinorUnits).toMatch(/^-?\d+$/)
    expect(balance('closing').amountMinorUnits).toMatch(/^-?\d+$/)
    expect((opening as number) + (movements as number)).toBe(closing)
    expect(balance('closing').matched).toBe('true')
    expect(balance('movements').amountMinorUnits).toBe(rows.find((r) => r.record === 'total' && r.kind === 'net')?.amountMinorUnits)
    // The closing balance is the service's: nothing happened since the month ended, so it is today's total.
    const [now] = (await payfac('merchants', 'balances', '--json').then((r) => JSON.parse(r.stdout))).balances
    expect(closing).toBe(now.total.minorCurrencyUnits)
  })

  it('--xlsx holds the same cells, one sheet per part, money as numbers with two decimals, header frozen', async () => {
    expect(csv.stderr).toContain(`Saved ${readFileSync(xlsx()).length} bytes to ${xlsx()}`)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(xlsx())
    expect(book.worksheets.map((s) => s.name)).toEqual(['Summary', 'Matched', 'Differences'])
    const header = Object.keys(rows[0] as Row)
    const parts: Record<string, (r: Row) => boolean> = {
      Summary: (r) => ['summary', 'total', 'balance'].includes(r.record as string),
      Matched: (r) => r.record === 'matched',
      Differences: (r) => r.record === 'difference',
    }
    for (const sheet of book.worksheets) {
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
      const read: string[][] = []
      sheet.eachRow({ includeEmpty: false }, (row) => {
        const cells: string[] = []
        for (let i = 1; i <= header.length; i++) {
          const cell = row.getCell(i)
          const value = cell.value
          if (typeof value === 'number' && cell.numFmt?.includes('.')) {
            expect(cell.numFmt).toBe('#,##0.00')
            cells.push(value.toFixed(2))
          } else cells.push(value === null || value === undefined ? '' : String(value))
        }
        read.push(cells)
      })
      const expected = rows.filter(parts[sheet.name] as (r: Row) => boolean).map((r) => header.map((h) => r[h] as string))
      expect(read, sheet.name).toEqual([header, ...expected])
    }
  })
})

describe('emulator month refuses a month it cannot fill, before anything is sent', () => {
  const recording = useRecordingServer(() => ({ status: 200, body: {} }), { credential: RECORDING_MARKETPLACE_KEY })
  const thisMonth = new Date().toISOString().slice(0, 7)
  const cases: RefusalCase[] = [
    ['this month', ['emulator', 'month', '--month', thisMonth], /is not over yet/],
    ['a month before the seeded merchants', ['emulator', 'month', '--month', '2024-12'], /before 2025-01/],
    ['a month and days', ['emulator', 'month', '--month', '2025-10', '--days', '3'], /--days|--month/],
    ['last month and a month', ['emulator', 'month', '--last-month', '--month', '2025-10'], /--month|--last-month/],
    ['no such month', ['emulator', 'month', '--month', '2025-13'], /YYYY-MM/],
    ['six mismatches', ['emulator', 'month', ...Array(6).fill(['--mismatch', 'missing-entry']).flat()], /--mismatch/],
  ]
  itRefusesBeforeSending(cases, recording)
})
