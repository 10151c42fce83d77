// Loans over HTTP: the seeded loan and statements, statement entries and their report (with its
// filter rule), and the statement download as a password-protected ZIP that common tools open.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, inflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { SEEDED_LOAN_ID } from '../../src/emulator/resources/loans.js'
import { KEYS, MERCHANT, SUB_MERCHANT } from './helpers.js'
import { expectError, unanswered, useHttpEmulator } from './money-http.js'
import { routesUnder } from './contract-routes.js'

const http = useHttpEmulator()

const aud = (minorCurrencyUnits: number) => ({ minorCurrencyUnits, currency: 'AUD' })

/** The traditional PKWARE decryption, written out independently of src/emulator/zip.ts. */
function zipDecrypt(data: Buffer, password: string): Buffer {
  const table = Array.from({ length: 256 }, (_v, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? (0xedb88320 ^ (c >>> 1)) >>> 0 : c >>> 1
    return c >>> 0
  })
  const crc = (value: number, byte: number) => (table[(value ^ byte) & 0xff]! ^ (value >>> 8)) >>> 0
  const keys = [305419896, 591751049, 878082192]
  const update = (byte: number) => {
    keys[0] = crc(keys[0]!, byte)
    keys[1] = Number((BigInt(keys[1]! + (keys[0]! & 0xff)) * 134775813n + 1n) & 0xffffffffn)
    keys[2] = crc(keys[2]!, keys[1]! >>> 24)
  }
  for (const byte of Buffer.from(password)) update(byte)
  const out = Buffer.alloc(data.length)
  for (let i = 0; i < data.length; i++) {
    const t = (keys[2]! | 2) & 0xffff
    const plain = data[i]! ^ (Number((BigInt(t) * BigInt(t ^ 1)) >> 8n) & 0xff)
    out[i] = plain
    update(plain)
  }
  return out
}

/** The first entry of a ZIP file: its flags and, decrypted with `password` and inflated, its content. */
function readFirstEntry(zip: Buffer, password: string) {
  expect(zip.readUInt32LE(0)).toBe(0x04034b50)
  const flags = zip.readUInt16LE(6)
  const method = zip.readUInt16LE(8)
  const crc = zip.readUInt32LE(14)
  const compressedSize = zip.readUInt32LE(18)
  const size = zip.readUInt32LE(22)
  const nameLength = zip.readUInt16LE(26)
  const extraLength = zip.readUInt16LE(28)
  const name = zip.subarray(30, 30 + nameLength).toString('utf8')
  const start = 30 + nameLength + extraLength
  const decrypted = zipDecrypt(zip.subarray(start, start + compressedSize), password)
  const headerCheck = decrypted[11]
  let content: Buffer
  try {
    content = method === 8 ? inflateRawSync(decrypted.subarray(12)) : decrypted.subarray(12)
  } catch {
    content = Buffer.alloc(0) // a wrong password gives bytes that do not inflate
  }
  // End of central directory: one entry.
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  return { flags, method, crc, size, name, content, headerCheck, entries: zip.readUInt16LE(end + 10) }
}

describe('loans and statements on a fresh start', () => {
  it('lists the seeded loan with its figures', async () => {
    const loans = await http.call('GET', '/loans')
    expect(loans.headers.get('total-record-count')).toBe('1')
    expect(loans.body[0]).toMatchObject({
      loanId: SEEDED_LOAN_ID,
      merchantId: MERCHANT,
      loanType: 'TradeAccount',
      status: 'Active',
      creditLimit: aud(5_000_000),
      outstandingBalance: aud(252_549),
      availableCredit: aud(5_000_000 - 252_549),
      statementCount: 3,
      latestStatementId: 'lstmt_LocalStmt2024-12',
      nextDueOn: '2025-01-15',
      overdue: true,
    })
    expect(await http.ok('GET', `/loans?merchantId=${SUB_MERCHANT}`, { credential: KEYS.marketplaceApiKey })).toEqual([])
  })

  it('chains the statements: each opens with the previous closing balance', async () => {
    const statements = await http.ok('GET', `/loans/statements?loanId=${SEEDED_LOAN_ID}&sort=periodStart`)
    expect(statements.map((s: { loanStatementId: string }) => s.loanStatementId)).toEqual([
      'lstmt_LocalStmt2024-10',
      'lstmt_LocalStmt2024-11',
      'lstmt_LocalStmt2024-12',
    ])
    expect(statements.map((s: { openingBalance: { minorCurrencyUnits: number } }) => s.openingBalance.minorCurrencyUnits)).toEqual([0, 474_550, 213_637])
    expect(statements.map((s: { closingBalance: { minorCurrencyUnits: number } }) => s.closingBalance.minorCurrencyUnits)).toEqual([474_550, 213_637, 252_549])
    expect(statements.map((s: { status: string }) => s.status)).toEqual(['Paid', 'Paid', 'Unpaid'])
    const one = await http.ok('GET', '/loans/statements/lstmt_LocalStmt2024-11')
    expect(one).toMatchObject({
      drawdowns: aud(210_000),
      repayments: aud(-474_550),
      interest: aud(2_137),
      fees: aud(1_500),
      loanSettlementId: 'lsett_LocalSett2024-11',
      entryCount: 4,
    })
    expect((await http.ok('GET', '/loans/statements?status=Unpaid')).map((s: { loanStatementId: string }) => s.loanStatementId)).toEqual([
      'lstmt_LocalStmt2024-12',
    ])
    expectError(
      await http.call('GET', '/loans/statements/lstmt_LocalStmt2024-11', { credential: KEYS.marketplaceApiKey, headers: { 'Merchant-Id': SUB_MERCHANT } }),
      404,
      'not_found',
    )
  })

  it('pages statement entries with filters', async () => {
    const page = await http.call('GET', '/loans/statements/entries?limit=5&sort=createdAt')
    expect(page.headers.get('total-record-count')).toBe('12')
    expect(page.headers.get('page-count')).toBe('3')
    expect(page.body[0]).toMatchObject({
      loanEntryId: 'lent_LocalEnt2024-10a',
      type: 'Drawdown',
      amount: aud(125_000),
      loanSettlementId: 'lsett_LocalSett2024-10',
    })
    expect(await http.ok('GET', '/loans/statements/entries?type=Repayment&sort=createdAt')).toMatchObject([
      { amount: aud(-474_550) },
      { amount: aud(-213_637) },
    ])
    expect(await http.ok('GET', '/loans/statements/entries?loanSettlementId=lsett_LocalSett2024-10')).toHaveLength(3)
    expectError(await http.call('GET', '/loans/statements/entries?sort=size'), 400, 'invalid_sort')
  })
})

describe('the entries report', () => {
  it('needs loanSettlementId or loanId, or currency with a date range (400 otherwise)', async () => {
    for (const query of [
      '',
      'currency=AUD',
      'createdAfter=2024-10-01&createdBefore=2025-01-01',
      'currency=AUD&createdAfter=2024-10-01',
      'currency=AUD&dueBefore=2025-01-01',
    ]) {
      expectError(await http.call('GET', `/loans/statements/entries/report?${query}`), 400, 'loan_entries_filter_required')
    }
    const byLoan = await http.ok('GET', `/loans/statements/entries/report?loanId=${SEEDED_LOAN_ID}`)
    expect(byLoan.entries).toHaveLength(12)
    expect(byLoan.summary).toMatchObject({ entryCount: 12, net: [aud(252_549)] })
    const byRange = await http.ok('GET', '/loans/statements/entries/report?currency=AUD&createdAfter=2024-12-01&createdBefore=2025-01-01')
    expect(byRange.entries.map((e: { loanEntryId: string }) => e.loanEntryId)).toEqual([
      'lent_LocalEnt2024-12a',
      'lent_LocalEnt2024-12b',
      'lent_LocalEnt2024-12c',
      'lent_LocalEnt2024-12d',
      'lent_LocalEnt2024-12e',
    ])
    const byDue = await http.ok('GET', '/loans/statements/entries/report?currency=AUD&dueAfter=2024-11-01&dueBefore=2024-12-01')
    expect(byDue.summary.entryCount).toBe(3)
    const bySettlement = await http.ok('GET', '/loans/statements/entries/report?loanSettlementId=lsett_LocalSett2024-11')
    expect(bySettlement.summary.byType.map((t: { type: string }) => t.type).sort()).toEqual(['Drawdown', 'Fee', 'Interest', 'Repayment'])
  })
})

describe('statement download', () => {
  it('is a ZIP whose entry is encrypted and opens with the documented password (the merchant id)', async () => {
    const answer = await http.call('GET', '/loans/enterprise/statements/lstmt_LocalStmt2024-12/download', { accept: 'application/zip' })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/zip')
    expect(answer.headers.get('statement-password')).toBe(MERCHANT)
    const entry = readFirstEntry(answer.bytes, MERCHANT)
    expect(entry.entries).toBe(1)
    expect(entry.flags & 1).toBe(1)
    expect(entry.method).toBe(8)
    expect(entry.name).toBe('statement-lstmt_LocalStmt2024-12.csv')
    expect(entry.headerCheck).toBe(entry.crc >>> 24)
    expect(entry.content.length).toBe(entry.size)
    expect(crc32(entry.content)).toBe(entry.crc)
    const lines = entry.content.toString('utf8').trim().split('\r\n')
    expect(lines[0]).toBe('loanStatementId,loanEntryId,createdAt,dueOn,type,description,reference,amountMinorUnits,amount,currency')
    expect(lines).toHaveLength(6)
    expect(lines[1]).toContain('lent_LocalEnt2024-12a')
    // A wrong password gives garbage: the check byte does not match.
    expect(readFirstEntry(answer.bytes, 'wrong').headerCheck).not.toBe(entry.crc >>> 24)
  })

  it.skipIf(spawnSync('unzip', ['-v']).status !== 0)('opens with `unzip -P`, and not without the password', async () => {
    const answer = await http.call('GET', '/loans/enterprise/statements/lstmt_LocalStmt2024-10/download?format=xml', { accept: '*/*' })
    const dir = mkdtempSync(join(tmpdir(), 'payfac-zip-'))
    const file = join(dir, 'statement.zip')
    writeFileSync(file, answer.bytes)
    expect(spawnSync('unzip', ['-tq', '-P', MERCHANT, file]).status).toBe(0)
    const extracted = spawnSync('unzip', ['-p', '-P', MERCHANT, file, 'statement-lstmt_LocalStmt2024-10.xml'])
    expect(extracted.status).toBe(0)
    expect(extracted.stdout.toString('utf8')).toContain('<LoanStatement id="lstmt_LocalStmt2024-10"')
    expect(spawnSync('unzip', ['-p', '-P', 'wrong-password', file]).status).not.toBe(0)
  })

  it('holds a PDF on request, refuses unknown formats (400), other media types (406) and others’ statements (404)', async () => {
    const pdf = readFirstEntry(
      (await http.call('GET', '/loans/enterprise/statements/lstmt_LocalStmt2024-11/download?format=pdf', { accept: 'application/zip' })).bytes,
      MERCHANT,
    )
    expect(pdf.name.endsWith('.pdf')).toBe(true)
    expect(pdf.content.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(pdf.content.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true)
    expectError(
      await http.call('GET', '/loans/enterprise/statements/lstmt_LocalStmt2024-11/download?format=docx', { accept: 'application/zip' }),
      400,
      'invalid_query',
    )
    expectError(await http.call('GET', '/loans/enterprise/statements/lstmt_LocalStmt2024-11/download', { accept: 'text/html' }), 406, 'not_acceptable')
    expectError(await http.call('GET', '/loans/enterprise/statements/lstmt_nope/download', { accept: 'application/zip' }), 404, 'not_found')
  })
})

describe('coverage', () => {
  it('answered 2xx over HTTP on every loan operation', () => {
    const keys = routesUnder('/loans')
    expect(unanswered(http, keys)).toEqual([])
  })
})
