// Every output flag is honoured or refused (issue 36): each command that has --out or the
// marketplace fan-out, walked with --csv, --json, --jsonl, --query and --ids, with and without
// --out and the fan-out, in this process against one emulator month. A combination payfac cannot
// honour is exit 2 with nothing on stdout (and, against the recording server, nothing sent).
import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

import { type RefusalCase, RECORDING_MARKETPLACE_KEY, itRefusesBeforeSending, useEmulator, useRecordingServer, useTempDir } from '../helpers/command-harness.js'
import { manifestCommands } from '../helpers/manifest-examples.js'

const FAN_OUT_COMMANDS: Record<string, string[]> = {
  'disputes:list': [],
  'merchants:balances': [],
  'payouts:list': [],
  'refunds:list': [],
  'settlement:list': ['--currency', 'AUD', '--last-month'],
  'settlement:reconcile': ['--currency', 'AUD', '--last-month'],
  'settlement:report': ['--currency', 'AUD', '--last-month'],
  'transactions:list': [],
  'webhooks:list': [],
}
/** --out of a run from a file (the results), a download, and the settlement report. */
const OUT_COMMANDS = [
  'customers:upsert',
  'invoices:pdf',
  'loans:statements:download',
  'orders:create',
  'payouts:request',
  'settlement:report',
  'transactions:refund',
  'webhooks:create',
]

type Format = 'table' | 'csv' | 'json' | 'jsonl' | 'query' | 'ids'
const FORMATS: Format[] = ['table', 'csv', 'json', 'jsonl', 'query', 'ids']
const formatArgs = (format: Format, query = '[].merchantId'): string[] => (format === 'table' ? [] : format === 'query' ? ['--query', query] : [`--${format}`])

describe('which commands have --out and the fan-out', () => {
  it('is the list this file walks: a new one must be added here', () => {
    const commands = manifestCommands()
    expect(
      commands
        .filter((c) => 'out' in c.flags)
        .map((c) => c.id)
        .sort(),
    ).toEqual([...OUT_COMMANDS].sort())
    expect(
      commands
        .filter((c) => 'each-merchant' in c.flags)
        .map((c) => c.id)
        .sort(),
    ).toEqual(Object.keys(FAN_OUT_COMMANDS).sort())
    for (const c of commands) if ('each-merchant' in c.flags) expect(c.flags, c.id).toHaveProperty('merchants')
  })
})

describe('against a month of the emulator', () => {
  const { marketplace, json } = useEmulator()
  const dir = useTempDir('payfac-output-flags-')
  let merchants: string[] = []
  beforeAll(async () => {
    merchants = (await marketplace.json('emulator', 'month', '--last-month', '--transactions', '60', '--sub-merchants', '1')).merchantIds
  })

  /** The merchants each record of a fan-out's stdout came from, in the format it was printed in. */
  function merchantsOf(format: Format, stdout: string): string[] {
    if (format === 'json' || format === 'query')
      return (JSON.parse(stdout) as Array<{ merchantId: string } | string>).map((r) => (typeof r === 'string' ? r : r.merchantId))
    if (format === 'jsonl')
      return stdout.trim() === ''
        ? []
        : stdout
            .trim()
            .split('\n')
            .map((line) => (JSON.parse(line) as { merchantId: string }).merchantId)
    if (stdout.trim() === '') return []
    const [header, ...rows] = stdout.trim().split(/\r?\n/)
    if (format === 'csv') expect(header).toMatch(/^merchantId,/)
    if (format === 'table') expect(header).toMatch(/^Merchant\t/)
    return rows.filter(Boolean).map((row) => row.split(format === 'csv' ? ',' : '\t')[0] as string)
  }

  const listCommands = Object.entries(FAN_OUT_COMMANDS).filter(([id]) => id !== 'settlement:report' && id !== 'settlement:reconcile')
  const fanOutCases = listCommands.flatMap(([id, args]) => FORMATS.map((format, i) => [id, format, i % 2 === 0 ? 'each' : 'list', args] as const))

  it.each(fanOutCases)('%s --%s with the fan-out (%s) prints every merchant, merchantId first', async (id, format, how, args) => {
    const fan = how === 'each' ? ['--each-merchant'] : ['--merchants', merchants.join(',')]
    const result = await marketplace.payfac(...id.split(':'), ...args, ...fan, ...formatArgs(format))
    expect(result.code, result.stderr).toBe(0)
    if (format === 'ids') {
      // Each record's own id; the merchant's only where the record has no other (a balance).
      const ids = result.stdout.split('\n').filter(Boolean)
      expect(ids.every((line) => /^[a-z]+_\S+$/.test(line))).toBe(true)
      if (id !== 'merchants:balances') expect(ids.filter((line) => line.startsWith('mcht_'))).toEqual([])
      return
    }
    const seen = merchantsOf(format, result.stdout)
    for (const merchant of seen) expect(merchants).toContain(merchant)
    if (id === 'merchants:balances' || id === 'transactions:list') expect(new Set(seen)).toEqual(new Set(merchants))
  })

  it.each(Object.keys(FAN_OUT_COMMANDS).filter((id) => !OUT_COMMANDS.includes(id)))('%s has no --out: exit 2, nothing printed', async (id) => {
    const result = await marketplace.payfac(...id.split(':'), ...(FAN_OUT_COMMANDS[id] as string[]), '--each-merchant', '--out', join(dir(), 'x'))
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
  })

  // settlement reconcile: each format, with and without the fan-out and --xlsx. Every record format ends each run with its summary.
  const reconcileCases = FORMATS.flatMap((format) => [false, true].flatMap((fan) => [false, true].map((xlsx) => [format, fan, xlsx] as const)))
  it.each(reconcileCases)('settlement reconcile --%s, fan-out %s, --xlsx %s', async (format, fan, xlsx) => {
    const book = join(dir(), `reconcile-${format}-${fan}-${xlsx}.xlsx`)
    const query = '[?record==`summary`].matched'
    const result = await marketplace.payfac(
      'settlement',
      'reconcile',
      '--currency',
      'AUD',
      '--last-month',
      ...(format === 'query' ? ['--query', query] : formatArgs(format)),
      ...(fan ? ['--merchants', merchants.join(',')] : []),
      ...(xlsx ? ['--xlsx', book] : []),
    )
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/^All \d+ records matched/m)
    expect(existsSync(book)).toBe(xlsx)
    if (xlsx) expect(result.stderr).toContain(`Saved ${readFileSync(book).length} bytes to ${book}`)
    const runs = fan ? merchants.length : 1
    if (format === 'table') expect(result.stdout).toBe('')
    else if (format === 'query') expect(JSON.parse(result.stdout)).toEqual(Array(runs).fill(true))
    else if (format === 'ids')
      expect(
        result.stdout
          .split('\n')
          .filter(Boolean)
          .every((line) => /^(tran|rfnd|payout)_/.test(line)),
      ).toBe(true)
    else {
      const records: Array<{ record: string; merchantId: string }> =
        format === 'json'
          ? JSON.parse(result.stdout)
          : format === 'jsonl'
            ? result.stdout
                .trim()
                .split('\n')
                .map((line) => JSON.parse(line))
            : (await import('csv-parse/sync')).parse(result.stdout, { columns: true })
      expect(records.filter((r) => r.record === 'summary')).toHaveLength(runs)
      if (fan) expect(new Set(records.map((r) => r.merchantId))).toEqual(new Set(merchants))
    }
  })

  // settlement report: --out none, one file, a {merchantId} pattern or a folder; each format; with and without the fan-out.
  type Out = 'none' | 'file' | 'pattern' | 'folder'
  const OUTS: Out[] = ['none', 'file', 'pattern', 'folder']
  const reportCases = OUTS.flatMap((out) => FORMATS.flatMap((format) => [false, true].map((fan) => [out, format, fan] as const)))
  /** What the issue asks of each combination: refused, or where the report goes. */
  const expected = (out: Out, format: Format, fan: boolean): 'refused' | 'stdout' | 'file' | 'combined' | 'each' => {
    if (out !== 'none' && (format === 'query' || format === 'ids')) return 'refused'
    if ((out === 'pattern' || out === 'folder') && !fan) return 'refused'
    if (out === 'none') return 'stdout'
    if (out === 'file') return fan ? 'combined' : 'file'
    return 'each'
  }

  it.each(reportCases)('settlement report --out %s --%s, fan-out %s', async (out, format, fan) => {
    const folder = join(dir(), `report-${out}-${format}-${fan}`)
    rmSync(folder, { recursive: true, force: true })
    mkdirSync(folder)
    const target = out === 'file' ? join(folder, 'report.out') : out === 'pattern' ? join(folder, 'settlement-{merchantId}.data') : folder
    const args = ['settlement', 'report', '--currency', 'AUD', '--last-month', ...formatArgs(format, fan ? '[].merchantId' : 'summary.entryCount')]
    const result = await marketplace.payfac(...args, ...(fan ? ['--each-merchant'] : []), ...(out === 'none' ? [] : ['--out', target]))
    const want = expected(out, format, fan)
    if (want === 'refused') {
      expect(result.code, result.stderr).toBe(2)
      expect(result.stdout).toBe('')
      expect(readdirSync(folder)).toEqual([])
      return
    }
    expect(result.code, result.stderr).toBe(0)
    const fileFormat = format === 'csv' ? 'csv' : 'json'
    if (want === 'stdout') {
      if (fan && format === 'ids')
        expect(
          result.stdout
            .split('\n')
            .filter(Boolean)
            .every((line) => line.startsWith('stl_')),
        ).toBe(true)
      else if (fan) expect(new Set(merchantsOf(format, result.stdout))).toEqual(new Set(merchants))
      else if (format === 'csv') expect(result.stdout).toMatch(/^settlementEntryId,createdAt,/)
      else if (format === 'json') expect(JSON.parse(result.stdout).summary.entryCount).toBeGreaterThan(100)
      else if (format === 'query') expect(Number(result.stdout)).toBeGreaterThan(100)
      else if (format === 'jsonl') expect(JSON.parse(result.stdout.split('\n')[0] as string)).toHaveProperty('settlementEntryId')
      else if (format === 'ids')
        expect(
          result.stdout
            .split('\n')
            .filter(Boolean)
            .every((line) => line.startsWith('stl_')),
        ).toBe(true)
      else expect(result.stdout).toMatch(/stl_/)
      return
    }
    expect(result.stdout).toBe('')
    if (want === 'file') {
      expect(result.stderr).toBe(`Saved ${readFileSync(target).length} bytes to ${target}\n`)
      const text = readFileSync(target, 'utf8')
      if (fileFormat === 'csv') expect(text).toMatch(/^settlementEntryId,/)
      else expect(JSON.parse(text).summary.entryCount).toBeGreaterThan(100)
      return
    }
    if (want === 'combined') {
      const text = readFileSync(target, 'utf8')
      expect(result.stderr).toBe(`Saved ${Buffer.byteLength(text)} bytes to ${target}\n`)
      expect(new Set(merchantsOf(format === 'csv' ? 'csv' : format === 'jsonl' ? 'jsonl' : 'json', text))).toEqual(new Set(merchants))
      return
    }
    // One file per merchant of the marketplace, each the very report --merchant-id saves.
    const files = readdirSync(folder).sort()
    const name = (m: string) => (out === 'pattern' ? `settlement-${m}.data` : `settlement-${m}.${fileFormat}`)
    expect(files).toEqual(merchants.map(name).sort())
    for (const merchant of merchants) {
      const path = join(folder, name(merchant))
      expect(result.stderr).toContain(`Saved ${readFileSync(path).length} bytes to ${path}\n`)
    }
    if (format === 'csv' || format === 'json') {
      for (const merchant of merchants) {
        const single = join(folder, `single-${merchant}`)
        const one = await marketplace.payfac(...args, '--merchant-id', merchant, '--out', single)
        expect(one.code, one.stderr).toBe(0)
        expect(readFileSync(join(folder, name(merchant))).equals(readFileSync(single)), merchant).toBe(true)
      }
    }
  })

  it('settlement report --merchants with a pattern saves only the merchants named', async () => {
    const folder = join(dir(), 'named')
    mkdirSync(folder)
    const result = await marketplace.payfac(
      'settlement',
      'report',
      '--currency',
      'AUD',
      '--last-month',
      '--csv',
      '--merchants',
      merchants.slice(0, 2).join(','),
      '--out',
      join(folder, 'r-{merchantId}.csv'),
    )
    expect(result.code, result.stderr).toBe(0)
    expect(readdirSync(folder).sort()).toEqual(
      merchants
        .slice(0, 2)
        .map((m) => `r-${m}.csv`)
        .sort(),
    )
  })

  it('settlement report --out FOLDER never writes a merchant’s report through a link, into a FIFO or over a folder found there', async () => {
    const folder = join(dir(), 'planted')
    mkdirSync(folder)
    const outside = join(dir(), 'precious.txt')
    writeFileSync(outside, 'precious\n')
    const [linked, piped, foldered] = merchants as [string, string, string]
    const name = (m: string) => join(folder, `settlement-${m}.csv`)
    symlinkSync(outside, name(linked))
    execFileSync('mkfifo', [name(piped)])
    mkdirSync(name(foldered))
    const result = await marketplace.payfac('settlement', 'report', '--currency', 'AUD', '--last-month', '--csv', '--each-merchant', '--out', `${folder}/`)
    expect(result.code, result.stderr).toBe(6)
    expect(readFileSync(outside, 'utf8')).toBe('precious\n')
    expect(lstatSync(name(linked)).isSymbolicLink()).toBe(true)
    expect(lstatSync(name(piped)).isFIFO()).toBe(true)
    expect(result.stderr).toContain(`Merchant ${linked} failed: --out: ${name(linked)} is a symbolic link`)
    expect(result.stderr).toContain(`Merchant ${piped} failed: --out: ${name(piped)} is a FIFO`)
    expect(result.stderr).toContain(`Merchant ${foldered} failed: --out: ${name(foldered)} is a folder`)
    for (const merchant of merchants.slice(3)) expect(lstatSync(name(merchant)).isFile(), merchant).toBe(true)
  })

  // The downloads: --json and --jsonl are kept (an error is one JSON line), the flags that shape records are refused.
  it.each([
    ['invoices pdf', 'pdf'],
    ['loans statements download', 'zip'],
  ])('%s honours --out with --json and --jsonl, and refuses --csv, --query, --ids, --columns and --wide', async (command, kind) => {
    const id = kind === 'pdf' ? (await json('invoices', 'list', '--limit', '1'))[0].invoiceId : 'lstmt_LocalStmt2024-12'
    const words = [...command.split(' '), id]
    const magic = kind === 'pdf' ? '%PDF-' : 'PK\u0003\u0004'
    for (const format of ['', '--json', '--jsonl']) {
      const file = join(dir(), `download${format}.${kind}`)
      const saved = await marketplace.payfac(...words, '--merchant-id', 'mcht_LocalMerchant001', '--out', file, ...(format ? [format] : []))
      expect(saved.code, saved.stderr).toBe(0)
      expect(saved.stdout).toBe('')
      expect(readFileSync(file, 'latin1').startsWith(magic)).toBe(true)
    }
    for (const refused of [['--csv'], ['--query', 'x'], ['--ids'], ['--columns', 'orderId'], ['--wide']]) {
      const file = join(dir(), `refused.${kind}`)
      const result = await marketplace.payfac(...words, '--merchant-id', 'mcht_LocalMerchant001', '--out', file, ...refused)
      expect(result.code, `${refused[0]}: ${result.stderr}`).toBe(2)
      expect(result.stderr).toMatch(new RegExp(`${refused[0]} shapes printed records`))
      expect(existsSync(file)).toBe(false)
    }
  })
})

describe('refused before anything is sent', () => {
  const recording = useRecordingServer(() => ({ status: 200, body: [], headers: { 'Page-Count': '0', 'Total-Record-Count': '0' } }), {
    credential: RECORDING_MARKETPLACE_KEY,
  })
  const report = ['settlement', 'report', '--currency', 'AUD', '--last-month']
  const cases: RefusalCase[] = [
    ['a {merchantId} name without the fan-out', [...report, '--csv', '--out', '/tmp/settlement-{merchantId}.csv'], /names one file per merchant/],
    ['a folder without the fan-out', [...report, '--out', '/tmp'], /--out: \/tmp is a folder, which takes one report per merchant only with --each-merchant/],
    ['{merchantId} in the folder part', [...report, '--each-merchant', '--out', '/tmp/{merchantId}/s.csv'], /names a file, not a folder/],
    ['another placeholder', [...report, '--each-merchant', '--out', '/tmp/s-{currency}.csv'], /only \{merchantId\} is replaced/],
    ['{merchantId} misspelt', [...report, '--each-merchant', '--out', '/tmp/s-{merchantid}.csv'], /only \{merchantId\} is replaced/],
    ['a folder that is not there', [...report, '--each-merchant', '--out', '/nonexistent-payfac/'], /does not exist/],
    ['--query with --out', [...report, '--out', '/tmp/r.json', '--query', 'summary'], /--query picks from what is printed/],
    ['--ids with --out and the fan-out', [...report, '--each-merchant', '--out', '/tmp/r.json', '--ids'], /--ids picks from what is printed/],
    ['--columns with the service CSV', [...report, '--csv', '--columns', 'type'], /--columns picks the columns payfac lays out/],
    ['--columns with a per-merchant --out', [...report, '--csv', '--each-merchant', '--columns', 'type', '--out', '/tmp/r-{merchantId}.csv'], /--columns/],
    ['--query with --from-file', ['transactions', 'refund', '--from-file', '/dev/null', '--query', 'x'], /--query does not go with --from-file/],
    ['--ids with --from-file', ['payouts', 'request', '--from-file', '/dev/null', '--ids'], /--ids does not go with --from-file/],
    ['--csv on a PDF', ['invoices', 'pdf', 'inv_x', '--out', '/tmp/x.pdf', '--csv'], /--csv shapes printed records/],
    ['--query on a zip', ['loans', 'statements', 'download', 'lstmt_x', '--out', '/tmp/x.zip', '--query', 'a'], /--query shapes printed records/],
  ]
  itRefusesBeforeSending(cases, recording)
})
