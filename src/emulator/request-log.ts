// The request log of a namespace (`/__emulator/requests`): the last REQUEST_LOG_CAPACITY requests
// with what they sent and got back, credentials and secrets masked.
//
// Masking takes a dozen regular expressions over the URL, every header and both bodies: more than
// the rest of a simple request. So a request is logged as received, and masked the first time
// the log hands it out (the masked entry then replaces it). Whatever reads the log (the control
// plane, tests) only ever sees masked entries; the raw ones never leave this module.
import { isSensitiveKey, redactText as maskCardsAndUrls } from '../client/redact.js'
import { timestamp } from './clock.js'
import { RingBuffer } from './ring-buffer.js'
import { StreamBody } from './route.js'

/** One request as `/__emulator/requests` lists it (credentials and secrets masked). */
export interface RequestLogEntry {
  seq: number
  requestId: string
  /** Emulator time at which the request was handled. */
  at: string
  method: string
  url: string
  status: number
  durationMs: number
  /** The fault applied (from the header or a standing rule), if any. */
  fault: string | null
  requestHeaders: Record<string, string>
  requestBody: string | null
  responseBody: string | null
  /** The `Emulator-Warning` of the answer (unknown fields accepted), if any. */
  warning?: string | null
}

/** How much of a request or answer body the request log keeps. */
export const LOGGED_SNIPPET_CHARS = 4096

/** A request as logged before it is masked: its headers as received, its time in milliseconds (written out when read). */
export type RawLogEntry = Omit<RequestLogEntry, 'seq' | 'requestHeaders' | 'at'> & { at: number; requestHeaders: Readonly<Record<string, string | undefined>> }

export class RequestLog extends RingBuffer<RequestLogEntry> {
  constructor(capacity: number) {
    const masked = new WeakSet<RequestLogEntry>()
    super(capacity, (entry) => {
      if (masked.has(entry)) return entry
      const at: unknown = entry.at
      const out: RequestLogEntry = {
        ...entry,
        at: typeof at === 'number' ? timestamp(new Date(at)) : entry.at,
        url: redactText(entry.url),
        requestHeaders: redactHeaders(entry.requestHeaders),
        requestBody: entry.requestBody === null ? null : redactText(entry.requestBody),
        responseBody: entry.responseBody === null ? null : redactText(entry.responseBody),
      }
      masked.add(out)
      return out
    })
  }

  /** Logs a request as received; it is masked when first read. (The raw entry is not handed back.) */
  add(entry: RawLogEntry): void {
    this.push(entry as unknown as Omit<RequestLogEntry, 'seq'>)
  }
}

const SECRET_VALUE = /\b(sandbox|live)_(sk|api|ct|pbl)_[A-Za-z0-9_-]+/g
const IS_SECRET_VALUE = /^(sandbox|live)_(sk|api|ct|pbl)_/
// The closing quote may be missing: a logged snippet ends where it ends, possibly inside a secret.
const SECRET_FIELD = /("(?:secret|secretKey|password|apiKey)"\s*:\s*")([^"]*)("|$)/gi

/** A credential shown as its kind and last four characters: `sandbox_sk_…0001`. */
export function maskCredential(text: string): string {
  return text.replace(SECRET_VALUE, (m, env: string, kind: string) => `${env}_${kind}_…${m.slice(-4)}`)
}

/** Card security codes, hidden whole wherever a body names them. */
const CARD_CODE_FIELD = /("(?:cvc|cvv|cvc2|cvv2|cvn|csc|securityCode|cardSecurityCode|cardVerificationCode)"\s*:\s*)("[^"]*(?:"|$)|\d+)/gi
/** A card number cut by the end of a logged snippet: too short for the Luhn check, so hidden whole. */
const CUT_CARD_NUMBER_FIELD = /("(?:cardNumber|card_number|pan|primaryAccountNumber)"\s*:\s*)("[^"]*|\d+…?)$/i

/** Credentials, secret fields, card numbers (last four kept), security codes and URL passwords hidden. */
export function redactText(text: string): string {
  return maskCardsAndUrls(maskCredential(text))
    .replace(SECRET_FIELD, (_m, open: string, value: string, close: string) => `${open}…${value.slice(-4)}${close}`)
    .replace(CARD_CODE_FIELD, (_m, open: string) => `${open}"[REDACTED]"`)
    .replace(CUT_CARD_NUMBER_FIELD, (_m, open: string) => `${open}"[REDACTED]"`)
}

/**
 * Some hosts send their header lines again under stray names (`0: Authorization: Bearer …`, field
 * notes); such a line holds the credential as much as the real header does.
 */
const STRAY_AUTHORIZATION = /^\s*authorization\s*:\s*/i

function maskBearer(value: string): string {
  const credential = /^\s*Bearer\s+(\S+)/i.exec(value)?.[1]
  return credential === undefined ? '…' : IS_SECRET_VALUE.test(credential) ? `Bearer ${maskCredential(credential)}` : `Bearer …${credential.slice(-4)}`
}

function redactHeaders(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    if (name === 'authorization') out[name] = maskBearer(value)
    else if (STRAY_AUTHORIZATION.test(value)) out[name] = `Authorization: ${maskBearer(value.replace(STRAY_AUTHORIZATION, ''))}`
    // Proxy-Authorization, Cookie, X-Api-Key, X-Auth-Token…: a header named as a secret is one,
    // whatever its value looks like.
    else if (isSensitiveKey(name)) out[name] = value.length >= 12 ? `…${value.slice(-4)}` : '…'
    else out[name] = redactText(value)
  }
  return out
}

/**
 * What the log keeps of a body: its first LOGGED_SNIPPET_CHARS characters as text (a copy, so
 * the log never holds a large body alive), a size for binary, null for none. Not yet redacted.
 */
export function snippet(body: string | Buffer | StreamBody | undefined): string | null {
  if (body === undefined) return null
  if (body instanceof StreamBody) return '<streamed>'
  if (Buffer.isBuffer(body)) {
    if (body.length === 0) return null
    // Binary answers (PDF, zip) are not worth keeping; text is.
    const text = body.subarray(0, LOGGED_SNIPPET_CHARS).toString('utf8')
    if (text.includes('\uFFFD') || body.subarray(0, 512).includes(0)) return `<${body.length} bytes>`
    return body.length > LOGGED_SNIPPET_CHARS ? `${text}…` : text
  }
  if (body === '') return null
  // A copy, never a slice: a slice of a large body would keep the whole body alive in the log.
  return body.length > LOGGED_SNIPPET_CHARS ? `${copyOf(body.slice(0, LOGGED_SNIPPET_CHARS))}…` : body
}

/** A string that shares no storage with its source (V8 keeps the parent of a sliced string alive). */
function copyOf(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8')
}
