// The `--out` writer. What it does depends on what the name is (out-target.ts):
// - a regular file (new, or reached through symbolic links) is replaced atomically: the data goes
//   to a temporary file beside it (`.NAME.PID.RANDOM.part`), which is fsync'ed, given the old
//   file's mode (and owner, where allowed), renamed over it, and the folder fsync'ed; a new file
//   gets 0666 less the umask, as any new file. A failure or a signal removes the temporary file,
//   so nothing partial is ever left under the final name.
// - a FIFO, a device, or stdout/stderr by name is written in place: never replaced, no temporary
//   file. A FIFO with no reader is waited for without blocking the process (opened non-blocking
//   and tried again), so Ctrl-C and SIGTERM still end it.
// - temporary files of the same name left by a process that no longer runs (kill -9) are removed
//   by the next write into that folder.
// A full disk, a quota or an I/O error is a WriteError (one line, exit 1); a file system that
// refuses (read-only, permissions) a UsageError (exit 2); a FIFO whose reader left, like a closed
// stdout, OutputClosedError (exit 0).
import { closeSync, constants, createWriteStream, fsyncSync, openSync, readdirSync, rmSync, statSync } from 'node:fs'
import { type FileHandle, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

import { DISK_FAILURES, OutputClosedError, WriteError, errnoCode, stdoutFailureOf, writeFailureWords } from '../../output/sink.js'
import { UsageError } from '../errors/index.js'
import { type OutTarget, outTarget, plainFileTarget } from './out-target.js'
import { byteProgress } from '../runtime/progress.js'
import { addCleanup } from '../runtime/signals.js'

/** A temporary file is stale once its process is gone and it has not changed for this long. */
export const STALE_PART_MS = 5_000

export interface SaveOptions {
  /** Where the bytes go once the file is open (tests put a failing stream here). */
  destination?: (fd: number) => Writable
  /** Called once while a FIFO has no reader (the default says so on stderr). */
  onWaiting?: (path: string) => void
  /** Current time, for the age of stale temporary files. */
  now?: () => number
  /** A name payfac made (out-target.ts plainFileTarget): a regular file or nothing, no link followed. */
  plainFile?: boolean
}

/** Writes a stream to `path` as described above; returns the number of bytes written. */
export async function saveStream(source: Readable, path: string, options: SaveOptions = {}): Promise<number> {
  let target: OutTarget
  try {
    target = options.plainFile ? plainFileTarget(path) : outTarget(path)
  } catch (error) {
    // Changed since the flag was checked (a folder now, say): the answer is not read.
    source.destroy()
    throw error
  }
  let bytes = 0
  const progress = byteProgress()
  source.on('data', (chunk: Buffer) => {
    bytes += chunk.length
    progress.add(chunk.length)
  })
  // Counting must not start the flow: nothing reads until the file (or the FIFO's reader) is there.
  source.pause()
  // A source may fail while its first bytes are buffered, before the pipeline below listens (a
  // checked download refusing what came): the pipeline still sees that error, since the stream is
  // left errored; this listener only keeps it from being thrown as an uncaught exception meanwhile.
  source.on('error', () => undefined)
  try {
    if (target.kind === 'file') await replaceFile(source, target, options)
    else await writeInPlace(source, target, options)
  } catch (error) {
    source.destroy()
    throw outError(error, path, target.kind !== 'file')
  } finally {
    progress.end()
  }
  return bytes
}

type FileTarget = Extract<OutTarget, { kind: 'file' }>

async function replaceFile(source: Readable, target: FileTarget, options: SaveOptions): Promise<void> {
  const folder = dirname(target.file)
  const name = basename(target.file)
  removeStaleParts(folder, name, options.now?.() ?? Date.now())
  const random = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(4))).toString('hex')
  const temporary = join(folder, `.${name}.${process.pid}.${random}.part`)
  const forget = addCleanup(() => rmSync(temporary, { force: true }))
  let handle: FileHandle | undefined
  try {
    // A new file: 0666 less the umask. A replaced one: private until it has the old mode.
    handle = await open(temporary, 'wx', target.existing ? 0o600 : 0o666)
    await pipeline(source, (options.destination ?? fileStream)(handle.fd))
    if (target.existing) await keepOwnerAndMode(handle, target.existing)
    await handle.sync()
    await handle.close()
    handle = undefined
    await rename(temporary, target.file)
    syncFolder(folder)
  } catch (error) {
    await handle?.close().catch(() => undefined)
    await rm(temporary, { force: true })
    throw error
  } finally {
    forget()
  }
}

async function keepOwnerAndMode(handle: FileHandle, old: { uid: number; gid: number; mode: number }): Promise<void> {
  // The owner first (changing it may clear set-id bits); refused unless root or the same owner.
  await handle.chown(old.uid, old.gid).catch(() => undefined)
  await handle.chmod(old.mode & 0o7777)
}

/** Makes the rename itself durable; some systems cannot fsync a folder, which is no reason to fail. */
function syncFolder(folder: string): void {
  let fd: number | undefined
  try {
    fd = openSync(folder, constants.O_RDONLY)
    fsyncSync(fd)
  } catch {
    // Not supported here (Windows) or not allowed: the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/**
 * Removes `.NAME.PID.*.part` files beside NAME whose process no longer runs and that have not
 * changed for STALE_PART_MS (the age keeps a writer on another machine sharing the folder safe).
 */
export function removeStaleParts(folder: string, name: string, now: number): string[] {
  const removed: string[] = []
  let entries: string[]
  try {
    entries = readdirSync(folder)
  } catch {
    return removed
  }
  const prefix = `.${name}.`
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.part')) continue
    const match = /^(\d+)\.[0-9a-z]+\.part$/.exec(entry.slice(prefix.length))
    if (!match || isRunning(Number(match[1]))) continue
    const file = join(folder, entry)
    try {
      const stats = statSync(file)
      if (!stats.isFile() || now - stats.mtimeMs < STALE_PART_MS) continue
      rmSync(file, { force: true })
      removed.push(file)
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  return removed
}

function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return errnoCode(error) !== 'ESRCH'
  }
}

async function writeInPlace(source: Readable, target: Exclude<OutTarget, FileTarget>, options: SaveOptions): Promise<void> {
  if (target.kind === 'descriptor') {
    const out = target.fd === 1 ? process.stdout : process.stderr
    await pipeline(source, out, { end: false }).catch((error: unknown) => {
      throw stdoutFailureOf(error, out)
    })
    return
  }
  if (target.kind === 'fifo') {
    const fd = await openFifo(target.path, options.onWaiting ?? waitingNote)
    // A socket over the non-blocking descriptor: writes wait on the event loop, never in a thread.
    const { Socket } = await import('node:net')
    const pipe = new Socket({ fd, readable: false, writable: true })
    await pipeline(source, pipe)
    return
  }
  const handle = await open(target.path, constants.O_WRONLY | constants.O_NOCTTY)
  try {
    await pipeline(source, (options.destination ?? fileStream)(handle.fd))
  } finally {
    await handle.close().catch(() => undefined)
  }
}

/**
 * Opens a FIFO for writing. A blocking open would hold one of libuv's threads until a reader
 * came, and the process could not even exit on a signal; a non-blocking open fails with ENXIO
 * while there is no reader, so it is tried again, every 10 ms up to every 200 ms.
 */
export async function openFifo(path: string, onWaiting: (path: string) => void): Promise<number> {
  let told = false
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    try {
      return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY)
    } catch (error) {
      if (errnoCode(error) !== 'ENXIO') throw error
    }
    if (!told) onWaiting(path)
    told = true
    await new Promise((resolve) => setTimeout(resolve, delay))
  }
}

function waitingNote(path: string): void {
  process.stderr.write(`Waiting for a reader of the FIFO ${path} (Ctrl-C to stop)...\n`)
}

function fileStream(fd: number): Writable {
  return createWriteStream('', { fd, autoClose: false })
}

/** The error to report for a failed write of `path`. */
export function outError(error: unknown, path: string, inPlace: boolean): unknown {
  if (error instanceof WriteError || error instanceof UsageError || error instanceof OutputClosedError) return error
  const code = errnoCode(error)
  if (code === undefined) return error
  // The FIFO's reader went away: its choice, as with `| head` on stdout.
  if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED') return new OutputClosedError()
  if (DISK_FAILURES.has(code)) {
    const left = inPlace ? '' : `; nothing was saved under ${path}`
    return new WriteError(`Could not write ${path}: ${writeFailureWords(error)}${left}`, path, error)
  }
  if (['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR', 'EISDIR', 'ENXIO', 'ELOOP', 'ENAMETOOLONG', 'ETXTBSY', 'EINVAL'].includes(code)) {
    return new UsageError(`--out: cannot write ${path}: ${writeFailureWords(error)}`, 'Choose a file you can write to')
  }
  return error
}
