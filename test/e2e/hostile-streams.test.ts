// Streams against a hostile service (issue 26, items 2, 3 and 5): the settlement report's CSV is
// checked and rewritten, junk is exit 7 naming what came, a body that breaks off, stalls or drips
// is exit 7 with nothing under the --out name, a list that repeats itself stops at page 2, and
// --split is bounded before anything is sent. Each case spawns bin/run.js (dist/ must be built).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { answer, dropAfter, drip, endlessBody, hostileEnv, startHostileService, type HostileService } from '../helpers/hostile-service.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const HEADER =
  'settlementEntryId,createdAt,availableOn,merchantId,type,amountMinorUnits,amount,currency,transactionId,orderId,refundId,payoutId,description\r\n'
const row = (id: string, createdAt: string, description: string, minor = '1250', amount = '12.50') =>
  `${id},${createdAt},2026-11-03T00:00:00.000Z,mcht_LocalMerchant001,Payment,${minor},${amount},AUD,tran_1,ordr_1,,,${description}\r\n`
const CLEAN = row('stl_1', '2026-11-01T10:00:00.000Z', 'Coffee')
const RANGE = ['--currency', 'AUD', '--from', '2026-11-01', '--to', '2026-11-08']
const REPORT = '/transactions/settlement/report'

/** One service per case, so that the cases run at once. */
async function withService(
  routes: Parameters<typeof startHostileService>[0],
  run: (svc: HostileService, env: Record<string, string>, dir: string) => Promise<void>,
) {
  const svc = await startHostileService(routes)
  const dir = mkdtempSync(join(tmpdir(), 'payfac-hostile-'))
  try {
    await run(svc, hostileEnv(svc.url, dir), dir)
  } finally {
    await svc.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const report = (env: Record<string, string>, ...extra: string[]) => spawnCli(['settlement', 'report', ...RANGE, '--csv', ...extra], { env })

describe.concurrent('the settlement report CSV from a hostile service', () => {
  it('defuses formula cells and passes clean rows byte for byte', async () => {
    const body =
      HEADER +
      CLEAN +
      row('stl_2', '2026-11-01T11:00:00.000Z', '"=HYPERLINK(""http://evil.example"",""x"")"') +
      row('stl_3', '2026-11-01T12:00:00.000Z', '@SUM(A1:A9)', '-1250', '-12.50')
    await withService({ [REPORT]: answer(200, 'text/csv', body) }, async (_svc, env) => {
      const run = await report(env)
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      const lines = run.stdout.split('\r\n')
      expect(lines[0]).toBe(HEADER.trimEnd())
      expect(lines[1]).toBe(CLEAN.trimEnd())
      expect(lines[2]).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")"`)
      expect(lines[3]).toContain(",-1250,-12.50,AUD,tran_1,ordr_1,,,'@SUM(A1:A9)")
      expect(run.stdout).not.toMatch(/(^|,)"?[=@]/m)
    })
  })

  it.each([
    [
      'an HTML page with 200',
      answer(200, 'text/html', '<!DOCTYPE html><html><body>Maintenance</body></html>'),
      /answered an HTML page \(starts `<!DOCTYPE html><html><body>Maintenance<\/…`\) where a CSV report was expected/,
    ],
    ['truncated JSON', answer(200, 'application/json', '{"entries":[{"settlementEntryId":"stl_1",'), /answered JSON \(starts `\{"entries":\[/],
    ['an empty body', answer(200, 'text/csv', ''), /answered an empty body \(0 bytes\) where a CSV report was expected/],
    ['a 204', answer(204, undefined), /answered an empty body \(0 bytes\)/],
    ['gzip garbage', answer(200, 'text/csv', Buffer.concat([gzipSync('settlementEntryId\r\n'), Buffer.from([0, 1, 2])])), /answered gzip data \(starts 1f 8b/],
    [
      'a header without the report columns',
      answer(200, 'text/csv', 'id,when,what\r\n1,2,3\r\n'),
      /not the settlement report: its header lacks settlementEntryId, createdAt, type, currency, amountMinorUnits or amount \(it has `id,when,what`\)/,
    ],
  ])('refuses %s with exit 7 naming what came, printing nothing', async (_name, route, message) => {
    await withService({ [REPORT]: route }, async (_svc, env) => {
      const run = await report(env)
      expect(run.code).toBe(7)
      expect(run.stdout).toBe('')
      expect(run.stderr).toMatch(message)
      expect(run.stderr).not.toMatch(/bug/)
    })
  })

  it('refuses a row with the wrong number of fields', async () => {
    await withService({ [REPORT]: answer(200, 'text/csv', `${HEADER + CLEAN}stl_9,2026-11-01T10:00:00.000Z,oops\r\n`) }, async (_svc, env) => {
      const run = await report(env)
      expect(run.code).toBe(7)
      expect(run.stderr).toMatch(/row 2 of the report has 3 fields where the header has 13/)
    })
  })

  it('stops reading an endless body of junk after its first bytes', async () => {
    await withService({ [REPORT]: endlessBody('text/csv', 'junk junk junk ') }, async (svc, env) => {
      const run = await report(env)
      expect(run.code).toBe(7)
      expect(run.stderr).toMatch(/not the settlement report|longer than 1 MiB/)
      expect(svc.endless.closed).toBe(true)
    })
  })

  it('a connection dropped mid-CSV is exit 7 with the bytes received, and nothing under the --out name', async () => {
    const sent = HEADER + CLEAN + CLEAN.slice(0, 30)
    await withService({ [REPORT]: dropAfter('text/csv', sent, 100_000) }, async (_svc, env, dir) => {
      const out = join(dir, 'report.csv')
      const run = await report(env, '--out', out)
      expect(run.code).toBe(7)
      expect(run.stderr).toContain(`the connection was lost after ${Buffer.byteLength(sent)} bytes of the answer`)
      expect(run.stderr).toMatch(/incomplete/)
      expect(run.stderr).not.toMatch(/bug/)
      expect(existsSync(out)).toBe(false)
      expect(readdirSync(dir).filter((name) => name.includes('report.csv'))).toEqual([])
    })
  })

  it('a connection dropped mid-CSV on stdout says on stderr that what was printed is incomplete', async () => {
    await withService({ [REPORT]: dropAfter('text/csv', HEADER + CLEAN, 100_000) }, async (_svc, env) => {
      const run = await report(env)
      expect(run.code).toBe(7)
      expect(run.stderr).toMatch(/lost after \d+ bytes of the answer.*incomplete/)
    })
  })

  it('a body that drips a byte at a time ends with exit 7 after --timeout', async () => {
    await withService({ [REPORT]: drip('text/csv', HEADER, 100) }, async (_svc, env) => {
      const run = await report(env, '--timeout', '1s')
      expect(run.code).toBe(7)
      expect(run.stderr).toMatch(/the answer stalled: less than 1 KiB came within 1 s \(--timeout\)/)
    })
  })

  it('the JSON report answered with HTML is exit 7 too', async () => {
    await withService({ [REPORT]: answer(200, 'text/html', '<html><body>oops</body></html>') }, async (_svc, env) => {
      const run = await spawnCli(['settlement', 'report', ...RANGE, '--json'], { env })
      expect(run.code).toBe(7)
      expect(run.stderr).toMatch(/answered an HTML page \(starts `<html><body>oops/)
    })
  })
})

describe.concurrent('--split within bounds', () => {
  it.each([
    [['--split', '0ms'], /--split 0ms is shorter than the smallest part, 1m/],
    [['--split', '1s'], /--split 1s is shorter than the smallest part, 1m/],
    [['--split', '1m'], /--split 1m cuts the range into 10,080 parts; at most 1,000 are sent.*--split 11m or more/],
  ])('refuses %j over 7 days with exit 2 before any request', async (flags, message) => {
    await withService({}, async (svc, env) => {
      const run = await report(env, ...flags)
      expect(run.code).toBe(2)
      expect(run.stderr).toMatch(message)
      expect(svc.requests).toEqual([])
    })
  })

  it('says how many parts it sends, writes one header, and leaks no listeners over 14 parts', async () => {
    const part = (_req: unknown, res: import('node:http').ServerResponse, url: URL) => {
      const from = url.searchParams.get('createdAfter') as string
      res.writeHead(200, { 'content-type': 'text/csv' }).end(HEADER + row(`stl_${from}`, from, 'Part'))
    }
    await withService({ [REPORT]: part }, async (svc, env) => {
      const run = await report(env, '--split', '12h')
      expect(run.code).toBe(0)
      expect(run.stderr).toBe('Sending the range in 14 parts (--split 12h), one after another\n')
      expect(svc.requests).toHaveLength(14)
      const lines = run.stdout.trimEnd().split('\r\n')
      expect(lines).toHaveLength(15)
      expect(lines.filter((line) => line === HEADER.trimEnd())).toHaveLength(1)
    })
  })
})

describe.concurrent('downloads checked by format', () => {
  it('an invoice PDF answered with HTML is exit 7 and saves nothing', async () => {
    await withService({ '/transactions/invoices/inv_1/pdf': answer(200, 'application/pdf', '<!DOCTYPE html><p>login</p>') }, async (_svc, env, dir) => {
      const out = join(dir, 'invoice.pdf')
      const run = await spawnCli(['invoices', 'pdf', 'inv_1', '--out', out], { env })
      expect(run.code).toBe(7)
      expect(run.stderr).toMatch(/answered an HTML page \(starts `<!DOCTYPE html><p>login<\/p>`\) where a PDF was expected/)
      expect(existsSync(out)).toBe(false)
    })
  })

  it('a PDF that ends without %%EOF is incomplete; a whole one is saved', async () => {
    const pdf = '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'
    await withService(
      {
        '/transactions/invoices/inv_1/pdf': answer(200, 'application/pdf', pdf.slice(0, 20)),
        '/transactions/invoices/inv_2/pdf': answer(200, 'application/pdf', pdf),
      },
      async (_svc, env, dir) => {
        const cut = await spawnCli(['invoices', 'pdf', 'inv_1', '--out', join(dir, 'a.pdf')], { env })
        expect(cut.code).toBe(7)
        expect(cut.stderr).toMatch(/a PDF without its end marker came \(20 bytes\)/)
        const whole = await spawnCli(['invoices', 'pdf', 'inv_2', '--out', join(dir, 'b.pdf')], { env })
        expect(whole.stderr).toMatch(/Saved \d+ bytes/)
        expect(whole.code).toBe(0)
      },
    )
  })
})

describe.concurrent('--all against a list that makes no progress', () => {
  const page = (ids: string[]) =>
    answer(
      200,
      'application/json',
      JSON.stringify(ids.map((orderId) => ({ orderId, amount: { minorCurrencyUnits: 100, currency: 'AUD' }, createdAt: '2026-11-01T00:00:00.000Z' }))),
    )
  let svc: HostileService
  let dir: string
  beforeAll(async () => {
    // The same full page of 500 orders for ever, without Page-Count or Total-Record-Count.
    svc = await startHostileService({ '/orders': page(Array.from({ length: 500 }, (_, i) => `ordr_${i}`)) })
    dir = mkdtempSync(join(tmpdir(), 'payfac-hostile-'))
  })
  afterAll(async () => {
    await svc.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('stops at page 2 with exit 7 naming the page', async () => {
    const run = await spawnCli(['orders', 'list', '--all', '--json'], { env: hostileEnv(svc.url, dir) })
    expect(run.code).toBe(7)
    expect(run.stderr).toMatch(/Page 2 of \/orders repeated records already delivered \(all 500 of them\): the walk stopped/)
    expect(svc.requests.filter((r) => r.startsWith('GET /orders')).length).toBeLessThanOrEqual(2)
  })
})
