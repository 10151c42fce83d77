// The JSON settlement report as streams, so that its size never matters: the entries cut out one
// by one as bytes arrive (the rest of the document, the summary, kept aside), and reports of
// several parts merged into one with a summary added up over the parts. (The CSV report is read,
// checked and rewritten by report-csv.ts.)
import { JSON_BYTE, MAX_JSON_DEPTH } from '../../client/json-depth.js'
import type { DateRange } from './range.js'
import { inPart } from './range.js'

/** The longest entry of a JSON report payfac reads, as a CSV report's record: 1 MiB. */
export const MAX_ENTRY_BYTES = 1024 * 1024
/** The most a JSON report holds outside its entries (the summary, by type and by merchant): 16 MiB. */
export const MAX_OUTSIDE_BYTES = 16 * 1024 * 1024

const { quote: QUOTE, backslash: BACKSLASH, openObject: OPEN_OBJECT, closeObject: CLOSE_OBJECT, openArray: OPEN_ARRAY, closeArray: CLOSE_ARRAY } = JSON_BYTE

/** What lies outside the entries array (`{"entries":[],"summary":{…}}`), once the stream is read. */
export interface Outside {
  parts: Buffer[]
  /** Bytes in `parts`. */
  size: number
  value(): unknown
}

export function outside(): Outside {
  return {
    parts: [],
    size: 0,
    value() {
      const text = Buffer.concat(this.parts).toString('utf8').trim()
      return text === '' ? undefined : JSON.parse(text)
    },
  }
}

/**
 * The objects of the report's `entries` array (or of a bare top-level array), as the bytes of
 * each, in batches as chunks arrive. Everything else goes to `rest`. An entry longer than
 * MAX_ENTRY_BYTES, more than MAX_OUTSIDE_BYTES outside the entries, or nesting deeper than
 * MAX_JSON_DEPTH is a SyntaxError (its callers: the service's fault, exit 7): an entry or a summary
 * that never ended was gathered without a bound, past 1 GiB, until JavaScript gave up (exit 1).
 */
export async function* jsonEntries(source: AsyncIterable<Buffer | string>, rest: Outside = outside()): AsyncGenerator<Buffer[]> {
  let depth = 0
  let inString = false
  let escaped = false
  let entriesDepth = -1
  let entriesDone = false
  let keyStart = -1
  let keyPrefix = ''
  let lastKey = ''
  // The start of an entry that began in earlier chunks, kept as they came (not copied again with
  // each chunk): joined once the entry ends.
  const begun: Buffer[] = []
  let begunBytes = 0
  const keep = (part: Buffer) => {
    rest.size += part.length
    if (rest.size > MAX_OUTSIDE_BYTES) throw new SyntaxError(`the report outside its entries is longer than ${MAX_OUTSIDE_BYTES / (1024 * 1024)} MiB`)
    rest.parts.push(part)
  }
  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw
    let elementStart = begun.length > 0 ? 0 : -1
    let restStart = entriesDepth >= 0 ? -1 : 0
    const batch: Buffer[] = []
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as number
      if (inString) {
        if (escaped) escaped = false
        else if (c === BACKSLASH) escaped = true
        else if (c === QUOTE) {
          inString = false
          if (keyStart >= 0) {
            lastKey = keyPrefix + chunk.toString('utf8', keyStart, i)
            keyStart = -1
          }
        }
        continue
      }
      if (c === QUOTE) {
        inString = true
        if (depth === 1 && entriesDepth < 0) {
          keyStart = i + 1
          keyPrefix = ''
        }
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (entriesDepth >= 0 && depth === entriesDepth && c === OPEN_OBJECT) elementStart = i
        depth += 1
        // Deeper than payfac reads: its callers turn the SyntaxError into the service's fault (exit 7).
        if (depth > MAX_JSON_DEPTH) throw new SyntaxError(`the report nests objects and arrays more than ${MAX_JSON_DEPTH} deep`)
        if (c === OPEN_ARRAY && !entriesDone && entriesDepth < 0 && (depth === 1 || (depth === 2 && lastKey === 'entries'))) {
          entriesDepth = depth
          if (restStart >= 0) keep(chunk.subarray(restStart, i + 1))
          restStart = -1
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        depth -= 1
        if (entriesDepth >= 0) {
          if (c === CLOSE_OBJECT && depth === entriesDepth && elementStart >= 0) {
            const end = chunk.subarray(elementStart, i + 1)
            batch.push(begun.length > 0 ? Buffer.concat([...begun.splice(0), end]) : end)
            begunBytes = 0
            elementStart = -1
          } else if (c === CLOSE_ARRAY && depth === entriesDepth - 1) {
            entriesDepth = -1
            entriesDone = true
            restStart = i
          }
        }
      }
    }
    if (elementStart >= 0) {
      const part = chunk.subarray(elementStart)
      begunBytes += part.length
      if (begunBytes > MAX_ENTRY_BYTES) throw new SyntaxError(`an entry of the report is longer than ${MAX_ENTRY_BYTES / (1024 * 1024)} MiB`)
      begun.push(part)
    }
    if (restStart >= 0) keep(chunk.subarray(restStart))
    if (inString && keyStart >= 0) {
      keyPrefix += chunk.toString('utf8', keyStart)
      keyStart = 0
    }
    if (batch.length > 0) yield batch
  }
}

type Loose = Record<string, unknown>
interface Group {
  type: string
  count: number
  amount: { minorCurrencyUnits: number; currency: string }
}

/** The report summary added up over entries (the service's shape: counts, credits, debits, net, by type and merchant). */
export class ReportSummary {
  private credits = 0
  private debits = 0
  private count = 0
  private readonly types = new Map<string, Group>()
  private readonly merchants = new Map<string, { merchantId: string; count: number; net: { minorCurrencyUnits: number; currency: string } }>()

  constructor(
    private readonly scope: { currency: string | null; payoutId: string | null; createdAfter: string | null; createdBefore: string | null; parts: number },
  ) {}

  add(e: Loose): void {
    const amount = (e.amount as { minorCurrencyUnits?: number } | undefined)?.minorCurrencyUnits ?? 0
    const currency = this.scope.currency ?? (e.amount as { currency?: string } | undefined)?.currency ?? ''
    this.count += 1
    if (amount >= 0) this.credits += amount
    else this.debits += amount
    const type = String(e.type ?? '')
    const group = this.types.get(type) ?? { type, count: 0, amount: { minorCurrencyUnits: 0, currency } }
    group.count += 1
    group.amount.minorCurrencyUnits += amount
    this.types.set(type, group)
    const merchantId = String(e.merchantId ?? '')
    const m = this.merchants.get(merchantId) ?? { merchantId, count: 0, net: { minorCurrencyUnits: 0, currency } }
    m.count += 1
    m.net.minorCurrencyUnits += amount
    this.merchants.set(merchantId, m)
  }

  value() {
    const currency = this.scope.currency ?? ''
    const money = (n: number) => ({ minorCurrencyUnits: n, currency })
    return {
      currency: this.scope.currency,
      payoutId: this.scope.payoutId,
      createdAfter: this.scope.createdAfter,
      createdBefore: this.scope.createdBefore,
      entryCount: this.count,
      totalCredits: money(this.credits),
      totalDebits: money(this.debits),
      net: money(this.credits + this.debits),
      byType: [...this.types.values()],
      byMerchant: [...this.merchants.values()],
      parts: this.scope.parts,
    }
  }
}

/** Each part with its opened report body (JSON or CSV bytes), in order (see `openParts`). */
export type OpenedParts = AsyncIterable<{ part: DateRange; body: AsyncIterable<Buffer | string> }>

/** Reports of several parts as one JSON document: entries in order, each once, and the summary of them all. */
export async function* mergedJson(opened: OpenedParts, summary: ReportSummary): AsyncGenerator<string | Buffer> {
  yield '{"entries":['
  let first = true
  for await (const { part, body } of opened) {
    for await (const batch of jsonEntries(body)) {
      for (const bytes of batch) {
        const entry = JSON.parse(bytes.toString('utf8')) as Loose
        if (!inPart(entry.createdAt, part)) continue
        summary.add(entry)
        yield first ? '\n' : ',\n'
        yield bytes
        first = false
      }
    }
  }
  yield `${first ? '' : '\n'}],"summary":${JSON.stringify(summary.value())}}\n`
}
