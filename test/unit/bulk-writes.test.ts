// How a bulk run writes (issue 32): the lock of a row taken with one mkdir (takeLockQuick) and
// its compatibility with the lock of single commands (takeLock), records replaced in bursts
// (replaceJsonFiles), the run's journal stopping at its first failed write, and rows that step
// aside while they wait for the disk (Workers.aside).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { BulkJournal } from '../../src/cli/bulk/journal.js'
import { ASIDE_FACTOR, Workers } from '../../src/cli/bulk/workers.js'
import { replaceJsonFiles, writeJsonAtomic } from '../../src/config/atomic-file.js'
import { ConfigError } from '../../src/config/errors.js'
import { quickLocksRemoved, takeLock, takeLockQuick } from '../../src/config/op-lock.js'
import { newOperation, readOperation, serviceIdentity } from '../../src/config/operations.js'
import { makeTempConfigDir } from '../helpers/tmp-config.js'

let cleanup: (() => void) | undefined
afterEach(() => cleanup?.())

function tempDir(): string {
  const made = makeTempConfigDir()
  cleanup = made.cleanup
  return made.dir
}

const wait = { waitMs: 60_000, what: 'refund', onWait: () => undefined }

describe("a row's lock (takeLockQuick)", () => {
  it('is the folder a single command locks with: each waits for the other', async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-1.json')
    const quick = await takeLockQuick(file, wait)
    expect(quick.waited).toBe(false)
    expect(fs.statSync(`${file}.lock`).isDirectory()).toBe(true)
    // A single command finds it held, says so once, and gets it once the row releases it.
    let said = 0
    let free: (() => void) | undefined
    const single = takeLock(file, { ...wait, onWait: () => (said += 1), sleep: async () => free?.() })
    free = () => void quick.release().then(quickLocksRemoved)
    const got = await single
    expect(got.waited).toBe(true)
    expect(said).toBe(1)
    // A row finds the single command's lock held and waits for it the same way.
    let freed: (() => void) | undefined
    const row = takeLockQuick(file, { ...wait, sleep: async () => freed?.() })
    freed = () => void got.release()
    const next = await row
    expect(next.waited).toBe(true)
    await next.release()
  })

  it('is removed when released, and a lock left by a process that died is taken over', async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-2.json')
    const held = await takeLockQuick(file, wait)
    expect(held.lost()).toBeUndefined()
    await held.release()
    await quickLocksRemoved()
    expect(fs.existsSync(`${file}.lock`)).toBe(false)
    fs.mkdirSync(`${file}.lock`)
    const old = new Date(Date.now() - 60_000)
    fs.utimesSync(`${file}.lock`, old, old)
    const taken = await takeLockQuick(file, { ...wait, waitMs: 0 })
    expect(taken.lost()).toBeUndefined()
    await taken.release()
  })

  it('left by a process that died is taken over by one run: one that saw it stale but was slow to remove it then waits', async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-4.json')
    const folder = `${file}.lock`
    fs.mkdirSync(folder, { recursive: true })
    const old = new Date(Date.now() - 60_000)
    fs.utimesSync(folder, old, old)
    // The first taker's look at the folder (stale) is answered late, as to a process whose event loop is busy.
    const realStat = fs.stat
    let looked!: () => void
    const lookedAt = new Promise<void>((resolve) => (looked = resolve))
    let answer!: () => void
    const answered = new Promise<void>((resolve) => (answer = resolve))
    let slowed = false
    const spy = vi.spyOn(fs, 'stat').mockImplementation(((target: fs.PathLike, ...rest: unknown[]) => {
      const callback = rest.at(-1) as (error: NodeJS.ErrnoException | null, stats?: fs.Stats) => void
      if (slowed || String(target) !== folder) return (realStat as (...args: unknown[]) => void)(target, ...rest)
      slowed = true
      realStat(target, (error, stats) => {
        looked()
        void answered.then(() => callback(error, stats))
      })
    }) as typeof fs.stat)
    let waits!: () => void
    const waiting = new Promise<string>((resolve) => (waits = () => resolve('waited')))
    let free!: () => void
    const freed = new Promise<void>((resolve) => (free = resolve))
    try {
      const slow = takeLock(file, { ...wait, onWait: waits, sleep: () => freed })
      await lookedAt
      const fast = await takeLock(file, wait)
      answer()
      expect(await Promise.race([waiting, slow.then(() => 'took the lock held by another')])).toBe('waited')
      expect(fast.lost()).toBeUndefined()
      await fast.release()
      free()
      const then = await slow
      expect(then.lost()).toBeUndefined()
      await then.release()
    } finally {
      spy.mockRestore()
    }
  })

  it("made anew by another run is no longer held, and its release leaves the other run's folder", async () => {
    const file = path.join(tempDir(), 'operations', 'x', 'refund-3.json')
    const held = await takeLockQuick(file, wait)
    fs.rmdirSync(`${file}.lock`)
    fs.mkdirSync(`${file}.lock`)
    expect(held.lost()).toMatch(/taken over/)
    await held.release()
    await quickLocksRemoved()
    expect(fs.existsSync(`${file}.lock`)).toBe(true)
  })
})

describe('records replaced in a burst (replaceJsonFiles)', () => {
  it('writes each file whole, 0600, and leaves no temporary file', async () => {
    const dir = path.join(tempDir(), 'operations', 'x')
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    fs.writeFileSync(path.join(dir, 'b.json'), '{"old":true}\n', { mode: 0o600 })
    await replaceJsonFiles([
      { file: path.join(dir, 'a.json'), value: { a: 1 } },
      { file: path.join(dir, 'b.json'), value: { b: 2 } },
    ])
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'a.json'), 'utf8'))).toEqual({ a: 1 })
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'b.json'), 'utf8'))).toEqual({ b: 2 })
    expect(fs.statSync(path.join(dir, 'a.json')).mode & 0o777).toBe(0o600)
    expect(fs.readdirSync(dir).sort()).toEqual(['a.json', 'b.json'])
  })

  it('writes each file whole when the disk takes a write in parts (a disk almost full), as writeJsonAtomic does', async () => {
    const dir = path.join(tempDir(), 'operations', 'x')
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    fs.writeFileSync(path.join(dir, 'e.json'), '{"old":true}\n', { mode: 0o600 })
    const real = fs.writeSync
    // write(2) may take part of a buffer without an error: at most 8 bytes a call here.
    const partial = vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
      const from = typeof rest[0] === 'number' ? rest[0] : 0
      const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      const length = typeof rest[1] === 'number' ? rest[1] : bytes.length - from
      return real(fd, bytes, from, Math.min(8, length))
    }) as typeof fs.writeSync)
    try {
      await replaceJsonFiles([{ file: path.join(dir, 'e.json'), value: { e: 'x'.repeat(100) } }])
      writeJsonAtomic(path.join(dir, 'f.json'), { f: 'y'.repeat(100) })
    } finally {
      partial.mockRestore()
    }
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'e.json'), 'utf8'))).toEqual({ e: 'x'.repeat(100) })
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'f.json'), 'utf8'))).toEqual({ f: 'y'.repeat(100) })
  })

  it('fails when one cannot be renamed into place, and leaves no temporary file behind', async () => {
    const dir = path.join(tempDir(), 'operations', 'x')
    fs.mkdirSync(path.join(dir, 'c.json', 'in-the-way'), { recursive: true })
    await expect(
      replaceJsonFiles([
        { file: path.join(dir, 'c.json'), value: { c: 3 } },
        { file: path.join(dir, 'd.json'), value: { d: 4 } },
      ]),
    ).rejects.toThrow()
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})

describe("a bulk run's journal", () => {
  it('has an intent on disk, line and record, when its writes resolve; once a write fails, every later one fails without writing', async () => {
    const configDir = tempDir()
    const identity = serviceIdentity('http://127.0.0.1:4010', { party: 'merchant:mcht_test' })
    const folder = path.join(configDir, 'operations', identity.id)
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 })
    const file = path.join(folder, 'bulk-transactions-refund-0123.jsonl')
    const journal = await BulkJournal.open(file, configDir, identity, '0123456789abcdef0123456789abcdef')
    const key = { kind: 'refund', target: 'tran_1', amount: { minorCurrencyUnits: 100, currency: 'AUD' } }
    const words = { action: 'refund of 1.00 AUD on transaction tran_1', check: 'payfac transactions get tran_1' }
    const record = path.join(folder, 'refund-1.json')
    // A row's intent: its line and its operation's record, written together (one burst).
    await Promise.all([
      journal.append({ ...newOperation(identity, { ...key, reference: '|bulk 0123:2' }, words, { refundedAmount: 0 }, 0), line: 2 }),
      journal.writeRecord(record, newOperation(identity, key, words, { refundedAmount: 0 }, 0), { durable: true }),
    ])
    expect(fs.readFileSync(file, 'utf8')).toMatch(/"line":2/)
    expect(readOperation(record)?.state).toBe('sending')

    // The records' folder cannot take a file any more (here: a file where a record's folder was).
    const elsewhere = path.join(configDir, 'operations', 'gone')
    fs.writeFileSync(elsewhere, 'not a folder')
    const failing = journal.writeRecord(path.join(elsewhere, 'refund-2.json'), newOperation(identity, { ...key, target: 'tran_2' }, words, undefined, 0), {
      durable: true,
    })
    await expect(failing).rejects.toBeInstanceOf(ConfigError)
    const before = fs.readFileSync(file, 'utf8')
    await expect(journal.append({ ...newOperation(identity, key, words, undefined, 0), line: 4 })).rejects.toBeInstanceOf(ConfigError)
    expect(fs.readFileSync(file, 'utf8')).toBe(before)
    await journal.close()
  })
})

describe("a bulk run's temporary files", () => {
  it('left by a run killed mid-burst are removed by the next run that writes records in their folder; a live run keeps its own', async () => {
    const configDir = tempDir()
    const identity = serviceIdentity('http://127.0.0.1:4010', { party: 'merchant:mcht_test' })
    const folder = path.join(configDir, 'operations', identity.id)
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 })
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number
    const old = new Date(Date.now() - 60_000)
    const left = path.join(folder, `.refund-9.json.${dead}.0a1b2c3d5.tmp`)
    const live = path.join(folder, `.refund-8.json.${process.pid}.0a1b2c3d6.tmp`)
    for (const temp of [left, live]) {
      fs.writeFileSync(temp, '{', { mode: 0o600 })
      fs.utimesSync(temp, old, old)
    }
    const journal = await BulkJournal.open(path.join(folder, 'bulk-transactions-refund-0456.jsonl'), configDir, identity, '0456')
    const key = { kind: 'refund', target: 'tran_1', amount: { minorCurrencyUnits: 100, currency: 'AUD' } }
    const words = { action: 'refund of 1.00 AUD on transaction tran_1', check: 'payfac transactions get tran_1' }
    await journal.writeRecord(path.join(folder, 'refund-1.json'), newOperation(identity, key, words, undefined, 0), { durable: true })
    await journal.close()
    expect(fs.existsSync(left)).toBe(false)
    expect(fs.existsSync(live)).toBe(true)
  })
})

describe('rows that wait for the disk (Workers.aside)', () => {
  it('give their place to another row meanwhile, and get it back before any new row', async () => {
    const workers = new Workers(1)
    const order: string[] = []
    let disk: (() => void) | undefined
    const diskDone = new Promise<void>((resolve) => (disk = resolve))
    let secondStarted: (() => void) | undefined
    const started = new Promise<void>((resolve) => (secondStarted = resolve))
    let letSecondFinish: (() => void) | undefined
    const secondMayFinish = new Promise<void>((resolve) => (letSecondFinish = resolve))
    await workers.submit(async () => {
      order.push('first: sends')
      await workers.aside(diskDone)
      order.push('first: back')
    })
    await workers.submit(async () => {
      order.push('second: sends')
      secondStarted?.()
      await secondMayFinish
      order.push('second: done')
    })
    await started
    // A third row waits for a place; the first, back from the disk, is served before it.
    const third = workers.submit(async () => {
      order.push('third: sends')
    })
    disk?.()
    letSecondFinish?.()
    await third
    await workers.drain()
    expect(order).toEqual(['first: sends', 'second: sends', 'second: done', 'first: back', 'third: sends'])
  })

  it("wait for an operation's lock without a place, so a row that holds the lock and steps aside can come back (no deadlock)", async () => {
    const workers = new Workers(1)
    let lockFree: (() => void) | undefined
    const lock = new Promise<void>((resolve) => (lockFree = resolve))
    let disk: (() => void) | undefined
    const diskDone = new Promise<void>((resolve) => (disk = resolve))
    const order: string[] = []
    // The first row holds the lock and waits for the disk aside.
    await workers.submit(async () => {
      order.push('first: holds the lock')
      await workers.aside(diskDone)
      order.push('first: back, releases the lock')
      lockFree?.()
    })
    // The second row, of the same operation, waits for that lock without holding the only place.
    let waiting: (() => void) | undefined
    const isWaiting = new Promise<void>((resolve) => (waiting = resolve))
    await workers.submit(async () => {
      const back = workers.leave()
      waiting?.()
      await lock
      await back()
      order.push('second: has the lock')
    })
    await isWaiting
    disk?.()
    await workers.drain()
    expect(order).toEqual(['first: holds the lock', 'first: back, releases the lock', 'second: has the lock'])
  })

  it(`start at most ${ASIDE_FACTOR} times --concurrency rows at once`, async () => {
    const workers = new Workers(2)
    const releases: Array<() => void> = []
    let started = 0
    const blocked = new Promise<void>((resolve) => releases.push(resolve))
    const submitting = (async () => {
      for (let n = 0; n < ASIDE_FACTOR * 2 + 1; n++) {
        await workers.submit(async () => {
          started++
          await workers.aside(blocked)
        })
      }
    })()
    // Every row started steps aside at once; the last one waits for a row to finish.
    while (started < ASIDE_FACTOR * 2) await new Promise((resolve) => setImmediate(resolve))
    await new Promise((resolve) => setImmediate(resolve))
    expect(started).toBe(ASIDE_FACTOR * 2)
    for (const release of releases) release()
    await submitting
    await workers.drain()
    expect(started).toBe(ASIDE_FACTOR * 2 + 1)
  })
})
