// Writing to stdout: chunks of about 16 KB, waiting for 'drain', and a reader that went away
// (`| head`) noticed as OutputClosedError instead of a crash. A disk or device that refuses a
// write (stdout redirected to a full disk, an I/O error) is a WriteError: one plain line on
// stderr and exit 1, never a stack trace.

const BUFFER_BYTES = 16 * 1024

/** The output stream closed (e.g. `| head`) before everything was written. */
export class OutputClosedError extends Error {
  override name = 'OutputClosedError'
  constructor() {
    super('The output stream closed before everything was written')
  }
}

/** The list stopped because it was asked to (Ctrl-C): what was written is complete and valid. */
export class OutputInterruptedError extends Error {
  override name = 'OutputInterruptedError'
  constructor() {
    super('Interrupted')
  }
}

/** Why a write failed, in words, for the errno codes a disk or device gives. */
const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EIO: 'an input/output error on the device',
  EFBIG: 'the file is larger than the file system allows',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENXIO: 'no such device, or no reader on it',
  EBADF: 'the file descriptor is not open for writing',
  EINVAL: 'the device does not accept writes',
}

/** The codes of a disk or device that cannot take what was written: exit 1, not a usage error. */
export const DISK_FAILURES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EFBIG'])

/** `no space left on the device (ENOSPC)`, or the error's own message for a code not listed. */
export function writeFailureWords(error: unknown): string {
  const code = errnoCode(error)
  const words = code ? WRITE_FAILURES[code] : undefined
  if (words) return `${words} (${code})`
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
  return code && !message?.includes(code) ? `${message} (${code})` : (message ?? 'unknown error')
}

export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/**
 * A write the disk or device refused (full, over quota, an I/O error): not a bug in payfac and
 * not a usage mistake. Exit 1 with `message` as the one line on stderr (exit-codes.ts).
 */
export class WriteError extends Error {
  override name = 'WriteError'
  /** The errno code (ENOSPC, EIO …), when there was one. */
  readonly code: string | undefined
  /** `stdout`, or the file that was being written. */
  readonly target: string

  constructor(message: string, target: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause })
    this.code = errnoCode(cause)
    this.target = target
  }
}

// stdout failing outside any Sink (a plain process.stdout.write, help text, an error object
// for --json): noted by the process-wide listener (src/cli/runtime/pipes.ts), said once on the way out.
let stdoutFailure: WriteError | undefined
let stdoutFailureSaid = false

/** The WriteError for a failed write to stdout; whoever receives it reports it (so it is not said twice). */
export function stdoutWriteError(error: unknown): WriteError {
  if (error instanceof WriteError) return error
  const failure = stdoutFailure ?? new WriteError(`Could not write to stdout: ${writeFailureWords(error)}`, 'stdout', error)
  stdoutFailure = failure
  stdoutFailureSaid = true
  return failure
}

/**
 * `error` as a WriteError when it is stdout's own failure (a pipeline into stdout rejects with
 * it); anything else, a source's failure or a reader that left, is returned as it is.
 */
export function stdoutFailureOf(error: unknown, out: NodeJS.WritableStream = process.stdout): unknown {
  const errored = (out as { errored?: unknown }).errored
  if (errored === undefined || errored === null || errored !== error || isClosedError(error)) return error
  return stdoutWriteError(error)
}

/** The process, as far as noteStdoutFailure() needs it. */
export interface ExitTarget {
  once(event: 'exit', listener: () => void): unknown
  exitCode?: number | string | null | undefined
  stderr: { write(text: string): unknown }
}

/**
 * Notes a failed write to stdout that was not a reader going away. Unless a command reports it
 * first (it receives stdoutWriteError()), one line is written to stderr as the process exits,
 * with exit 1 when no other code was set.
 */
export function noteStdoutFailure(error: unknown, target: ExitTarget = process): void {
  if (stdoutFailure) return
  stdoutFailure = new WriteError(`Could not write to stdout: ${writeFailureWords(error)}`, 'stdout', error)
  target.once('exit', () => {
    if (!target.exitCode) target.exitCode = 1
    if (stdoutFailureSaid || !stdoutFailure) return
    stdoutFailureSaid = true
    try {
      target.stderr.write(`Error: ${stdoutFailure.message}\n`)
    } catch {
      // stderr is gone too: the exit code still says it.
    }
  })
}

/** Forgets a noted stdout failure (tests only). */
export function resetStdoutFailure(): void {
  stdoutFailure = undefined
  stdoutFailureSaid = false
}

/** The error for a stream that is gone: a reader that left (OutputClosedError) or a failed write (WriteError). */
function goneError(out: NodeJS.WritableStream, failure?: unknown): Error {
  const errored = failure ?? (out as { errored?: unknown }).errored
  if (errored === undefined || errored === null || isClosedError(errored)) return new OutputClosedError()
  if (out === process.stdout) return stdoutWriteError(errored)
  return errored instanceof WriteError ? errored : new WriteError(`Could not write the output: ${writeFailureWords(errored)}`, 'output', errored)
}

/** A reader that went away: EPIPE on a pipe, or a stream already destroyed. */
function isClosedError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_STREAM_WRITE_AFTER_END'
}

/** The stream was destroyed or failed: nothing more will be written, and no 'drain' will come. */
export function isGone(out: NodeJS.WritableStream): boolean {
  const state = out as { destroyed?: boolean; errored?: unknown; closed?: boolean }
  return state.destroyed === true || state.closed === true || (state.errored !== undefined && state.errored !== null)
}

// A command stopped by a signal finishes its output at a safe point (a list closes its JSON
// array), but a reader that stopped reading (`| ssh …` stalled, a pager paused) never takes it:
// the first signal then waited for that reader for ever. Once a command is interrupted, the next
// wait for a reader ends the process instead (endWhenOutputStalls).
let onStall: (() => void) | undefined

/**
 * After an interruption: `end` runs when output has to wait for its reader, at once if it waits
 * now (stdout's buffer is full), or at the next such wait.
 */
export function endWhenOutputStalls(end: () => void, out: NodeJS.WritableStream = process.stdout): void {
  onStall = end
  if ((out as { writableNeedDrain?: boolean }).writableNeedDrain) end()
}

/** Output is about to wait for its reader: an interrupted command ends instead (see above). */
export function noteOutputStall(): void {
  onStall?.()
}

/** Forgets an interruption's end (tests only). */
export function resetOutputStall(): void {
  onStall = undefined
}

/** Writes, and waits for 'drain' when the stream's buffer is full. */
async function writeChunk(out: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  if (isGone(out)) throw goneError(out)
  if (out.write(text)) return
  // The stream may have failed (and said so) during the write itself: no 'drain' would come.
  if (isGone(out)) throw goneError(out)
  noteOutputStall()
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      out.off('drain', onDrain)
      out.off('error', onError)
      out.off('close', onClose)
      if (error) reject(error)
      else resolve()
    }
    const onDrain = () => settle()
    const onError = (error: Error) => settle(goneError(out, error))
    const onClose = () => settle(new OutputClosedError())
    out.on('drain', onDrain)
    out.on('error', onError)
    out.on('close', onClose)
  })
}

/**
 * Writes a stream's chunks as they come, waiting for 'drain', and never ends `out`. A failed or
 * closed `out` is found by looking at it after each write, not by its 'error' event (another
 * listener, such as oclif's, may throw before ours is called): OutputClosedError or a WriteError.
 * Leaving the loop early destroys the source.
 */
export async function writeStream(source: AsyncIterable<string | Uint8Array>, out: NodeJS.WritableStream = process.stdout): Promise<void> {
  for await (const chunk of source) await writeChunk(out, chunk)
}

/** Collects small pieces of text and writes them in chunks of about 16 KB. */
export class Sink {
  readonly #out: NodeJS.WritableStream
  #buffer = ''
  #closed = false
  #failure: unknown

  constructor(out: NodeJS.WritableStream) {
    this.#out = out
    // A write to a closed pipe fails later, as an 'error' event: note it, and stop at the next push.
    out.on?.('error', this.#onError)
    out.on?.('close', this.#onClose)
  }

  readonly #onError = (error: unknown) => {
    if (isClosedError(error)) this.#closed = true
    else this.#failure ??= error
  }

  readonly #onClose = () => {
    this.#closed = true
  }

  /** Removes the listeners: stdout outlives every rendering. */
  dispose(): void {
    this.#out.off?.('error', this.#onError)
    this.#out.off?.('close', this.#onClose)
  }

  async push(text: string): Promise<void> {
    this.append(text)
    if (this.#buffer.length >= BUFFER_BYTES) await this.flush()
  }

  /** Adds text without writing: the caller flushes when `full` (or when it pauses). */
  append(text: string): void {
    if (this.#failure !== undefined) throw goneError(this.#out, this.#failure)
    if (this.#closed) throw new OutputClosedError()
    this.#buffer += text
  }

  /** Enough text is collected to be worth a write. */
  get full(): boolean {
    return this.#buffer.length >= BUFFER_BYTES
  }

  async flush(): Promise<void> {
    if (this.#buffer === '') return
    const text = this.#buffer
    this.#buffer = ''
    if (this.#failure !== undefined) throw goneError(this.#out, this.#failure)
    if (this.#closed) throw new OutputClosedError()
    await writeChunk(this.#out, text)
  }
}
