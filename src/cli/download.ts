// Downloads (invoice PDFs, statement zips, settlement CSV): with --out, saved by out-file.ts (a
// regular file is replaced atomically, so an interrupted download never leaves a truncated file
// under the requested name; a FIFO or device is written in place). Without --out, binary data is
// refused on a terminal.
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

import { stdoutFailureOf } from '../output/sink.js'
import { UsageError } from './errors.js'

/** The --out writer (out-file.ts): files replaced atomically, FIFOs and devices written in place. */
export { saveStream } from './out-file.js'

/** Sends a stream to stdout; binary data is refused when stdout is a terminal. */
export async function streamToStdout(source: Readable, options: { binary: boolean; what: string }): Promise<void> {
  if (options.binary && process.stdout.isTTY) {
    source.destroy()
    throw new UsageError(`${options.what} is binary and stdout is a terminal`, 'Give --out <file>, or redirect stdout to a file')
  }
  // stdout's own failure (a full disk behind `> file`) is one line, not a stack (sink.ts).
  await pipeline(source, process.stdout, { end: false }).catch((error: unknown) => {
    throw stdoutFailureOf(error)
  })
}
