// Reading the answer of one attempt: its body as the request asked (JSON now or later, text,
// bytes, a stream), bounded in size, its debug line, an error status turned into an ApiError,
// and a failure of the network turned into the client's typed error (TimeoutError,
// ConnectionError, InvalidInputError). The transport (transport.ts) sends and retries.
import type { Readable } from 'node:stream'
import type { Dispatcher } from 'undici'

import type { Attempt } from './attempt.js'
import { ApiError, ConnectionError, InvalidInputError, type PayfacError, ResponseFormatError, TimeoutError } from './errors.js'
import { jsonBytesDepthOver } from './json-depth.js'
import { errorCode, errorReason } from './outcome.js'
import { redactBodyText, redactHeaders, redactSecrets, redactUrl } from './redact.js'
import { withRetryAfter } from './retry.js'
import { type RawResponse, type ResponseType, BodyTooLargeError, boundedChunks, flattenHeaders, parseMaybeJson, readJson, TOO_DEEP, utf8Text } from './wire.js'

/** Network failures where nothing reached the service: the connection was never made. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT'])

/** One attempt as its answer is read: what was sent, how it may be read, and where debug lines go. */
export interface Exchange {
  method: string
  /** The path for messages (no query string). */
  path: string
  url: string
  responseType: ResponseType
  timeoutMs: number
  /** The most a JSON or error body may hold. */
  maxBodyBytes: number
  /** Never shown: the credential and any other bearer value sent. */
  secrets: string[]
  attempt: Attempt
  /** Milliseconds since the attempt started. */
  elapsed: () => number
  /** Whether a debug sink takes lines (bodies are redacted for it only then). */
  debugging: boolean
  /** Writes a debug line with `secrets` redacted (nothing without a debug sink). */
  log: (line: string, secrets: readonly string[]) => void
}

/** The answer of an attempt whose headers came: the body read as `responseType` asks, or an ApiError for an error status. */
export async function readAnswer(response: Dispatcher.ResponseData, x: Exchange): Promise<RawResponse> {
  const { method, path, url, responseType, secrets, attempt, elapsed, debugging } = x
  const status = response.statusCode
  const responseHeaders = flattenHeaders(response.headers)
  const requestId = responseHeaders['request-id'] ?? responseHeaders['x-request-id']
  const ok = status >= 200 && status < 300

  if (ok && responseType === 'stream') {
    // The deadline covered the wait for headers; a download then only has the idle timeout,
    // and the caller's signals still stop it, until the body closes (then their listeners go,
    // so that a report in many parts does not pile them up on the client's signal).
    attempt.stopDeadline()
    response.body.once('close', attempt.disarm)
    if (debugging) x.log(`← ${status} ${method} ${redactUrl(url)} (${elapsed()} ms) ${JSON.stringify(redactHeaders(responseHeaders))} <stream>`, secrets)
    return { status, headers: responseHeaders, body: response.body as unknown as Readable, requestId }
  }

  const binary = ok && responseType === 'bytes'
  // A list page that waits its turn in a walk stays bytes (outside the JS heap) until it is
  // parsed: as text, a page of 500 records is a string large enough that V8 moves it to the
  // old generation the first time a collection finds it alive, where it stays until the next
  // full collection. Decoded just before parsing, it lives only while it is parsed.
  const later = ok && responseType === 'json-later' && !debugging
  // Other answers are read as text. JSON and error bodies are read up to maxBodyBytes (64 MiB)
  // and no further: a declared Content-Length above it is refused before reading, and the
  // bytes are counted as they come, the read stopped at the cap. Downloads (bytes, stream) and
  // text (reports) are exempt: their readers bound them their own way.
  let bytes: Uint8Array | undefined
  let chunks: Buffer[] | undefined
  let text = ''
  const bounded = !binary && (responseType !== 'text' || !ok)
  try {
    if (binary) bytes = new Uint8Array(await response.body.arrayBuffer())
    else if (!bounded) text = await response.body.text()
    else {
      const read = await boundedChunks(response.body, x.maxBodyBytes, responseHeaders['content-length'])
      if (later) chunks = read
      else text = utf8Text(read)
    }
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new ResponseFormatError({ method, path, status, body: undefined, reason: error.message })
    }
    throw networkError(error, x)
  } finally {
    attempt.disarm()
  }

  const contentType = responseHeaders['content-type'] ?? ''
  // What is shown (debug lines, errors) never carries a known secret; redacting a body costs a
  // parse, a deep copy and a stringify, so it is done only when a debug line will show it.
  if (debugging) {
    const shown = bytes ? `<${bytes.byteLength} bytes>` : text ? redactBodyText(text, secrets) : ''
    x.log(`← ${status} ${method} ${redactUrl(url)} (${elapsed()} ms) ${JSON.stringify(redactHeaders(responseHeaders))}${shown ? ` ${shown}` : ''}`, secrets)
  }

  if (!ok) {
    const errorBody = parseMaybeJson(redactSecrets(text, secrets), contentType)
    throw withRetryAfter(new ApiError({ status, method, path, body: errorBody, requestId }), responseHeaders['retry-after'])
  }

  if (chunks) {
    let page: Buffer[] | undefined = chunks
    // Parsed when the walk reaches the page: its records die young instead of ageing in memory
    // while earlier pages are printed. The chunks are let go as soon as they are decoded.
    const parse = () => {
      const held = page ?? []
      page = undefined
      // The depth is checked on the bytes, before they are decoded (twice as fast as on the text).
      if (jsonBytesDepthOver(held)) throw new ResponseFormatError({ method, path, status, body: undefined, reason: TOO_DEEP })
      return readJson(utf8Text(held), { method, path, status, contentType, requestId, secrets, depthChecked: true })
    }
    return { status, headers: responseHeaders, body: parse, requestId }
  }
  if (bytes) return { status, headers: responseHeaders, body: bytes, requestId }
  if (responseType === 'text') return { status, headers: responseHeaders, body: text, requestId }

  const read = () => readJson(text, { method, path, status, contentType, requestId, secrets })
  if (responseType === 'json-later') return { status, headers: responseHeaders, body: read, requestId }
  return { status, headers: responseHeaders, body: read(), requestId }
}

/**
 * What a failure of the network layer means: the caller's own abort as it is, a request that could
 * not be built (InvalidInputError), a deadline (TimeoutError), or a ConnectionError that says
 * whether the request may have reached the service. Logged as a debug line.
 */
export function networkError(error: unknown, x: Exchange): unknown {
  const timedOut = x.attempt.timedOut()
  const elapsed = x.elapsed()
  if (x.attempt.callerAborted() && !timedOut) return error
  const code = errorCode(error)
  let result: PayfacError
  if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_ARG_VALUE') {
    // Nothing was sent: the request itself could not be built (e.g. a line break in a header).
    result = new InvalidInputError(`${x.method} ${x.path} could not be sent: ${redactSecrets(errorReason(error), x.secrets)}`)
  } else if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    result = new TimeoutError({ method: x.method, path: x.path, timeoutMs: x.timeoutMs })
  } else {
    const reason = redactSecrets(errorReason(error), x.secrets)
    result = new ConnectionError({
      method: x.method,
      path: x.path,
      code,
      mayHaveReachedService: !(code !== undefined && NEVER_CONNECTED.has(code)),
      reason,
    })
  }
  x.log(`✗ ${x.method} ${redactUrl(x.url)} (${elapsed} ms) ${result.message}`, x.secrets)
  return result
}
