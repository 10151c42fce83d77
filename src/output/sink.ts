// Writing to stdout: chunks of about 16 KB, waiting for 'drain', and a reader that went away
// (`| head`) noticed as OutputClosedError instead of a crash.

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

/** Writes, and waits for 'drain' when the stream's buffer is full. */
async function writeChunk(out: NodeJS.WritableStream, text: string): Promise<void> {
  if (isGone(out)) throw new OutputClosedError()
  if (out.write(text)) return
  // The stream may have failed (and said so) during the write itself: no 'drain' would come.
  if (isGone(out)) throw new OutputClosedError()
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      out.off('drain', onDrain)
      out.off('error', onError)
      out.off('close', onClose)
      if (error) reject(error)
      else resolve()
    }
    const onDrain = () => settle()
    const onError = (error: Error) => settle(isClosedError(error) ? new OutputClosedError() : error)
    const onClose = () => settle(new OutputClosedError())
    out.on('drain', onDrain)
    out.on('error', onError)
    out.on('close', onClose)
  })
}

/** Collects small pieces of text and writes them in chunks of about 16 KB. */
export class Sink {
  readonly #out: NodeJS.WritableStream
  #buffer = ''
  #closed = false

  constructor(out: NodeJS.WritableStream) {
    this.#out = out
    // A write to a closed pipe fails later, as an 'error' event: note it, and stop at the next push.
    out.on?.('error', this.#onError)
    out.on?.('close', this.#onClose)
  }

  readonly #onError = (error: unknown) => {
    if (isClosedError(error)) this.#closed = true
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
    if (this.#closed) throw new OutputClosedError()
    await writeChunk(this.#out, text)
  }
}

