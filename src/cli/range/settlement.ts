// The settlement list and report over a range in parts (flags/range.ts `--split`, or a range the
// service refuses as too large): entries in order, each once; the report streamed whatever its size.
import { Readable } from 'node:stream'

import type { CallOptions, PayfacClient, SettlementQuery } from '../../client/index.js'
import { UsageError } from '../errors/index.js'
import { openParts, recordsInParts } from './parts.js'
import type { DateRange } from './range.js'
import { AnswerShapeError, type StreamAt, describeStart, guardedBody, withHead } from '../files/download-checks.js'
import { type CsvReportState, checkedCsvPart, csvLibraries } from './report-csv.js'
import { ReportSummary, jsonEntries, mergedJson, outside } from './report-stream.js'

type Loose = Record<string, unknown>

/** Every entry of the range, part after part (`--all` is implied; `--page` cannot be). */
export function entriesInParts(
  client: PayfacClient,
  query: SettlementQuery,
  parts: DateRange[],
  f: { page?: number | undefined; limit?: number | undefined; max?: number | undefined },
  call?: CallOptions,
): AsyncIterable<Loose> {
  if (f.page !== undefined) throw new UsageError('--page cannot be used with a range in parts (--split): every part is walked', 'Leave out --page, or --split')
  const walk = (part: DateRange) =>
    client.transactions.settlement.iterate(
      { ...query, createdAfter: part.fromText, createdBefore: part.toText, limit: f.limit ?? 500 },
      { call },
    ) as AsyncIterable<Loose>
  const all = recordsInParts(parts, walk, (e) => e.createdAt)
  return f.max === undefined ? all : take(all, f.max)
}

async function* take<T>(source: AsyncIterable<T>, max: number): AsyncGenerator<T> {
  let n = 0
  for await (const item of source) {
    if (n++ >= max) return
    yield item
  }
}

const partQuery = (query: SettlementQuery, part: DateRange) => ({ ...query, createdAfter: part.fromText, createdBefore: part.toText })

export const REPORT_PATH = '/transactions/settlement/report'

/**
 * The report as a byte stream: CSV, or JSON (`{entries, summary}`), checked as it comes (see
 * download-checks.ts and report-csv.ts): each wait for more is bounded by `timeoutMs`, a body
 * that is not the report or that breaks off is an error (exit 7). One part: the service's
 * answer (CSV rewritten with its formula cells defused; JSON as it comes). Several are merged,
 * with the JSON summary added up over them.
 */
export async function reportStream(
  client: PayfacClient,
  query: SettlementQuery,
  parts: DateRange[],
  format: 'csv' | 'json',
  timeoutMs: number,
  /** One merchant's, in a fan-out (its Merchant-Id). */
  call?: CallOptions,
): Promise<Readable> {
  const settlement = client.transactions.settlement
  const at: StreamAt = { method: 'GET', path: REPORT_PATH, timeoutMs, expected: format === 'csv' ? 'a CSV report' : 'a JSON report' }
  const send = (q: SettlementQuery) => (format === 'csv' ? settlement.report(q, 'csv', call) : settlement.report(q, 'json-stream', call))
  if (format === 'csv') {
    const loading = csvLibraries()
    loading.catch(() => undefined)
    const state: CsvReportState = {}
    if (parts.length === 0) return Readable.from(checkedCsvPart(guardedBody(await send(query), at), at, state))
    const opened = openParts(parts, (part) => send(partQuery(query, part)))
    const first = await opened.next()
    return Readable.from(csvParts(first, opened, parts, at, state))
  }
  if (parts.length === 0) return Readable.from(checkedJson(await send(query), at))
  const opened = openParts(parts, (part) => send(partQuery(query, part)))
  if (parts.length === 1) {
    const first = await opened.next()
    const second = first.done ? first : await opened.next()
    // Not halved: the service took the whole range at once, and its answer goes out as it comes.
    if (!first.done && second.done) return Readable.from(checkedJson(first.value.body, at))
    const head = [first, second].flatMap((r) => (r.done ? [] : [r.value]))
    return Readable.from(merge(head, opened, query, parts, at))
  }
  return Readable.from(merge([], opened, query, parts, at))
}

/** One JSON report answer (a merchant's, in a fan-out), checked and guarded as reportStream's are. */
export function checkedJsonReport(body: Readable, timeoutMs: number): Readable {
  return Readable.from(checkedJson(body, { method: 'GET', path: REPORT_PATH, timeoutMs, expected: 'a JSON report' }))
}

/** CSV parts in order: one header, and (when the range was cut) each part's rows created in it. */
async function* csvParts(
  first: IteratorResult<{ part: DateRange; body: Readable }>,
  rest: AsyncIterable<{ part: DateRange; body: Readable }>,
  parts: DateRange[],
  at: StreamAt,
  state: CsvReportState,
): AsyncGenerator<Buffer> {
  if (first.done) return
  // One part answered whole keeps every row the service sent; parts (given or halved) keep each
  // row only in the part its createdAt falls in.
  const cut = parts.length > 1 || first.value.part !== parts[0]
  let index = 1
  const each = (async function* () {
    yield first.value
    yield* rest
  })()
  for await (const { part, body } of each) {
    yield* checkedCsvPart(guardedBody(body, at), at, state, cut ? { range: part, index } : undefined)
    index++
  }
}

/** A JSON report body, guarded, that must begin with `{` or `[` and end with `}` or `]`. */
async function* checkedJson(body: Readable, at: StreamAt): AsyncGenerator<Buffer> {
  let last = 0
  let bytes = 0
  const source = withHead(guardedBody(body, at), 64, (head, ended) => {
    const start = head
      .toString('latin1')
      .replace(/^\xef\xbb\xbf/, '')
      .trimStart()
    if (!start.startsWith('{') && !start.startsWith('[')) {
      throw new AnswerShapeError(
        at,
        `the service answered ${describeStart(head, ended ? head.length : Math.max(head.length, 1))} where ${at.expected} was expected`,
      )
    }
  })
  for await (const chunk of source) {
    bytes += chunk.length
    for (let i = chunk.length - 1; i >= 0; i--) {
      const c = chunk[i] as number
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
        last = c
        break
      }
    }
    yield chunk
  }
  if (last !== 0x7d && last !== 0x5d) throw new AnswerShapeError(at, `the JSON report ends without closing after ${bytes} bytes: it is incomplete`)
}

async function* merge(
  head: Array<{ part: DateRange; body: Readable }>,
  tail: AsyncIterable<{ part: DateRange; body: Readable }>,
  query: SettlementQuery,
  parts: DateRange[],
  at: StreamAt,
): AsyncGenerator<string | Buffer> {
  const opened = (async function* () {
    for (const { part, body } of head) yield { part, body: checkedJson(body, at) }
    for await (const { part, body } of tail) yield { part, body: checkedJson(body, at) }
  })()
  const summary = new ReportSummary({
    currency: typeof query.currency === 'string' ? query.currency : null,
    payoutId: null,
    createdAfter: String(query.createdAfter ?? ''),
    createdBefore: String(query.createdBefore ?? ''),
    parts: parts.length,
  })
  try {
    yield* mergedJson(opened, summary)
  } catch (error) {
    if (error instanceof SyntaxError) throw new AnswerShapeError(at, `an entry of the JSON report does not parse (${error.message})`)
    throw error
  }
}

/** The entries and the rest of a JSON report stream, for a table. */
/** The entries of a JSON report one by one, as they arrive (for --jsonl: memory stays flat; the summary is left out). */
export async function* reportEntries(stream: Readable): AsyncGenerator<Loose> {
  try {
    for await (const batch of jsonEntries(stream)) for (const bytes of batch) yield JSON.parse(bytes.toString('utf8')) as Loose
  } catch (error) {
    if (error instanceof SyntaxError) throw new AnswerShapeError({ method: 'GET', path: REPORT_PATH }, `the JSON report does not parse (${error.message})`)
    throw error
  }
}

export async function reportDocument(stream: Readable): Promise<{ entries: Loose[]; rest: unknown }> {
  const rest = outside()
  const entries: Loose[] = []
  try {
    for await (const batch of jsonEntries(stream, rest)) for (const bytes of batch) entries.push(JSON.parse(bytes.toString('utf8')) as Loose)
    return { entries, rest: rest.value() }
  } catch (error) {
    if (error instanceof SyntaxError) throw new AnswerShapeError({ method: 'GET', path: REPORT_PATH }, `the JSON report does not parse (${error.message})`)
    throw error
  }
}
