// Reading what the user hands payfac by name or on stdin (`--data @FILE` and `-`, `--merchants
// @FILE`, `--ledger FILE`, a secret or a webhook body on stdin): always bounded, and every wait one
// that Ctrl-C and SIGTERM end.
//
// fs.readFile reads /dev/zero until memory runs out; and opening a FIFO that has no writer blocks a
// thread of libuv's pool, which process.exit() then waits for: the process said "Interrupted" and
// never ended. So a path is opened with O_NONBLOCK (a FIFO opens at once, writer or not), judged by
// what was opened (fstat, so a name swapped in between changes nothing), and read as a stream:
// - a regular file: refused at once when larger than the bound, else read;
// - a FIFO or a socket: read through libuv's poll (a net.Socket on the descriptor), so that waiting
//   for a writer is a wait of the event loop, which a signal ends; after a moment without data a
//   note on stderr says what payfac waits for;
// - a terminal: the same, as a tty.ReadStream;
// - any other device (/dev/zero, /dev/urandom): read as a file, up to the bound;
// - a folder: refused.
// A file or a device (and stdin redirected from one) is read in libuv's threads, which exiting
// waits for: such a read is held (holdThreadRead), so that a signal still ends payfac when the
// read waits in the kernel (stdin from /dev/kmsg, a file on a mount that stopped answering).
// Whatever it is, reading stops one byte past the bound: exit 2 naming the flag and the bound.
import fs from 'node:fs'
import net from 'node:net'
import type { Readable } from 'node:stream'
import tty from 'node:tty'
import { promisify } from 'node:util'

import { sanitizeLine } from '../../output/sanitize.js'
import { UsageError } from '../errors/index.js'
import { holdThreadRead } from '../runtime/signals.js'

/** The most a request body (`--data`) or a `--merchants @FILE` list may hold: 1 MiB. */
export const MAX_DATA_BYTES = 1024 * 1024
/** How long a FIFO or socket may stay silent before payfac says it is waiting for it. */
export const WAITING_NOTE_MS = 500

export type InputKind = 'file' | 'fifo' | 'socket' | 'terminal' | 'device'

export interface OpenedInput {
  stream: Readable
  kind: InputKind
  /** A regular file's size when it was opened. */
  size?: number | undefined
}

const openFd = promisify(fs.open)
const fstat = promisify(fs.fstat)

/** `1 MiB`, `64 KiB`, `1000 bytes`. */
export function describeLimit(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`
  return `${bytes} bytes`
}

const WHY: Record<string, string> = {
  ENOENT: 'there is no such file',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'a loop of symbolic links',
  ENXIO: 'a socket or device with nothing behind it',
  ENAMETOOLONG: 'the name is too long',
}

function cannotRead(flag: string, path: string, error: unknown, hint: string): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error'
  return new UsageError(`${flag}: cannot read ${path}: ${WHY[code] ?? 'it cannot be opened'} (${code})`, hint)
}

/** Opens `path` for reading as described above; a folder or a name that cannot be opened is exit 2. */
export async function openInput(path: string, flag: string, hint = 'Check the path of the file'): Promise<OpenedInput> {
  let fd: number
  try {
    fd = await openFd(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0))
  } catch (error) {
    throw cannotRead(flag, path, error, hint)
  }
  let info: fs.Stats
  try {
    info = await fstat(fd)
  } catch (error) {
    fs.closeSync(fd)
    throw cannotRead(flag, path, error, hint)
  }
  if (info.isDirectory()) {
    fs.closeSync(fd)
    throw new UsageError(`${flag}: ${path} is a folder, not a file`, hint)
  }
  if (info.isFIFO() || info.isSocket()) return { stream: new net.Socket({ fd, readable: true, writable: false }), kind: info.isFIFO() ? 'fifo' : 'socket' }
  if (tty.isatty(fd)) return { stream: new tty.ReadStream(fd), kind: 'terminal' }
  const stream = fs.createReadStream(path, { fd })
  holdThreadRead(stream)
  return { stream, kind: info.isFile() ? 'file' : 'device', size: info.isFile() ? info.size : undefined }
}

export interface BoundedRead {
  /** The flag or place the bytes are for, named by every error (`--data`, `--ledger`). */
  flag: string
  /** The most bytes read; one more is exit 2. */
  limit: number
  /** What is read, for the error: `a request body`, `the secret`. */
  what: string
  /** How to do without the bound (`Put a larger body in …`). */
  hint?: string | undefined
}

function tooLarge(options: BoundedRead, source: string): UsageError {
  return new UsageError(
    `${options.flag}: ${source} holds more than ${describeLimit(options.limit)}; payfac reads at most ${describeLimit(options.limit)} for ${options.what}`,
    options.hint,
  )
}

/**
 * Says on stderr, once, that payfac waits for a FIFO or socket that has sent nothing yet (a FIFO
 * with no writer waits for one); returns what stops the note.
 */
export function noteWaiting(input: OpenedInput, flag: string, path: string, stderr: { write(text: string): unknown } = process.stderr): () => void {
  if (input.kind !== 'fifo' && input.kind !== 'socket') return () => undefined
  const timer = setTimeout(() => {
    stderr.write(`${sanitizeLine(`${flag}: waiting for data from the ${input.kind === 'fifo' ? 'FIFO' : 'socket'} ${path} (Ctrl-C to stop)...`)}\n`)
  }, WAITING_NOTE_MS)
  timer.unref()
  const stop = () => clearTimeout(timer)
  input.stream.once('data', stop)
  input.stream.once('close', stop)
  return stop
}

/** Every byte of `stream` up to the bound; one byte more stops the read (the stream destroyed) and is exit 2. */
export async function readAllBounded(stream: NodeJS.ReadableStream, options: BoundedRead, source: string): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
      size += bytes.length
      if (size > options.limit) throw tooLarge(options, source)
      chunks.push(bytes)
    }
  } finally {
    ;(stream as unknown as { destroy?: () => void }).destroy?.()
  }
  return Buffer.concat(chunks)
}

/** The bytes of the file at `path` (any kind, see above), at most `options.limit`. */
export async function readFileBounded(path: string, options: BoundedRead): Promise<Buffer> {
  const input = await openInput(path, options.flag, options.hint ?? 'Check the path of the file')
  if (input.size !== undefined && input.size > options.limit) {
    input.stream.destroy()
    throw tooLarge(options, path)
  }
  const stop = noteWaiting(input, options.flag, path)
  try {
    return await readAllBounded(input.stream, options, path)
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw cannotRead(options.flag, path, error, options.hint ?? 'Check the path of the file')
  } finally {
    stop()
  }
}

/** All of stdin, at most `options.limit` bytes. */
export async function readStdinBounded(options: BoundedRead, stdin: NodeJS.ReadableStream = process.stdin): Promise<Buffer> {
  holdThreadRead(stdin)
  try {
    return await readAllBounded(stdin, options, 'stdin')
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(`${options.flag}: cannot read stdin (${(error as NodeJS.ErrnoException).code ?? 'error'})`, options.hint)
  }
}
