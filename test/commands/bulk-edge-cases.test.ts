// Adversarial checks of `--from-file` (src/cli/bulk): the promise is that a row moves money at
// most once, also when the same operation appears twice in one file, in two files, or was made
// by a single command first, and when two processes run at once. payfac is spawned (bin/run.js)
// against an emulator in this process.
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { useBulkEnv } from '../helpers/bulk-env.js'
import { gateProxy } from '../helpers/gate-proxy.js'
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const bulk = useBulkEnv('bulk-adv')
const { payfac, call, control, paid, csv, refundsOf } = bulk

const patches = () => bulk.ctx.emulator.app.namespaces.root.requests.last(5000).filter((r: { method: string }) => r.method === 'PATCH').length

const payoutsWith = (description: string) => [...bulk.ctx.emulator.app.store.payouts.values()].filter((p: any) => p.description === description).length

describe('the same operation twice', () => {
  it('a refund row repeated within one file, both in flight at once, refunds once; the repeat is refused (exit 6)', async () => {
    const [id] = await paid(1)
    const file = csv('twice.csv', ['transactionId,amount,currency', `${id},1.00,AUD`, `${id},1.00,AUD`])
    await control('POST', '/faults', { method: 'PATCH', pathPattern: '/transactions/*', fault: 'latency=300' })
    const result = await payfac('transactions', 'refund', '--from-file', file, '--concurrency', '4')
    expect(refundsOf([id as string])).toEqual([1])
    expect(result.code, result.stderr).toBe(6)
    expect(result.stdout).toMatch(/\n3,failed,,exit-6,.*identical refund/)
  })

  it('refunds repeated on two lines each, one row in flight at a time, finish (the repeat waits for the lock without holding the place)', async () => {
    const ids = (await paid(3)) as string[]
    const file = csv('pairs.csv', ['transactionId,amount,currency', ...ids.flatMap((id) => [`${id},1.50,AUD`, `${id},1.50,AUD`])])
    const result = await payfac('transactions', 'refund', '--from-file', file, '--concurrency', '1')
    expect(refundsOf(ids)).toEqual([1, 1, 1])
    expect(result.code, result.stderr).toBe(6)
    expect(result.stderr).toContain('3 done, 0 skipped (done before), 3 failed, 0 unknown of 6 rows')
  })

  it('the same refund in two files run by two processes at once (witness off) refunds once', async () => {
    const [id] = await paid(1)
    const a = csv('two-a.csv', ['transactionId,amount,currency,repeat-window', `${id},2.00,AUD,0`])
    const b = csv('two-b.csv', ['transactionId,currency,amount,repeat-window', `${id},AUD,2.00,0`])
    await control('POST', '/faults', { method: 'PATCH', pathPattern: '/transactions/*', fault: 'latency=300' })
    const [ra, rb] = await Promise.all([payfac('transactions', 'refund', '--from-file', a), payfac('transactions', 'refund', '--from-file', b)])
    expect(refundsOf([id as string])).toEqual([1])
    expect([ra.code, rb.code].sort()).toEqual([0, 6])
  })

  it('the same payout in two files run by two processes at once (witness off) is paid out once', async () => {
    await call('POST', '/simulation', {
      IncomingBankTransfer: { merchantId: bulk.ctx.emulator.ids.merchantId, amount: { minorCurrencyUnits: 50000, currency: 'AUD' } },
    })
    const description = `adv-payout-${Date.now()}`
    const a = csv('payout-a.csv', ['amount,currency,description,repeat-window', `7.00,AUD,${description},0`])
    const b = csv('payout-b.csv', ['description,amount,currency,repeat-window', `${description},7.00,AUD,0`])
    await control('POST', '/faults', { method: 'POST', pathPattern: '/transactions/payouts', fault: 'latency=300' })
    const [ra, rb] = await Promise.all([payfac('payouts', 'request', '--from-file', a), payfac('payouts', 'request', '--from-file', b)])
    expect(payoutsWith(description)).toBe(1)
    expect([ra.code, rb.code].sort()).toEqual([0, 6])
  })
})

/** The operation records (`<config>/operations/<scope>/refund-*.json`) that name `id`, with their state. */
function refundRecords(id: string): Array<{ file: string; state: string }> {
  const root = join(bulk.ctx.env.PAYFAC_CONFIG_DIR as string, 'operations')
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((e) => /refund-[^/]*\.json$/.test(e))
    .map((e) => ({ file: join(root, e), text: readFileSync(join(root, e), 'utf8') }))
    .filter((r) => r.text.includes(id))
    .map((r) => ({ file: r.file, state: JSON.parse(r.text).state }))
}

/** Resolves once `ready()` holds (the run's own writes), or fails once `run` has ended first. */
async function until(ready: () => boolean, run: Promise<unknown>): Promise<void> {
  let ended = false
  void run.finally(() => (ended = true))
  while (!ready()) {
    if (ended) throw new Error('the run ended before the state the test waits for')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('a row whose lock is lost while it waits', () => {
  it('for a place after its intent is on disk sends nothing (unknown, exit 7); the single command that took the lock over refunds once', async () => {
    const ids = (await paid(2)) as string[]
    const file = csv('lost-after-intent.csv', ['transactionId,amount,currency', ...ids.map((id) => `${id},1.00,AUD`)])
    let first = ''
    // The first refund is held; the single command's (the same service, through the proxy) goes through.
    const proxy = await gateProxy(bulk.ctx.emulator.url, (method, path) => {
      if (method !== 'PATCH') return false
      first ||= path
      return path === first
    })
    try {
      const env = { ...bulk.ctx.env, PAYFAC_BASE_URL: proxy.url }
      // One place: the row sent first holds it at the gate; the other has passed its checks and
      // written its intent, and waits for the place.
      const run = spawnCli(['transactions', 'refund', '--from-file', file, '--concurrency', '1'], { env, timeoutMs: 60_000 })
      await proxy.held
      const other = ids.find((id) => !first.includes(id)) as string
      await until(() => refundRecords(other).some((r) => r.state === 'sending'), run)
      // As a run paused past the locks' stale time finds them: taken over by another payfac,
      // which looks the intent up (not on the service), refunds, and releases.
      const [record] = refundRecords(other)
      rmdirSync(`${record?.file}.lock`)
      const single = await spawnCli(['transactions', 'refund', other, '--amount', '1.00', '--currency', 'AUD'], { env, timeoutMs: 30_000 })
      expect(single.code, single.stderr).toBe(0)
      expect(single.stderr).toContain('The service shows it did not happen; sending it now.')
      proxy.open()
      const result = await run
      expect(refundsOf(ids)).toEqual([1, 1])
      expect(result.code, result.stderr).toBe(7)
      expect(result.stderr).toContain('may no longer hold the lock')
      expect(result.stderr).toContain('Run the same command again with the same file')
    } finally {
      await proxy.close()
    }
  })
})

describe('a journal that cannot be written', () => {
  it('after a request whose answer was lost leaves the row unknown (exit 7), never failed', async () => {
    const [id] = (await paid(1)) as string[]
    const file = csv('lost-then-unwritable.csv', ['transactionId,amount,currency', `${id},1.00,AUD`])
    const proxy = await gateProxy(bulk.ctx.emulator.url, (method) => method === 'PATCH')
    try {
      const run = spawnCli(['transactions', 'refund', '--from-file', file], { env: { ...bulk.ctx.env, PAYFAC_BASE_URL: proxy.url }, timeoutMs: 60_000 })
      await proxy.held
      // The intent is on disk; its record can no longer be replaced (a folder where it was), and the answer is lost.
      const [record] = refundRecords(id as string)
      rmSync(record?.file as string)
      mkdirSync(record?.file as string)
      await control('POST', '/faults', { method: 'PATCH', pathPattern: '/transactions/*', fault: 'drop-after-commit' })
      proxy.open()
      const result = await run
      rmdirSync(record?.file as string)
      expect(refundsOf([id as string])).toEqual([1])
      expect(result.stdout).toMatch(/\n2,unknown,/)
      expect(result.code, result.stderr).toBe(7)
    } finally {
      await proxy.close()
    }
  })
})

describe('results that can no longer be written', () => {
  it('stop the run without a stack trace: the rows in flight finish and are journaled, no row more is sent, and a re-run sends only the rest', async () => {
    const ids = (await paid(40)) as string[]
    const file = csv('results-gone.csv', ['transactionId,amount,currency', ...ids.map((id) => `${id},1.00,AUD`)])
    // FILE.partial is a FIFO whose reader goes away once it has the header: every row's result fails to be written (EPIPE).
    const out = join(bulk.files, 'results-gone.csv.out')
    execFileSync('mkfifo', ['-m', '600', `${out}.partial`])
    const fd = openSync(`${out}.partial`, constants.O_RDONLY | constants.O_NONBLOCK)
    await control('POST', '/faults', { method: 'PATCH', pathPattern: '/transactions/*', fault: 'latency=50' })
    const run = payfac('transactions', 'refund', '--from-file', file, '--concurrency', '4', '--out', out)
    let seen = ''
    const chunk = Buffer.alloc(4096)
    await until(() => {
      try {
        seen += chunk.toString('utf8', 0, readSync(fd, chunk))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
      }
      return seen.includes('\n')
    }, run)
    closeSync(fd)
    const first = await run
    // The reader went away, as with `| head`: its choice (exit 0); a full disk is exit 1, `Could not write the results to …`.
    expect(first.signal, first.stderr).toBeNull()
    expect(first.stderr).toMatch(/Stopped: \d+ done, .* \(\d+ not started\)/)
    expect(first.stderr).not.toMatch(/\n\s+at /)
    // At most four times --concurrency rows were started when the first result failed.
    const sent = refundsOf(ids).filter((n) => n === 1).length
    expect(sent).toBeLessThan(ids.length)
    rmSync(`${out}.partial`)
    const again = await payfac('transactions', 'refund', '--from-file', file, '--concurrency', '4')
    expect(again.code, again.stderr).toBe(0)
    // The rows in flight when the results went were journaled done: nothing to look up.
    expect(again.stderr).not.toContain('ended without an answer')
    expect(again.stderr).toContain(`${ids.length - sent} done, ${sent} skipped`)
    expect(refundsOf(ids)).toEqual(ids.map(() => 1))
  })
})

describe('lost answers', () => {
  for (const fault of ['commit-then-status=500', 'drop-after-commit']) {
    it(`a refund answered ${fault} is unknown (exit 7), never sent again; a re-run finds it on the service`, async () => {
      const ids = await paid(2)
      const file = csv(`lost-${fault.replace(/\W/g, '')}.csv`, ['transactionId,amount,currency', ...ids.map((id) => `${id},1.00,AUD`)])
      await control('POST', '/faults', { method: 'PATCH', pathPattern: '/transactions/*', fault })
      const before = patches()
      const first = await payfac('transactions', 'refund', '--from-file', file)
      expect(first.code, first.stderr).toBe(7)
      expect(
        first.stdout
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(',')[1]),
      ).toEqual(['unknown', 'unknown'])
      expect(patches() - before).toBe(2)
      await control('DELETE', '/faults')
      const again = await payfac('transactions', 'refund', '--from-file', file)
      expect(again.code, again.stderr).toBe(0)
      expect(
        again.stdout
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(',')[1]),
      ).toEqual(['skipped-already-done', 'skipped-already-done'])
      expect(patches() - before).toBe(2)
      expect(refundsOf(ids)).toEqual([1, 1])
    })
  }
})

describe('a hostile service', () => {
  let server: RecordingServer
  beforeAll(async () => {
    server = await startRecordingServer(() => ({
      status: 422,
      body: { statusCode: 422, errorCode: '@SUM(A1)', message: '=HYPERLINK("http://evil.example","x")' },
    }))
  })
  afterAll(() => server.close())

  it('cannot put a formula into the results CSV', async () => {
    const out = join(bulk.files, 'formula-results.csv')
    const file = csv('formula.csv', ['email,given-name', 'jo@example.com,Jo'])
    const env = { ...bulk.ctx.env, PAYFAC_BASE_URL: server.url, PAYFAC_MERCHANT_ID: 'mcht_HostileMerchant01' }
    const result = await spawnCli(['customers', 'upsert', '--from-file', file, '--out', out], { env, timeoutMs: 30_000 })
    expect(result.code, result.stderr).toBe(6)
    const row = readFileSync(out, 'utf8').trim().split('\n')[1] as string
    expect(row).toContain(",'@SUM(A1),")
    expect(row).toMatch(/,"?'=HYPERLINK/)
  })
})

describe('the results file', () => {
  it('is never written through a symlink left at FILE.partial: exit 2, nothing sent, the target untouched', async () => {
    const [id] = await paid(1)
    const victim = join(bulk.files, 'victim.txt')
    writeFileSync(victim, 'keep me\n')
    const out = join(bulk.files, 'linked-results.csv')
    symlinkSync(victim, `${out}.partial`)
    const before = patches()
    const result = await payfac('transactions', 'refund', '--from-file', csv('linked.csv', ['transactionId,amount,currency', `${id},1.00,AUD`]), '--out', out)
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toContain('is a symlink')
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n')
    expect(patches()).toBe(before)
    expect(refundsOf([id as string])).toEqual([0])
  })
})

describe('JSON Lines', () => {
  it('refuses a JSON number amount with more digits than a double holds exactly (exit 2, nothing sent)', async () => {
    const [id] = await paid(1)
    const file = join(bulk.files, 'digits.jsonl')
    writeFileSync(
      file,
      `{"transactionId": "${id}", "amount": 1.00, "currency": "AUD"}\n{"transactionId": "${id}", "amount": 90071992547409.91, "currency": "AUD"}\n`,
    )
    const before = patches()
    const result = await payfac('transactions', 'refund', '--from-file', file)
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toContain('line 2: the number 90071992547409.91 has more digits than a JSON number holds exactly')
    expect(patches()).toBe(before)
  })

  it('reads a file that starts with a byte-order mark', async () => {
    const [id] = await paid(1)
    const file = join(bulk.files, 'bom.jsonl')
    writeFileSync(file, `\ufeff{"transactionId": "${id}", "amount": "1.00", "currency": "AUD"}\r\n`)
    const result = await payfac('transactions', 'refund', '--from-file', file, '--dry-run')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain('Checked 1 row')
  })
})

describe('the journal fails closed', () => {
  it('a journal damaged in the middle, or its folder writable by others, is exit 3 and nothing is sent', async () => {
    const ids = await paid(2)
    const file = csv('damaged.csv', ['transactionId,amount,currency', `${ids[0]},1.00,AUD`])
    expect((await payfac('transactions', 'refund', '--from-file', file)).code).toBe(0)
    const root = join(bulk.ctx.env.PAYFAC_CONFIG_DIR as string, 'operations')
    const journal = (readdirSync(root, { recursive: true }) as string[]).find(
      (e) => /bulk-transactions-refund-.*\.jsonl$/.test(e) && readFileSync(join(root, e), 'utf8').includes(ids[0] as string),
    ) as string
    const lines = readFileSync(join(root, journal), 'utf8').split('\n')
    writeFileSync(join(root, journal), [lines[0]?.slice(0, 20), ...lines.slice(1)].join('\n'))
    const before = patches()
    const damaged = await payfac('transactions', 'refund', '--from-file', file)
    expect(damaged.code, damaged.stderr).toBe(3)
    expect(damaged.stderr).toContain('is damaged: line 1 is not a record payfac wrote')
    const other = csv('exposed.csv', ['transactionId,amount,currency', `${ids[1]},1.00,AUD`])
    const folder = dirname(join(root, journal))
    chmodSync(folder, 0o777)
    try {
      const exposed = await payfac('transactions', 'refund', '--from-file', other)
      expect(exposed.code, exposed.stderr).toBe(3)
    } finally {
      chmodSync(folder, 0o700)
    }
    expect(patches()).toBe(before)
    expect(refundsOf(ids)).toEqual([1, 0])
  })
})

describe('a row longer than any row of flags', () => {
  it('is exit 2 naming its line, for CSV and for JSON Lines, with nothing sent and memory bounded', async () => {
    const huge = 'x'.repeat(2 * 1024 * 1024)
    const asCsv = csv('huge.csv', ['transactionId,amount,currency', `tran_a,1.00,AUD`, `tran_b,"${huge}",AUD`])
    const fromCsv = await payfac('transactions', 'refund', '--from-file', asCsv)
    expect(fromCsv.code, fromCsv.stderr).toBe(2)
    expect(fromCsv.stderr).toMatch(/huge\.csv line 3: not CSV payfac can read \(.*max record size/i)
    const asJsonl = join(bulk.files, 'huge.jsonl')
    writeFileSync(asJsonl, `{"transactionId":"tran_a","amount":"1.00","currency":"AUD"}\n{"transactionId":"tran_b","amount":"${huge}","currency":"AUD"}\n`)
    const fromJsonl = await payfac('transactions', 'refund', '--from-file', asJsonl)
    expect(fromJsonl.code, fromJsonl.stderr).toBe(2)
    expect(fromJsonl.stderr).toContain('line 2: a line longer than 1 MiB')
    expect(fromJsonl.stderr).not.toMatch(/\n\s+at /)
  })
})
