// What every resource file builds on: encoded paths, checked bodies and envelopes, parsed answers,
// and the list/iterate pair. Resource files stay declarative: path, method, schema.
import type { z } from 'zod'
import { unwrap } from './envelope.js'
import { InvalidInputError, ListIntegrityError, ResponseFormatError } from './errors.js'
import { fastCheck } from './fast-check.js'
import { listKeys } from './list-keys.js'
import { mayChange, outcomeOf } from './outcome.js'
import { redactJson } from './redact.js'
import { type IterateOptions, type Page, MAX_PAGE_SIZE, checkPaging, pageStream, toPage } from './pagination.js'
import { type ACTIONS, type ActionRoute, parseAction } from './schemas/actions.js'
import { describeIssues } from './schemas/common.js'
import type { Context, RawRequest, RawResponse, ResponseType, Transport } from './transport.js'

/** Per-call options, accepted as the last argument of every client method. */
export interface CallOptions {
  /** Context headers for this call; a field given here wins over the client's. */
  context?: Context | undefined
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined
  /** Aborts the call (the abort reason is thrown as is). */
  signal?: AbortSignal | undefined
}

/** Paging parameters every list operation takes. */
export interface PageQuery {
  limit?: number | undefined
  page?: number | undefined
  /** Comma-separated field names; a leading `-` sorts descending. */
  sort?: string | undefined
}

/**
 * Query values as resource methods take them. Wider than `Query` so that callers holding a
 * `Record<string, unknown>` can pass it; values are checked when the URL is built (strings,
 * numbers, booleans, Dates, arrays of those; undefined and null are left out).
 */
export type QueryInput = Record<string, unknown>

/** A list query: paging plus filters (arrays repeat the parameter). */
export type ListQuery = PageQuery & QueryInput

export interface IterateCallOptions {
  /** Stop after this many records. */
  max?: number | undefined
  /** Hard cap on pages fetched (default 100 000). */
  maxPages?: number | undefined
  /** Pages in flight at once once the page count is known (default 4, at most 16). */
  concurrency?: number | undefined
  /** Report an incomplete list through `onWarning` and go on, instead of failing (ListIntegrityError). */
  allowPartial?: boolean | undefined
  onWarning?: ((message: string) => void) | undefined
  call?: CallOptions | undefined
  /** Told of each page as it arrives (its number, Page-Count and Total-Record-Count): for progress. */
  onPage?: ((page: Page<unknown>) => void) | undefined
}

/** The envelope body accepted by an action route: one key naming the action, its fields inside. */
export type EnvelopeFor<R extends ActionRoute> = (typeof ACTIONS)[R] extends infer S
  ? S extends Record<string, z.ZodType>
    ? { [K in keyof S & string]: { [P in K]: z.input<S[K]> } }[keyof S & string]
    : Record<string, Record<string, unknown>>
  : never

/** Any single-key envelope, for bodies built at run time (e.g. from `--data`); checked before sending. */
export type AnyEnvelope = Record<string, Record<string, unknown>>

/** What an envelope parameter accepts: the typed variants, or any envelope (checked at run time). */
export type EnvelopeInput<R extends ActionRoute> = EnvelopeFor<R> | AnyEnvelope

/** Page size used by iterate() when the query gives none: the largest the contract allows. */
export const ITERATE_PAGE_SIZE = MAX_PAGE_SIZE

interface CallSpec {
  query?: QueryInput | undefined
  body?: unknown
  call?: CallOptions | undefined
  accept?: string | undefined
  responseType?: ResponseType | undefined
}

export class Core {
  constructor(readonly transport: Transport) {}

  /** Sends a request as given (no body validation) and returns the raw answer. */
  request<B = unknown>(raw: RawRequest): Promise<RawResponse<B>> {
    return this.transport.send<B>(raw)
  }

  /** Sends a request and returns its raw answer, applying the per-call options. */
  send<B = unknown>(method: string, path: string, spec: CallSpec = {}): Promise<RawResponse<B>> {
    return this.transport.send<B>({
      method,
      path,
      query: spec.query,
      body: spec.body,
      accept: spec.accept,
      responseType: spec.responseType,
      context: spec.call?.context,
      headers: spec.call?.headers,
      signal: spec.call?.signal,
    })
  }

  /** Sends a request and parses the JSON answer with `schema` (loose: unknown fields are kept). */
  async json<S extends z.ZodType>(method: string, path: string, schema: S, spec: CallSpec = {}): Promise<z.output<S>> {
    const response = await this.send(method, path, spec)
    return parseAnswer(schema, response.body, { method, path, status: response.status })
  }

  /** One page of a paginated list; a body that is not a list of records is a ListIntegrityError naming the page. */
  async list<S extends z.ZodType>(path: string, schema: S, query: QueryInput = {}, call?: CallOptions): Promise<Page<z.output<S>>> {
    return (await this.listLater(path, schema, query, call))()
  }

  /** One page, fetched now and parsed when the returned function is called. */
  private async listLater<S extends z.ZodType>(path: string, schema: S, query: QueryInput, call: CallOptions | undefined): Promise<() => Page<z.output<S>>> {
    checkPaging(query)
    const page = typeof query.page === 'number' ? query.page : 1
    const malformed = (error: unknown) => {
      if (!(error instanceof ResponseFormatError)) return error
      return new ListIntegrityError({ page, reason: 'malformed-page', message: `Page ${page} of ${path} is malformed: ${error.message}`, cause: error })
    }
    const response = await this.send<() => unknown>('GET', path, { query, call, responseType: 'json-later' }).catch((error: unknown) => {
      throw malformed(error)
    })
    return () => {
      try {
        const at = { method: 'GET', path, status: response.status }
        const body = response.body()
        if (!Array.isArray(body)) throw new ResponseFormatError({ ...at, body, reason: 'a list answer must be a JSON array' })
        const items = new Array<z.output<S>>(body.length)
        // A record the fast check vouches for is exactly what zod would return (see fast-check.ts).
        const fast = fastCheck(schema)
        for (let i = 0; i < body.length; i++) items[i] = fast?.(body[i]) ? (body[i] as z.output<S>) : parseAnswer(schema, body[i], at, `[${i}]`)
        return toPage(items, response.headers, {
          page: typeof query.page === 'number' ? query.page : undefined,
          limit: typeof query.limit === 'number' ? query.limit : undefined,
        })
      } catch (error) {
        throw malformed(error)
      }
    }
  }

  /**
   * Every record of every page from `query.page` (default 1), lazily: the walk of pagination.ts,
   * at 500 records a page unless the query says otherwise, its upper bound fixed when it starts
   * where the operation takes `createdBefore`, records already delivered dropped by identifier.
   */
  iterate<S extends z.ZodType>(path: string, schema: S, query: QueryInput = {}, options: IterateCallOptions = {}): AsyncIterable<z.output<S>> {
    const first = typeof query.page === 'number' ? query.page : 1
    const base: QueryInput = { ...query, limit: typeof query.limit === 'number' ? query.limit : ITERATE_PAGE_SIZE }
    checkPaging({ ...base, page: first })
    const keys = listKeys(path)
    const given = query.createdBefore
    const givenMs = given instanceof Date ? given.getTime() : typeof given === 'string' ? Date.parse(given) : Number.NaN
    const iterateOptions: IterateOptions<z.output<S>> = {
      max: options.max,
      maxPages: options.maxPages,
      concurrency: options.concurrency,
      allowPartial: options.allowPartial,
      onWarning: options.onWarning,
      identify: keys.identify,
      what: path,
      // A bound the caller gave in the past already holds the list still.
      bounded: keys.createdBefore && !(givenMs <= Date.now()),
    }
    const fetchPage = async (page: number, request: { bound?: number | undefined; signal: AbortSignal }) => {
      const pageQuery: QueryInput = { ...base, page }
      if (request.bound !== undefined && !(givenMs < request.bound)) pageQuery.createdBefore = new Date(request.bound).toISOString()
      const signal = options.call?.signal ? AbortSignal.any([options.call.signal, request.signal]) : request.signal
      const parse = await this.listLater(path, schema, pageQuery, { ...options.call, signal })
      if (!options.onPage) return parse
      return () => {
        const parsed = parse()
        options.onPage?.(parsed)
        return parsed
      }
    }
    // A RecordStream: records one by one, or a page at a time through batches().
    return pageStream(fetchPage, first, iterateOptions)
  }
}

/**
 * Parses an answer with a loose schema (unknown fields kept; the fields the schema requires
 * must be there); a mismatch is a ResponseFormatError naming the field, and to a POST, PATCH or
 * DELETE an OutcomeUnknownError (the change may have been made; its answer cannot say).
 */
export function parseAnswer<S extends z.ZodType>(schema: S, body: unknown, at: { method: string; path: string; status: number }, label?: string): z.output<S> {
  // An answer the fast check vouches for is exactly what zod would return (see fast-check.ts).
  if (fastCheck(schema)?.(body)) return body as z.output<S>
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  // The body is kept for diagnosis, with tokens and account numbers hidden.
  throw answerError(new ResponseFormatError({ ...at, body: redactJson(body), reason: describeIssues(parsed.error, label) }))
}

/** Checks a request body with a strict schema before anything is sent. */
export function checkBody<S extends z.ZodType>(schema: S, body: unknown, label: string): z.output<S> {
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  throw new InvalidInputError(`Invalid ${label}: ${describeIssues(parsed.error)}`)
}

/** Checks an envelope against the action route it is sent to; returns the checked envelope. */
export function checkEnvelope<R extends ActionRoute>(route: R, envelope: unknown): Record<string, unknown> {
  const result = parseAction(route, envelope)
  if (!result.ok) throw new InvalidInputError(`Invalid request for ${route}: ${result.message}`)
  return { [result.kind]: result.value }
}

/** Opens a single-key answer; a malformed one is a ResponseFormatError. */
export function openAnswer(body: unknown, at: { method: string; path: string; status: number }): { kind: string; value: unknown } {
  try {
    return unwrap(body)
  } catch (error) {
    throw answerError(new ResponseFormatError({ ...at, body, reason: (error as Error).message }))
  }
}

/** A malformed answer as the caller must see it: to a change, an unknown outcome. */
export function answerError(error: ResponseFormatError): unknown {
  return mayChange(error.method) ? outcomeOf(error.method, error.path, error) : error
}

/**
 * A path with each interpolated value checked (a non-empty string) and URL-encoded:
 * path`/orders/${id}/pay`.
 */
export function path(strings: TemplateStringsArray, ...ids: unknown[]): string {
  let out = strings[0] ?? ''
  ids.forEach((id, index) => {
    if (typeof id !== 'string' || id.trim() === '') {
      throw new InvalidInputError(`An identifier in ${strings.join('{id}')} is missing or empty`)
    }
    out += encodeURIComponent(id) + (strings[index + 1] ?? '')
  })
  return out
}

/** Throws InvalidInputError when none of the given query fields is set. */
export function requireSome(query: QueryInput, fields: string[], message: string, hint?: string): void {
  if (!fields.some((field) => isSet(query[field]))) throw new InvalidInputError(message, hint)
}

/** True when a query value is present (a non-empty array, a non-empty string, any number/boolean). */
export function isSet(value: unknown): boolean {
  if (value === undefined || value === null) return false
  if (Array.isArray(value)) return value.length > 0
  if (typeof value === 'string') return value.trim() !== ''
  return true
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
