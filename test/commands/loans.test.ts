// The loans topic against the emulator's seeded trade-account loan (rendered as JSON and as a
// table), the statement download, and the input rules (exit 2, nothing sent).
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer, useTempDir } from '../helpers/command-harness.js'

const { payfac, json } = useEmulator()
const dir = useTempDir('payfac-loans-')

describe('loans against the emulator', () => {
  it('lists loans with their money', async () => {
    const loans = await json('loans', 'list')
    expect(loans.length).toBeGreaterThan(0)
    const [loan] = loans
    expect(loan.loanId).toEqual(expect.any(String))
    const table = await payfac('loans', 'list')
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(loan.loanId)
    expect(table.stdout).toMatch(/\d+\.\d{2} AUD/)
  })

  it('lists statements, shows one, and downloads its zip atomically', async () => {
    const statements = await json('loans', 'statements', 'list', '--all')
    expect(statements.length).toBeGreaterThan(0)
    const id = statements[0].loanStatementId as string

    const one = await json('loans', 'statements', 'get', id)
    expect(one.loanStatementId).toBe(id)
    const table = await payfac('loans', 'statements', 'get', id)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(id)
    expect(table.stdout).toMatch(/Amount due\s+\d+\.\d{2} AUD/)

    const listTable = await payfac('loans', 'statements', 'list')
    expect(listTable.stdout).toContain(id)

    const out = join(dir(), 'statement.zip')
    const saved = await payfac('loans', 'statements', 'download', id, '--out', out)
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stdout).toBe('')
    expect(saved.stderr).toMatch(/Saved \d+ bytes/)
    expect(saved.stderr).toContain('--show-password')
    expect(saved.stderr).not.toContain('mcht_LocalMerchant001')
    const zip = readFileSync(out)
    expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]))
    expect(readdirSync(dir())).toEqual(['statement.zip'])

    const piped = await payfac('loans', 'statements', 'download', id, '--format', 'pdf', '--show-password')
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout.startsWith('PK')).toBe(true)
    expect(piped.stderr).toContain('mcht_LocalMerchant001')
  })

  it('lists statement entries and reports them as JSON or CSV (experimental)', async () => {
    const [loan] = await json('loans', 'list')
    const entries = await json('loans', 'entries', 'list', '--loan', loan.loanId, '--all')
    expect(entries.length).toBeGreaterThan(0)
    expect(entries.every((e: { loanId: string }) => e.loanId === loan.loanId)).toBe(true)
    const table = await payfac('loans', 'entries', 'list', '--limit', '2')
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/-?\d+\.\d{2} AUD/)
    expect(table.stderr).toMatch(/Page 1 of/)

    const report = await json('loans', 'entries', 'report', '--loan', loan.loanId)
    expect(JSON.stringify(report)).toContain(entries[0].loanEntryId)

    const byDates = await payfac('loans', 'entries', 'report', '--currency', 'AUD', '--from', '2000-01-01', '--to', '2100-01-01')
    expect(byDates.code, byDates.stderr).toBe(0)
    expect(JSON.parse(byDates.stdout)).toBeTruthy()

    const csv = await payfac('loans', 'entries', 'report', '--loan', loan.loanId, '--csv')
    expect(csv.code, csv.stderr).toBe(0)
    const lines = csv.stdout.trim().split('\n')
    expect(lines[0]).toContain('amount.minorCurrencyUnits')
    expect(lines).toHaveLength(entries.length + 1)
  })

  it('reports by due date with --date-field due', async () => {
    const result = await payfac(
      'loans',
      'entries',
      'report',
      '--currency',
      'AUD',
      '--from',
      '2000-01-01',
      '--to',
      '2100-01-01',
      '--date-field',
      'due',
      '--json',
    )
    expect(result.code, result.stderr).toBe(0)
  })
})

describe('what loans commands send', () => {
  const recording = useRecordingServer(() => ({ body: [], headers: { 'Page-Count': '0', 'Total-Record-Count': '0' } }))
  const { cli, server } = recording

  it('names the date range createdAfter/createdBefore, or dueAfter/dueBefore', async () => {
    expect((await cli('loans', 'entries', 'report', '--currency', 'AUD', '--from', '2026-01-01', '--to', '2026-02-01')).code).toBe(0)
    expect((await cli('loans', 'entries', 'report', '--currency', 'aud', '--from', '2026-01-01', '--to', '2026-02-01', '--date-field', 'due')).code).toBe(0)
    const [created, due] = server.requests
    // Creation bounds are date-times (a date alone is its midnight UTC); due bounds are days, as the due date is a Date.
    expect(Object.fromEntries(created?.query ?? [])).toEqual({
      currency: 'AUD',
      createdAfter: '2026-01-01T00:00:00.000Z',
      createdBefore: '2026-02-01T00:00:00.000Z',
    })
    expect(Object.fromEntries(due?.query ?? [])).toEqual({ currency: 'AUD', dueAfter: '2026-01-01', dueBefore: '2026-02-01' })
    expect(created?.path).toBe('/loans/statements/entries/report')
  })

  describe('bad input exits 2 and sends nothing', () => {
    const cases: RefusalCase[] = [
      ['a report without any filter', ['loans', 'entries', 'report'], /--loan or --loan-settlement/],
      ['a report with a currency but no dates', ['loans', 'entries', 'report', '--currency', 'AUD'], /--from and --to/],
      ['a report with half a range', ['loans', 'entries', 'report', '--currency', 'AUD', '--from', '2026-01-01'], /--from and --to/],
      ['a report with dates but no currency', ['loans', 'entries', 'report', '--from', '2026-01-01', '--to', '2026-02-01'], /--currency/],
      ['a report with a bad date', ['loans', 'entries', 'report', '--currency', 'AUD', '--from', '01/02/2026', '--to', '2026-02-01'], /YYYY-MM-DD/],
      ['a report with an unknown currency', ['loans', 'entries', 'report', '--currency', 'XYZ', '--from', '2026-01-01', '--to', '2026-02-01'], /currency/i],
      ['an unknown --date-field', ['loans', 'entries', 'report', '--loan', 'loan_X', '--date-field', 'paid'], /date-field/],
      ['a blank loan id', ['loans', 'entries', 'list', '--loan', ' '], /--loan/],
      ['--limit 0', ['loans', 'list', '--limit', '0'], /limit/i],
      ['a statement get without an id', ['loans', 'statements', 'get'], /loanStatementId|argument/i],
    ]

    itRefusesBeforeSending(cases, recording)

    it('a statement download to a terminal without --out', async () => {
      const had = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY')
      Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true })
      try {
        const result = await cli('loans', 'statements', 'download', 'lstmt_LocalStmt2024-12')
        expect(result.code).toBe(2)
        expect(result.stderr).toMatch(/--out/)
      } finally {
        if (had) Object.defineProperty(process.stdout, 'isTTY', had)
        else delete (process.stdout as { isTTY?: boolean }).isTTY
      }
      expect(server.requests).toHaveLength(0)
    })
  })
})
