// Downloads (invoice PDFs, statement zips, settlement CSV), checked on the way (download-checks.ts)
// and streamed to a temporary file beside the target and renamed into place only when complete, so an interrupted download never leaves a
// truncated file under the requested name. The temporary file is removed on every way out: an
// error, a signal (through the process-wide clean-ups of signals.ts) or an early exit. Without
// --out, binary data is refused on a terminal.
import { createWriteStream, rmSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

import { type DownloadKind, checkedDownload, streamTimeoutMs } from './download-checks.js'
import { UsageError } from './errors.js'
import { requestTimeoutMs } from './flags-lists.js'
import { byteProgress } from './progress.js'
import { addCleanup } from './signals.js'

/**
 * How long each wait for more of a streamed answer may last: `--timeout`, else PAYFAC_TIMEOUT,
 * else the client's default (the same precedence as a request's deadline).
 */
export function idleTimeoutMs(flags: { timeout?: string | undefined }): number {
  if (flags.timeout !== undefined) return requestTimeoutMs(flags.timeout, '--timeout')
  const env = process.env.PAYFAC_TIMEOUT
  return streamTimeoutMs(env === undefined || env.trim() === '' ? undefined : requestTimeoutMs(env, 'PAYFAC_TIMEOUT'))
}

/**
 * A download (an invoice PDF, a statement zip) checked as it comes: it must be of its format
 * (else exit 7 naming what came), complete, and never stall past `timeoutMs` (download-checks.ts).
 */
export function checkedStream(source: Readable, kind: DownloadKind, at: { method: string; path: string; timeoutMs: number }): Readable {
  return Readable.from(checkedDownload(source, kind, at))
}

/** Writes a stream to `path` atomically; returns the number of bytes written. */
export async function saveStream(source: Readable, path: string): Promise<number> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.part`)
  let bytes = 0
  const progress = byteProgress()
  source.on('data', (chunk: Buffer) => {
    bytes += chunk.length
    progress.add(chunk.length)
  })
  const forget = addCleanup(() => rmSync(temporary, { force: true }))
  try {
    await pipeline(source, createWriteStream(temporary, { flags: 'wx', mode: 0o644 }))
    progress.end()
    await rename(temporary, path)
  } catch (error) {
    progress.end()
    await rm(temporary, { force: true })
    forget()
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
      throw new UsageError(`--out: cannot write ${path} (${code})`, 'Check that the folder exists and is writable')
    }
    throw error
  }
  forget()
  return bytes
}

/** Sends a stream to stdout; binary data is refused when stdout is a terminal. */
export async function streamToStdout(source: Readable, options: { binary: boolean; what: string }): Promise<void> {
  if (options.binary && process.stdout.isTTY) {
    source.destroy()
    throw new UsageError(`${options.what} is binary and stdout is a terminal`, 'Give --out <file>, or redirect stdout to a file')
  }
  await pipeline(source, process.stdout, { end: false })
}
