// What goes on and comes off the wire, apart from sending it: the context and query types,
// query encoding, response headers, and reading a success answer's JSON. Pure functions; the
// transport (transport.ts) does the sending.
import type { FormData } from 'undici'
import { ApiError, InvalidInputError, ResponseFormatError } from './errors.js'
import { MAX_JSON_DEPTH, jsonDepthOver } from './json-depth.js'
import { REDACTED, redactSecrets } from './redact.js'

/** The entity a call acts for; each field becomes a context header when set. */
export interface Context {
  marketplaceId?: string | undefined
  merchantId?: string | undefined
  customerId?: string | undefined
  /** Real integrations send this beside the contract's three (creating a payment source). */
  customerDelegateUserId?: string | undefined
}

/** Query parameters: arrays repeat the parameter, undefined is left out, booleans are true/false. */
export type Query = Record<string, string | number | boolean | undefined | null | Array<string | number | boolean>>

/** `json-later`: the body is a function that parses the JSON when called (list pages of a walk). */
export type ResponseType = 'json' | 'json-later' | 'text' | 'bytes' | 'stream'

export interface RawRequest {
  method: string
  /** Path relative to the base URL, ids already encoded. */
  path: string
  query?: Query | Record<string, unknown> | undefined
  /**
   * JSON value (sent as application/json), or an undici FormData (multipart, its own
   * Content-Type), or bytes (sent as given with the caller's Content-Type).
   */
  body?: unknown
  headers?: Record<string, string> | undefined
  context?: Context | undefined
  accept?: string | undefined
  responseType?: ResponseType | undefined
  signal?: AbortSignal | undefined
}

export interface RawResponse<B = unknown> {
  status: number
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>
  body: B
  requestId?: string | undefined
}

/** What a ResponseFormatError says of an answer that nests deeper than payfac reads. */
export const TOO_DEEP = `it nests objects and arrays more than ${MAX_JSON_DEPTH} deep, deeper than payfac reads`

/**
 * A success answer's JSON: undefined when empty; a ResponseFormatError when not JSON or nested
 * more than MAX_JSON_DEPTH deep (unless the caller checked the depth already); an ApiError when
 * it names a failure.
 */
export function readJson(
  text: string,
  at: { method: string; path: string; status: number; contentType: string; requestId: string | undefined; secrets: string[]; depthChecked?: boolean },
): unknown {
  const { method, path, status, contentType, requestId, secrets } = at
  if (text.trim() === '') return undefined
  if (!at.depthChecked && jsonDepthOver(text)) throw new ResponseFormatError({ method, path, status, body: undefined, reason: TOO_DEEP })
  let parsed: unknown
  try {
    parsed = JSON.parse(text) as unknown
  } catch {
    const safe = redactSecrets(text, secrets)
    const snippet = safe.trim().replace(/\s+/g, ' ').slice(0, 120)
    throw new ResponseFormatError({
      method,
      path,
      status,
      body: safe,
      reason: `expected JSON${contentType ? ` but got ${contentType.split(';')[0]}` : ''}: ${snippet}`,
    })
  }
  // Real clients recognise an error body by its errorCode; one that arrives with a success
  // status but names a failure status of its own is treated as that failure.
  const embedded = embeddedErrorStatus(parsed)
  if (embedded !== undefined) {
    const body = parseMaybeJson(redactSecrets(text, secrets), contentType)
    throw new ApiError({ status: embedded, method, path, body, requestId })
  }
  return parsed
}

/** Client context overlaid with per-call context; an undefined per-call field keeps the client's. */
export function mergeContext(base: Context, call: Context | undefined): Context {
  const merged: Context = { ...base }
  for (const [key, value] of Object.entries(call ?? {}) as Array<[keyof Context, string | undefined]>) {
    if (value !== undefined) merged[key] = value
  }
  return merged
}

/**
 * `limit=20&status=paid&status=refunded&expired=false`. Arrays repeat the parameter; undefined
 * and null are left out; booleans are true/false; Dates are ISO 8601. Anything else (an object)
 * is refused: it has no agreed form in a query string.
 */
export function encodeQuery(query: Query | Record<string, unknown> | undefined): string {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    const values: unknown[] = Array.isArray(value) ? value : [value]
    for (const item of values) {
      const text = queryValue(name, item)
      if (text !== undefined) params.append(name, text)
    }
  }
  return params.toString()
}

function queryValue(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new InvalidInputError(`Query parameter ${name} is not a finite number`)
    return String(value)
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new InvalidInputError(`Query parameter ${name} is an invalid date`)
    return value.toISOString()
  }
  throw new InvalidInputError(
    `Query parameter ${name} must be a string, number, boolean or date (got ${Array.isArray(value) ? 'a nested array' : typeof value})`,
  )
}

function embeddedErrorStatus(body: unknown): number | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined
  const { errorCode, statusCode } = body as { errorCode?: unknown; statusCode?: unknown }
  if (typeof errorCode !== 'string' || !errorCode) return undefined
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 400 || statusCode > 599) return undefined
  return statusCode
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

/** An error answer's body: its JSON, or the text when it is not JSON or nests deeper than payfac reads. */
export function parseMaybeJson(text: string, contentType: string): unknown {
  const trimmed = text.trim()
  if (!trimmed) return undefined
  if ((/json/i.test(contentType) || trimmed.startsWith('{') || trimmed.startsWith('[')) && !jsonDepthOver(trimmed)) {
    try {
      return JSON.parse(trimmed) as unknown
    } catch {
      return text
    }
  }
  return text
}

export function describeForm(form: FormData): string {
  const parts: string[] = []
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parts.push(`${name}=${/token|secret|password/i.test(name) ? REDACTED : value}`)
    else parts.push(`${name}=<file ${(value as { name?: string }).name ?? ''} ${(value as { size?: number }).size ?? 0} bytes>`)
  }
  return `<multipart ${parts.join(', ')}>`
}

/** The most bytes of one JSON (or error) answer the client reads: 64 MiB. */
export const MAX_JSON_BODY_BYTES = 64 * 1024 * 1024

/** An answer longer than the client reads; its message says how long and what the cap is. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError'
}

/** `67108864` → `64 MiB`, `1500` → `1500 bytes`. */
export function describeBytes(bytes: number): string {
  const mib = 1024 * 1024
  return bytes >= mib && bytes % mib === 0 ? `${bytes / mib} MiB` : `${bytes} bytes`
}

/**
 * The body's chunks as they arrived, not joined, reading at most `limit` bytes: a declared
 * `Content-Length` above it is refused before anything is read, and a body that grows past it
 * is stopped there (the stream destroyed, nothing more buffered). Either is a BodyTooLargeError.
 */
export function boundedChunks(body: NodeJS.ReadableStream & { destroy?: (error?: Error) => void }, limit: number, contentLength?: string): Promise<Buffer[]> {
  const declared = contentLength !== undefined && /^\d+$/.test(contentLength.trim()) ? Number(contentLength.trim()) : undefined
  if (declared !== undefined && declared > limit) {
    body.destroy?.()
    return Promise.reject(new BodyTooLargeError(`it declares ${declared} bytes (Content-Length), more than the ${describeBytes(limit)} payfac reads`))
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > limit) {
        body.removeListener('data', onData)
        body.destroy?.()
        reject(new BodyTooLargeError(`it is longer than the ${describeBytes(limit)} payfac reads`))
        return
      }
      chunks.push(chunk)
    }
    body.on('data', onData)
    body.once('end', () => resolve(chunks))
    body.once('error', reject)
  })
}

/** UTF-8 chunks as text, as `body.text()` decodes them: a leading byte order mark is dropped. */
export function utf8Text(chunks: Buffer[]): string {
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  return bytes.toString('utf8', start)
}
