// The settlement list and report over a range in parts (flags-range.ts `--split`, or a range the
// service refuses as too large): entries in order, each once; the report streamed whatever its size.
import { Readable } from 'node:stream'

import type { CallOptions, PayfacClient, SettlementQuery } from '../../client/index.js'
import { UsageError } from '../errors.js'
import { openParts, recordsInParts } from './parts.js'
import type { DateRange } from './range.js'
import { ReportSummary, jsonEntries, mergedCsv, mergedJson, outside } from './report-stream.js'

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
    client.transactions.settlement.iterate({ ...query, createdAfter: part.fromText, createdBefore: part.toText, limit: f.limit ?? 500 }, { call }) as AsyncIterable<Loose>
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

/**
 * The report as a byte stream: CSV, or JSON (`{entries, summary}`). One part is the service's
 * answer as it comes; several are merged, with the summary added up over them.
 */
export async function reportStream(client: PayfacClient, query: SettlementQuery, parts: DateRange[], format: 'csv' | 'json'): Promise<Readable> {
  const settlement = client.transactions.settlement
  const send = (q: SettlementQuery) => (format === 'csv' ? settlement.report(q, 'csv') : settlement.report(q, 'json-stream'))
  if (parts.length === 0) return send(query)
  const opened = openParts(parts, (part) => send(partQuery(query, part)))
  if (parts.length === 1) {
    const first = await opened.next()
    const second = first.done ? first : await opened.next()
    // Not halved: the service took the whole range at once, and its answer goes out as it comes.
    if (!first.done && second.done) return first.value.body
    const head = [first, second].flatMap((r) => (r.done ? [] : [r.value]))
    return Readable.from(merge(head, opened, query, format, parts))
  }
  return Readable.from(merge([], opened, query, format, parts))
}

async function* merge(
  head: Array<{ part: DateRange; body: Readable }>,
  tail: AsyncIterable<{ part: DateRange; body: Readable }>,
  query: SettlementQuery,
  format: 'csv' | 'json',
  parts: DateRange[],
): AsyncGenerator<string | Buffer> {
  const opened = (async function* () {
    yield* head
    yield* tail
  })()
  if (format === 'csv') {
    yield* mergedCsv(opened)
    return
  }
  const summary = new ReportSummary({
    currency: typeof query.currency === 'string' ? query.currency : null,
    payoutId: null,
    createdAfter: String(query.createdAfter ?? ''),
    createdBefore: String(query.createdBefore ?? ''),
    parts: parts.length,
  })
  yield* mergedJson(opened, summary)
}

/** The entries and the rest of a JSON report stream, for a table. */
export async function reportDocument(stream: Readable): Promise<{ entries: Loose[]; rest: unknown }> {
  const rest = outside()
  const entries: Loose[] = []
  for await (const batch of jsonEntries(stream, rest)) for (const bytes of batch) entries.push(JSON.parse(bytes.toString('utf8')) as Loose)
  return { entries, rest: rest.value() }
}
