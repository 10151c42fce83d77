// Downloads (invoice PDFs, statement zips, settlement CSV), checked on the way (download-checks.ts)
// and, with --out, saved by out-file.ts (a regular file is replaced atomically, so an interrupted
// download never leaves a truncated file under the requested name; a FIFO or device is written in
// place). Without --out, binary data is refused on a terminal.
import { Readable } from 'node:stream'

import { sanitizeText } from '../../output/sanitize.js'
import { writeStream } from '../../output/sink.js'
import { type DownloadKind, checkedDownload, streamTimeoutMs } from './download-checks.js'
import { UsageError } from '../errors/index.js'
import { requestTimeoutMs } from '../validate/durations.js'
import { saveStream } from './out-file.js'

/** The --out writer (out-file.ts): files replaced atomically, FIFOs and devices written in place. */
export { saveStream }

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

/** The output flags a command that writes a file of the service's (a PDF, a zip) cannot honour. */
interface DataFlags {
  csv?: boolean | undefined
  query?: string | undefined
  ids?: boolean | undefined
  columns?: string | undefined
  wide?: boolean | undefined
}

/**
 * Refuses, before anything is sent, a flag that shapes printed records on a command whose output is
 * a file of the service's (`what`: "a PDF"): it would be silently ignored. `--json` and `--jsonl`
 * are kept: they make a failure one JSON line on stderr, as everywhere.
 */
export function refuseRecordFlags(f: DataFlags, what: string): void {
  const given = (['csv', 'query', 'ids', 'columns', 'wide'] as const).find((name) => f[name] !== undefined && f[name] !== false)
  if (given === undefined) return
  throw new UsageError(
    `--${given} shapes printed records, and this command writes ${what} as the service sends it`,
    `Leave out --${given}; --json still makes an error one JSON line on stderr`,
  )
}

/**
 * A download delivered: saved atomically to `out` (saying "Saved N bytes to FILE" on stderr), or
 * without --out sent to stdout (streamToStdout).
 */
export async function deliver(source: Readable, out: string | undefined, options: { binary: boolean; what: string }): Promise<void> {
  if (!out) return streamToStdout(source, options)
  const bytes = await saveStream(source, out)
  process.stderr.write(`Saved ${bytes} bytes to ${out}\n`)
}

/** Sends a stream to stdout; binary data is refused when stdout is a terminal. */
export async function streamToStdout(source: Readable, options: { binary: boolean; what: string }): Promise<void> {
  if (options.binary && process.stdout.isTTY) {
    source.destroy()
    throw new UsageError(`${options.what} is binary and stdout is a terminal`, 'Give --out <file>, or redirect stdout to a file')
  }
  // stdout's own failure (a full disk behind `> file`) is one line, not a stack (sink.ts).
  await writeStream(process.stdout.isTTY ? inertText(source) : source)
}

/**
 * Text for a terminal: decoded as UTF-8 across chunk boundaries, CRLF shown as a line break, and
 * every other control made visible (sanitizeText), so a report cannot drive the terminal. Piped,
 * the bytes go out as they came.
 */
export async function* inertText(source: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8')
  let held = ''
  for await (const chunk of source) {
    const text = held + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))
    held = text.endsWith('\r') ? '\r' : ''
    yield sanitizeText((held ? text.slice(0, -1) : text).replace(/\r\n/g, '\n'))
  }
  yield sanitizeText(held + decoder.decode())
}
