// The pure and in-process parts of the hostile-input work (issue 35): how deep a JSON text nests,
// the ledger read through csv-parse with its bounds, and a child ended with its tree when it
// shares payfac's terminal (the e2e suite, test/e2e/hostile-inputs.test.ts, covers the rest).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'

import { readData } from '../../src/cli/files/input.js'
import { MAX_LEDGER_RECORD_BYTES, parseLedger, parseLedgerColumns } from '../../src/cli/reconcile/ledger.js'
import { MAX_JSON_DEPTH, jsonBytesDepthOver, jsonDepthOver } from '../../src/client/json-depth.js'
import { parseMaybeJson, readJson } from '../../src/client/wire.js'
import { trackChild } from '../../src/config/child-group.js'

const nested = (depth: number) => `${'{"a":['.repeat(depth / 2)}1${']}'.repeat(depth / 2)}`

describe('how deep a JSON text nests', () => {
  it('takes 256 levels and refuses 257, brackets inside strings not counted', () => {
    expect(MAX_JSON_DEPTH).toBe(256)
    expect(jsonDepthOver(nested(256))).toBe(false)
    expect(jsonDepthOver(`[${nested(256)}]`)).toBe(true)
    const quoted = `[${JSON.stringify('[{'.repeat(1000))}, "a \\" [[[", ${nested(254)}]`
    expect(jsonDepthOver(quoted)).toBe(false)
    expect(jsonDepthOver(`[${quoted}]`)).toBe(false)
    expect(jsonDepthOver(`[[${quoted}]]`)).toBe(true)
  })

  it('reads the bytes in chunks cut anywhere, an escape or a multi-byte character included', () => {
    const text = `[${JSON.stringify('é \\" ]]] [[[')}, ${nested(254)}]`
    const bytes = Buffer.from(text)
    for (const size of [1, 2, 3, 7, 1000]) {
      const chunks: Buffer[] = []
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size))
      expect(jsonBytesDepthOver(chunks)).toBe(false)
      expect(jsonBytesDepthOver([Buffer.from('['), ...chunks, Buffer.from(']')])).toBe(false)
      expect(jsonBytesDepthOver([Buffer.from('[['), ...chunks, Buffer.from(']]')])).toBe(true)
    }
  })

  it('makes a deep success answer a ResponseFormatError (exit 7), keeps a deep error body as text, and refuses a deep --data (exit 2)', async () => {
    const at = { method: 'GET', path: '/orders', status: 200, contentType: 'application/json', requestId: undefined, secrets: [] }
    expect(() => readJson(nested(5000), at)).toThrow(/nests objects and arrays more than 256 deep/)
    expect(readJson(nested(256), at)).toBeTypeOf('object')
    expect(parseMaybeJson(nested(5000), 'application/json')).toBe(nested(5000))
    await expect(readData(nested(300))).rejects.toThrow(/--data nests objects and arrays more than 256 deep/)
  })
})

describe('the ledger, read through csv-parse', () => {
  const columns = parseLedgerColumns('reference=Ref,amount=Amt,currency=Ccy,date=Day')

  it('reads quoted fields (commas, quotes, line breaks), a byte-order mark, short rows and stray quotes, and names lines as the file numbers them', async () => {
    const text = '\uFEFFRef,Amt,Ccy,Day,Note\n"ref,1","1,00",AUD,2026-11-01,"two\nlines"\n\nre"f2,2.00,AUD\n'
    const lines = await parseLedger(text, parseLedgerColumns('reference=Ref,amount=Amt,currency=Ccy'), 'decimal', 'books.csv').catch((e: Error) => e)
    // "1,00" is not a decimal payfac reads: the error names the line the record ends on.
    expect(lines).toBeInstanceOf(Error)
    expect((lines as Error).message).toMatch(/^--ledger: line 3 of books.csv: /)
    const good = await parseLedger('Ref,Amt,Ccy,Day\n"ref,1","1.00",AUD,"2026-\n11-01"\n\nre"f2,2.00,AUD\n', columns, 'decimal')
    expect(good).toEqual([
      { line: 3, reference: 'ref,1', amount: 100, currency: 'AUD', date: '2026-\n11-01' },
      { line: 5, reference: 're"f2', amount: 200, currency: 'AUD', date: '' },
    ])
  })

  it('refuses a line longer than 64 KiB, naming it, without reading what follows', async () => {
    let pulled = 0
    const endless = Readable.from(
      (function* () {
        yield 'Ref,Amt,Ccy\nA,1.00,AUD\n'
        for (;;) {
          pulled++
          yield 'x'.repeat(16 * 1024)
        }
      })(),
    )
    await expect(parseLedger(endless, columns, 'decimal', 'endless.csv')).rejects.toThrow(
      /^--ledger: line 3 of endless.csv is longer than 64 KiB; payfac reads ledger lines of at most 64 KiB/,
    )
    expect(pulled).toBeLessThan((4 * MAX_LEDGER_RECORD_BYTES) / (16 * 1024))
  })

  it('names a junk header in a few hundred characters at most', async () => {
    const error = (await parseLedger(`${'junk'.repeat(10_000)}\n1,2,3\n`, columns, 'decimal', 'j.csv').catch((e: Error) => e)) as Error
    expect(error.message).toMatch(/^--ledger: j.csv has no column "Ref" \(columns: (junk)+…\)/)
    expect(error.message.length).toBeLessThan(400)
  })
})

describe('a child that shares the terminal (its own tree, not its own group)', () => {
  it('is ended with its descendants, one that ignores SIGTERM and (Linux, by its marker) one orphaned', async () => {
    const marker = `PAYFAC_CREDENTIAL_RUN=test-${process.pid}-${Date.now()}`
    const orphan = process.platform === 'linux' ? '(sleep 1000 3>&- & echo $! >&3);' : ''
    const child = spawn('sh', ['-c', `trap '' TERM; sleep 1000 3>&- & echo $! >&3; ${orphan} echo $$ >&3; exec 3>&-; sleep 1000`], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      env: { ...process.env, [marker.split('=')[0] as string]: marker.split('=')[1] },
    })
    const exited = once(child, 'exit')
    const tracked = trackChild(child, false, marker)
    let pids = ''
    const fd3 = child.stdio[3] as NodeJS.ReadableStream
    fd3.on('data', (d) => (pids += d))
    await once(fd3, 'end')
    const started = pids.trim().split('\n').map(Number)
    expect(started).toHaveLength(process.platform === 'linux' ? 3 : 2)
    await tracked.end(200)
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0)
      } catch {
        return false
      }
      if (process.platform !== 'linux') return true
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
    }
    await exited
    expect(started.filter(alive)).toEqual([])
  })
})
