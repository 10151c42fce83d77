// What a streamed answer (a report, an invoice PDF, a statement zip) must be before payfac passes
// it on. Three guards, all on the bytes as they arrive, none holding the body in memory:
// - progress: `--timeout` bounds each wait for the body to bring 1 KiB more (or end), so a body
//   that stalls, or drips a byte at a time, ends with exit 7 instead of holding the command open;
// - completeness: a connection lost mid-body is exit 7 saying how many bytes came (never "a bug");
// - shape: the first bytes say what came (HTML, JSON, gzip, a zip, a PDF, binary, nothing at all),
//   and an answer that is not what was asked for is exit 7 naming it, after reading a few bytes.
import type { Readable } from 'node:stream'

import { ConnectionError, PayfacError, ResponseFormatError, TimeoutError } from '../../client/errors.js'

/** The body must bring at least this much more within each `--timeout`, or end. */
export const PROGRESS_BYTES = 1024
/** The client's default request timeout (DEFAULT_TIMEOUT_MS), for a stream when none is given. */
const DEFAULT_STREAM_TIMEOUT_MS = 30_000

/** Which request a stream answers, what it should be, and how long each wait for more may last. */
export interface StreamAt {
  method: string
  path: string
  /** What was expected, for messages: "a CSV report", "a PDF". */
  expected: string
  timeoutMs: number
}

/** The idle bound of a stream: `--timeout`, else PAYFAC_TIMEOUT, else the client's default (30 s). */
export function streamTimeoutMs(given: number | undefined): number {
  return given ?? DEFAULT_STREAM_TIMEOUT_MS
}

/** A success answer whose body is not what was asked for (exit 7, as every malformed answer). */
export class AnswerShapeError extends ResponseFormatError {
  constructor(at: Pick<StreamAt, 'method' | 'path'>, what: string) {
    super({ method: at.method, path: at.path, status: 200, body: undefined, reason: what })
    this.message = `${at.method} ${at.path}: ${what}`
  }
}

/** The body stopped coming (or came too slowly) within `--timeout`. */
export class StreamStallError extends TimeoutError {
  readonly bytes: number
  constructor(at: StreamAt, bytes: number) {
    super({ method: at.method, path: at.path, timeoutMs: at.timeoutMs })
    this.bytes = bytes
    this.message =
      `${at.method} ${at.path}: the answer stalled: less than 1 KiB came within ${seconds(at.timeoutMs)} (--timeout) after ${bytes} bytes; ` +
      'what was received is incomplete'
  }
}

/** The connection was lost before the whole body came. */
export function droppedError(at: StreamAt, bytes: number, error: unknown): ConnectionError {
  const code = (error as { code?: unknown } | null)?.code
  const why = error instanceof Error && error.message ? `: ${error.message}` : ''
  return new ConnectionError({
    method: at.method,
    path: at.path,
    code: typeof code === 'string' ? code : undefined,
    mayHaveReachedService: true,
    reason: `the connection was lost after ${bytes} bytes of the answer${why}; what was received is incomplete`,
  })
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}

function isAbort(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown } | null
  return e?.name === 'AbortError' || e?.code === 'ABORT_ERR' || e?.code === 'UND_ERR_ABORTED'
}

/**
 * The body's chunks as Buffers, guarded: each wait for 1 KiB more is bounded by `at.timeoutMs`
 * (time spent by the consumer does not count), and a body that breaks off is a ConnectionError
 * with the bytes received. `progress.bytes` counts what came.
 */
export async function* guardedBody(
  source: AsyncIterable<Buffer | string> & Partial<Pick<Readable, 'destroy'>>,
  at: StreamAt,
  progress = { bytes: 0 },
): AsyncGenerator<Buffer> {
  let stalled: StreamStallError | undefined
  let budget = at.timeoutMs
  let sinceMark = 0
  let timer: NodeJS.Timeout | undefined
  let waitStart = 0
  const iterator = source[Symbol.asyncIterator]()
  const wait = () => {
    waitStart = performance.now()
    timer = setTimeout(
      () => {
        stalled = new StreamStallError(at, progress.bytes)
        if (typeof source.destroy === 'function') source.destroy(stalled)
        else void iterator.return?.()
      },
      Math.max(0, budget),
    )
  }
  let finished = false
  try {
    for (;;) {
      wait()
      let next: IteratorResult<Buffer | string>
      try {
        next = await iterator.next()
      } finally {
        clearTimeout(timer)
      }
      if (stalled) throw stalled
      if (next.done) break
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : next.value
      progress.bytes += chunk.length
      sinceMark += chunk.length
      if (sinceMark >= PROGRESS_BYTES) {
        sinceMark = 0
        budget = at.timeoutMs
      } else {
        budget -= performance.now() - waitStart
        if (budget <= 0) {
          stalled = new StreamStallError(at, progress.bytes)
          throw stalled
        }
      }
      if (chunk.length > 0) yield chunk
    }
    finished = true
  } catch (error) {
    if (stalled) throw stalled
    const code = (error as { code?: unknown } | null)?.code
    if (code === 'UND_ERR_BODY_TIMEOUT') throw new StreamStallError(at, progress.bytes)
    if (isAbort(error) || error instanceof PayfacError) throw error
    throw droppedError(at, progress.bytes, error)
  } finally {
    if (!finished && typeof source.destroy === 'function') source.destroy()
  }
}

const text = (head: Buffer, from = 0) => head.subarray(from, from + 200).toString('latin1')

/** The first line of `head`, short and printable, for a message. */
function excerpt(head: Buffer): string {
  const line =
    text(head)
      .replace(/^\ufeff|^\xef\xbb\xbf/, '')
      .trimStart()
      .split(/\r?\n/)[0] ?? ''
  const shown = line.replace(/[^\x20-\x7e]/g, '?')
  return shown.length > 40 ? `${shown.slice(0, 40)}…` : shown
}

function hex(head: Buffer): string {
  return [...head.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ')
}

/** What the first bytes of a body are, in words ("an HTML page (starts `<!DOCTYPE html>`)"). */
export function describeStart(head: Buffer, total = head.length): string {
  if (total === 0) return 'an empty body (0 bytes)'
  if (head[0] === 0x1f && head[1] === 0x8b) return `gzip data (starts ${hex(head)})`
  if (text(head, 0).startsWith('%PDF-')) return 'a PDF'
  if (head[0] === 0x50 && head[1] === 0x4b) return `a zip file (starts ${hex(head)})`
  const start = text(head)
    .replace(/^\xef\xbb\xbf/, '')
    .trimStart()
  if (start === '') return `a body of blank space (${total} bytes)`
  if (isBinary(head)) return `binary data (starts ${hex(head)})`
  if (/^<(!doctype html|html|head|body)\b/i.test(start)) return `an HTML page (starts \`${excerpt(head)}\`)`
  if (start.startsWith('<')) return `markup (starts \`${excerpt(head)}\`)`
  if (start.startsWith('{') || start.startsWith('[')) return `JSON (starts \`${excerpt(head)}\`)`
  return `text (starts \`${excerpt(head)}\`)`
}

/** Bytes that text never holds: NUL and the C0 controls other than tab, LF and CR, or broken UTF-8. */
export function isBinary(head: Buffer): boolean {
  const sample = head.subarray(0, 512)
  for (const b of sample) if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) return true
  // A sample cut in the middle of a character is still text: allow up to 3 bytes of a cut character.
  const decoded = sample.toString('utf8')
  const bad = decoded.indexOf('\ufffd')
  return bad >= 0 && bad < decoded.length - 3
}

/** Gathers the first `n` bytes (or the whole body when shorter), and then the rest, as it comes. */
export async function* withHead(source: AsyncIterable<Buffer>, n: number, check: (head: Buffer, ended: boolean) => void): AsyncGenerator<Buffer> {
  const held: Buffer[] = []
  let size = 0
  let checked = false
  for await (const chunk of source) {
    if (checked) {
      yield chunk
      continue
    }
    held.push(chunk)
    size += chunk.length
    if (size < n) continue
    const head = held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held)
    check(head, false)
    checked = true
    held.length = 0
    yield head
  }
  if (!checked) {
    const head = Buffer.concat(held)
    check(head, true)
    if (head.length > 0) yield head
  }
}

/** Formats whose bytes are checked: a PDF (`%PDF-` … `%%EOF`) and a zip (local header … end record). */
export type DownloadKind = 'pdf' | 'zip'

const KINDS: Record<DownloadKind, { expected: string; start: Buffer; end: Buffer; tail: number }> = {
  pdf: { expected: 'a PDF', start: Buffer.from('%PDF-'), end: Buffer.from('%%EOF'), tail: 1024 },
  // The end of central directory record lies within the last 22 bytes plus a comment of up to 64 KiB.
  zip: { expected: 'a zip file', start: Buffer.from([0x50, 0x4b, 0x03, 0x04]), end: Buffer.from([0x50, 0x4b, 0x05, 0x06]), tail: 65_557 },
}

/**
 * A download checked by its format: it must start with the format's signature (else exit 7
 * naming what came, after a few bytes) and end with its end marker (else it is incomplete).
 */
export async function* checkedDownload(
  source: AsyncIterable<Buffer | string> & Partial<Pick<Readable, 'destroy'>>,
  kind: DownloadKind,
  at: Omit<StreamAt, 'expected'>,
): AsyncGenerator<Buffer> {
  const format = KINDS[kind]
  const where: StreamAt = { ...at, expected: format.expected }
  const progress = { bytes: 0 }
  let tail: Buffer = Buffer.alloc(0)
  const body = withHead(guardedBody(source, where, progress), 64, (head) => {
    if (!head.subarray(0, format.start.length).equals(format.start)) {
      throw new AnswerShapeError(at, `the service answered ${describeStart(head, progress.bytes)} where ${format.expected} was expected`)
    }
  })
  for await (const chunk of body) {
    tail = chunk.length >= format.tail ? chunk.subarray(chunk.length - format.tail) : Buffer.concat([tail, chunk]).subarray(-format.tail)
    yield chunk
  }
  if (tail.lastIndexOf(format.end) < 0) {
    throw new AnswerShapeError(
      at,
      `${format.expected} without its end marker came (${progress.bytes} bytes): the download is incomplete or not ${format.expected}`,
    )
  }
}
