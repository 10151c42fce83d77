// The --out writer: what it does with each kind of name (regular file, symbolic link, FIFO,
// folder), the mode it keeps, the stale temporary files it removes, and the errors it gives.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'

import { UsageError } from '../../src/cli/errors/index.js'
import { describeError } from '../../src/cli/errors/exit-codes.js'
import { checkOutPath } from '../../src/cli/flags/out.js'
import { outError, removeStaleParts, saveStream, STALE_PART_MS } from '../../src/cli/files/out-file.js'
import { OutputClosedError, WriteError } from '../../src/output/sink.js'

const root = mkdtempSync(join(tmpdir(), 'payfac-outfile-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let count = 0
const folder = () => {
  const dir = join(root, `d${++count}`)
  mkdirSync(dir)
  return dir
}
const source = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)))
const parts = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.part'))
const errno = (code: string) => Object.assign(new Error(`${code}: failed, write`), { code, syscall: 'write' })

/** A destination that takes the first chunk and fails the next with `code`. */
const failingAfterOne = (code: string) => () => {
  let seen = 0
  return new Writable({
    write(_chunk, _encoding, callback) {
      seen += 1
      callback(seen > 1 ? errno(code) : undefined)
    },
  })
}

describe('a regular file', () => {
  it('is created with the mode any new file gets (0666 less the umask)', async () => {
    const dir = folder()
    writeFileSync(join(dir, 'reference'), '')
    expect(await saveStream(source('a,b\n', '1,2\n'), join(dir, 'new.csv'))).toBe(8)
    expect(readFileSync(join(dir, 'new.csv'), 'utf8')).toBe('a,b\n1,2\n')
    expect(statSync(join(dir, 'new.csv')).mode & 0o777).toBe(statSync(join(dir, 'reference')).mode & 0o777)
    expect(parts(dir)).toEqual([])
  })

  it('is replaced by a new file (another inode) that keeps its mode 0640', async () => {
    const dir = folder()
    const file = join(dir, 'report.csv')
    writeFileSync(file, 'old')
    chmodSync(file, 0o640)
    const before = statSync(file).ino
    await saveStream(source('new'), file)
    expect(readFileSync(file, 'utf8')).toBe('new')
    expect(statSync(file).mode & 0o777).toBe(0o640)
    expect(statSync(file).ino).not.toBe(before)
    expect(parts(dir)).toEqual([])
  })

  it('reached through a symbolic link: the target is replaced, the link stays a link', async () => {
    const links = folder()
    const targets = folder()
    const target = join(targets, 'real.csv')
    writeFileSync(target, 'old')
    chmodSync(target, 0o640)
    const link = join(links, 'link.csv')
    symlinkSync(target, link)
    await saveStream(source('through the link'), link)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readlinkSync(link)).toBe(target)
    expect(readFileSync(target, 'utf8')).toBe('through the link')
    expect(statSync(target).mode & 0o777).toBe(0o640)
    expect([...parts(links), ...parts(targets)]).toEqual([])
  })

  it('a dangling link creates its target', async () => {
    const dir = folder()
    symlinkSync('made.csv', join(dir, 'link.csv'))
    await saveStream(source('x'), join(dir, 'link.csv'))
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(dir, 'made.csv'), 'utf8')).toBe('x')
  })
})

describe('disk errors', () => {
  it('ENOSPC: one plain line (exit 1, not "a bug"), the old file untouched, no temporary file left', async () => {
    const dir = folder()
    const file = join(dir, 'report.csv')
    writeFileSync(file, 'old')
    const failure = await saveStream(source('first', 'second'), file, { destination: failingAfterOne('ENOSPC') }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(WriteError)
    expect(readFileSync(file, 'utf8')).toBe('old')
    expect(parts(dir)).toEqual([])
    const report = describeError(failure)
    expect(report.code).toBe(1)
    expect(report.message).toBe(`Could not write ${file}: no space left on the device (ENOSPC); nothing was saved under ${file}`)
    expect(report.hint).toBeUndefined()
    expect(report.json).toMatchObject({ type: 'WriteError', errno: 'ENOSPC' })
  })

  it.each(['EDQUOT', 'EIO', 'EFBIG'])('%s is a WriteError too, and a new file is not created', async (code) => {
    const dir = folder()
    const failure = await saveStream(source('a', 'b'), join(dir, 'new.csv'), { destination: failingAfterOne(code) }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(WriteError)
    expect(describeError(failure).message).toContain(`(${code})`)
    expect(readdirSync(dir)).toEqual([])
  })

  it('a file system that refuses (EROFS, EACCES, EPERM) is a usage error, exit 2', () => {
    for (const code of ['EROFS', 'EACCES', 'EPERM']) {
      const error = outError(errno(code), 'x.csv', false)
      expect(error).toBeInstanceOf(UsageError)
      expect(describeError(error).code).toBe(2)
    }
  })

  it("a source's own failure is passed on as it is", () => {
    const network = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
    expect(outError(network, 'x.csv', false)).toBe(network)
  })
})

describe('stale temporary files', () => {
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number

  it('of a process that no longer runs are removed by the next write, once a few seconds old', async () => {
    const dir = folder()
    const dead = deadPid()
    const old = new Date(Date.now() - 2 * STALE_PART_MS)
    const stale = join(dir, `.out.csv.${dead}.1a2b3c4d.part`)
    const fresh = join(dir, `.out.csv.${dead}.5e6f7a8b.part`)
    const alive = join(dir, `.out.csv.${process.pid}.9c0d1e2f.part`)
    const otherName = join(dir, `.other.csv.${dead}.1a2b3c4d.part`)
    for (const file of [stale, fresh, alive, otherName]) writeFileSync(file, 'partial')
    for (const file of [stale, alive, otherName]) utimesSync(file, old, old)
    await saveStream(source('done'), join(dir, 'out.csv'))
    expect(existsSync(stale)).toBe(false)
    // A dead writer's file changed just now, one of a running process, and another name's: kept.
    expect([fresh, alive, otherName].map(existsSync)).toEqual([true, true, true])
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe('done')
  })

  it('the age is judged by the clock given', () => {
    const dir = folder()
    const file = join(dir, `.a.csv.${deadPid()}.00ff.part`)
    writeFileSync(file, '')
    const mtime = statSync(file).mtimeMs
    expect(removeStaleParts(dir, 'a.csv', mtime + STALE_PART_MS - 1)).toEqual([])
    expect(removeStaleParts(dir, 'a.csv', mtime + STALE_PART_MS)).toEqual([file])
  })
})

describe('a FIFO', () => {
  const fifo = () => {
    const path = join(folder(), 'pipe')
    execFileSync('mkfifo', [path])
    return path
  }
  const reader = (path: string, command: string, args: string[] = []) => {
    const child = spawn(command, [...args, path], { stdio: ['ignore', 'pipe', 'inherit'] })
    const out: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    return new Promise<string>((resolve) => child.on('close', () => resolve(Buffer.concat(out).toString('utf8'))))
  }

  it('is written in place once a reader comes, and stays a FIFO', async () => {
    const path = fifo()
    let read: Promise<string> | undefined
    // The reader starts only once the writer says it waits: the wait does not block the process.
    const written = saveStream(source('line 1\n', 'line 2\n'), path, { onWaiting: () => (read = reader(path, 'cat')) })
    expect(await written).toBe(14)
    expect(await read).toBe('line 1\nline 2\n')
    expect(statSync(path).isFIFO()).toBe(true)
    expect(parts(join(path, '..'))).toEqual([])
  })

  it('whose reader leaves early ends as a closed output (exit 0), as `| head` on stdout', async () => {
    const path = fifo()
    const big = Buffer.alloc(1024 * 1024, 97).toString()
    const read = reader(path, 'head', ['-c', '10'])
    const failure = await saveStream(source(big, big, big, big), path, { onWaiting: () => undefined }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(OutputClosedError)
    expect(describeError(failure).code).toBe(0)
    expect(await read).toBe('aaaaaaaaaa')
  })
})

describe('names refused before anything is sent (exit 2)', () => {
  it('a folder, directly or through a link', async () => {
    const dir = folder()
    symlinkSync(dir, join(root, `link-to-d${count}`))
    expect(() => checkOutPath(dir)).toThrow(/is a folder/)
    expect(() => checkOutPath(join(root, `link-to-d${count}`))).toThrow(/is a folder/)
    await expect(saveStream(source('x'), dir)).rejects.toThrow(UsageError)
  })

  // root may write any file its mode makes read-only, so as root (CI's containers) the file is
  // made immutable too (chattr +i), which root may not write either.
  it('a read-only file is not replaced behind its owner’s back', () => {
    const file = join(folder(), 'locked.csv')
    writeFileSync(file, 'x')
    chmodSync(file, 0o444)
    const root = process.getuid?.() === 0
    if (root) execFileSync('chattr', ['+i', file])
    try {
      expect(() => checkOutPath(file)).toThrow(/is read-only/)
    } finally {
      if (root) execFileSync('chattr', ['-i', file])
    }
  })

  it('a FIFO and /dev/stdout are accepted (written in place)', () => {
    const path = join(folder(), 'pipe')
    execFileSync('mkfifo', [path])
    expect(checkOutPath(path)).toBe(path)
    expect(checkOutPath('/dev/stdout')).toBe('/dev/stdout')
  })
})
